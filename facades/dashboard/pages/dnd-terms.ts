import {
  DashAddDndContractTermsDocument,
  DashDndContractTermsDocument,
  DashRemoveDndContractTermsDocument,
  type DayBasis,
  type DndChargeType,
  type DndContractTermsInput,
  type EquipmentClass,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, day, esc, notice } from "../html";
import type { Mount } from "../mount";

/**
 * The organisation's demurrage and detention contract terms (issue 38 part D): what it has, adding
 * terms (free days, day bases, rate slabs, for a carrier and port or everywhere) and removing them
 * after asking. The core checks the terms and resolves which apply to a box; this page only reads the
 * form and says the core's refusals in the form's own words, keeping what was typed.
 */
const CHARGE: Record<DndChargeType, string> = {
  demurrage: "Demurrage (discharge to gate-out)",
  detention: "Detention (gate-out to empty return)",
  combined: "Combined (discharge to empty return)",
};
const EQUIPMENT: Record<EquipmentClass, string> = {
  any: "Any box",
  dry: "Dry, any size",
  dry20: "Dry 20'",
  dry40: "Dry 40'",
  hc40: "High cube 40'",
  reefer: "Reefer, any size",
  reefer20: "Reefer 20'",
  reefer40: "Reefer 40'",
  special: "Special, any size",
  special20: "Special 20'",
  special40: "Special 40'",
};
const BASIS: Record<DayBasis, string> = { calendar: "Calendar days", working: "Working days" };
const SLAB_ROWS = 4;
const PATH = "/dashboard/dnd-terms";

/** The form as typed: every value a string, so a refusal shows it back unchanged. */
type Typed = Record<string, string>;

const BLANK: Typed = {
  chargeType: "demurrage",
  direction: "import",
  equipment: "any",
  freeDayBasis: "calendar",
  chargeDayBasis: "calendar",
  clockStartRule: "next_day",
  slab1From: "1",
};

/** The core's field names as this form labels them, so a refusal never names an API field. */
const LABELS: [RegExp, string][] = [
  [/\bslabs\.(\d+)(\.(rate|fromDay|toDay))?/g, "rate step"],
  [/\bslab (\d+)/g, "rate step $1"],
  [/\bcarrierScac\b/g, "Carrier"],
  [/\bportLocode\b/g, "Port"],
  [/\bcountryCode\b/g, "Country"],
  [/\bfreeDays\b/g, "Free days"],
  [/\bcurrency\b/g, "Currency"],
  [/\beffectiveFrom\b/g, "Valid from"],
  [/\beffectiveTo\b/g, "Valid until"],
  [/\bnote\b/g, "Note"],
];

function inPlainWords(message: string): string {
  // "freeDays: freeDays is not negative" names the field twice: the sentence alone says it.
  const sentence = message.replace(/^[\w.]+:\s*(?=[a-zA-Z]+ )/, "");
  const labelled = LABELS.reduce((text, [pattern, label]) => text.replace(pattern, label), sentence);
  return labelled.charAt(0).toUpperCase() + labelled.slice(1);
}

/** Reads the typed form into the core's input; a number that is not one is said here, in words. */
function readForm(typed: Typed): { input: DndContractTermsInput } | { problem: string } {
  const whole = (value: string, label: string): number | string => {
    if (!/^\d+$/.test(value.trim())) return `${label}: enter a whole number of days, such as 5.`;
    return Number(value.trim());
  };
  const freeDays = whole(typed.freeDays ?? "", "Free days");
  if (typeof freeDays === "string") return { problem: freeDays };
  const slabs: DndContractTermsInput["slabs"] = [];
  for (let row = 1; row <= SLAB_ROWS; row++) {
    const from = typed[`slab${row}From`]?.trim() ?? "";
    const to = typed[`slab${row}To`]?.trim() ?? "";
    const rate = typed[`slab${row}Rate`]?.trim() ?? "";
    // An untouched row is skipped: empty, or the first with only its printed "from day 1".
    if (!rate && !to && (!from || (row === 1 && from === "1"))) continue;
    const fromDay = whole(from, `Rate step ${row}, from day`);
    if (typeof fromDay === "string") return { problem: fromDay };
    const toDay = to === "" ? null : whole(to, `Rate step ${row}, to day`);
    if (typeof toDay === "string") return { problem: toDay };
    if (!/^\d+(\.\d{1,2})?$/.test(rate)) {
      return { problem: `Rate step ${row}: enter the rate per day as a number, such as 75 or 75.50.` };
    }
    slabs.push({ fromDay, toDay, rate: Number(rate) });
  }
  if (slabs.length === 0)
    return { problem: "Enter at least one rate step: from day 1, with its rate per day." };
  const optional = (k: string) => (typed[k]?.trim() ? typed[k]!.trim() : undefined);
  return {
    input: {
      carrierScac: optional("carrierScac"),
      portLocode: optional("portLocode"),
      countryCode: optional("countryCode"),
      direction: typed.direction === "export" ? "export" : "import",
      chargeType: ((typed.chargeType ?? "") in CHARGE ? typed.chargeType : "demurrage") as DndChargeType,
      equipment: ((typed.equipment ?? "") in EQUIPMENT ? typed.equipment : "any") as EquipmentClass,
      freeDays,
      freeDayBasis: (typed.freeDayBasis === "working" ? "working" : "calendar") as DayBasis,
      chargeDayBasis: (typed.chargeDayBasis === "working" ? "working" : "calendar") as DayBasis,
      clockStartRule: typed.clockStartRule === "same_day" ? "same_day" : "next_day",
      slabs,
      currency: typed.currency?.trim() ?? "",
      effectiveFrom: typed.effectiveFrom?.trim() ?? "",
      effectiveTo: optional("effectiveTo"),
      note: optional("note"),
    },
  };
}

export function mountDndTermsPages(get: Mount, post: Mount): void {
  get(PATH, (s) => termsPage(s));
  post(PATH, async (s) => {
    const body = (s.req.body ?? {}) as Record<string, unknown>;
    const typed: Typed = Object.fromEntries(
      Object.entries(body)
        .filter(([k, v]) => k !== "_csrf" && typeof v === "string")
        .map(([k, v]) => [k, String(v)]),
    );
    const read = readForm(typed);
    if ("problem" in read) return termsPage(s, notice("error", read.problem), typed, 400);
    const added = await s.run(s.deps.run(s.caller, DashAddDndContractTermsDocument, { input: read.input }));
    if (!added) {
      const message = s.lastStatus === 400 ? inPlainWords(s.lastError ?? "") : null;
      return termsPage(
        s,
        message ? notice("error", `The terms were not saved: ${message}.`) : refusal(s).html,
        typed,
        s.lastStatus,
      );
    }
    // Post/redirect/get: reloading never adds the terms twice.
    s.res.redirect(303, `${PATH}?added=1`);
  });
  get(`${PATH}/:id/remove`, async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashDndContractTermsDocument));
    const terms = data?.dndContractTerms.find((t) => t.id === String(s.req.params.id));
    if (!terms) return termsPage(s, notice("error", "No such contract terms."), undefined, 404);
    const question = `Remove the terms for ${scope(terms)}?`;
    s.render(
      question,
      PATH,
      confirmation({
        question,
        consequence: `Boxes these terms covered are charged from the next most specific contract terms, else the carrier's published tariff or a benchmark. This cannot be undone; the terms can be entered again.`,
        action: `${PATH}/${terms.id}/remove`,
        confirmLabel: "Remove these terms",
        cancelHref: PATH,
        csrf: s.session.csrfToken,
      }),
    );
  });
  post(`${PATH}/:id/remove`, async (s) => {
    const done = await s.run(
      s.deps.run(s.caller, DashRemoveDndContractTermsDocument, { id: String(s.req.params.id) }),
    );
    if (!done) return termsPage(s, refusal(s).html, undefined, refusal(s).status);
    await termsPage(s, notice("ok", "Contract terms removed."));
  });
}

type Terms = NonNullable<Awaited<ReturnType<typeof loadTerms>>>[number];

async function loadTerms(s: Signed) {
  const data = await s.run(s.deps.run(s.caller, DashDndContractTermsDocument));
  return data?.dndContractTerms ?? null;
}

function scope(t: Pick<Terms, "chargeType" | "carrierScac" | "portLocode" | "countryCode">): string {
  const where = t.portLocode ?? t.countryCode ?? "every port";
  return `${t.chargeType} with ${t.carrierScac ?? "every carrier"} at ${where}`;
}

async function termsPage(s: Signed, message = "", typed: Typed = BLANK, status?: number): Promise<void> {
  const terms = await loadTerms(s);
  const loadError = terms === null ? refusal(s).html : "";
  const added = s.req.query.added === "1" && !message ? notice("ok", "Contract terms saved.") : "";
  const list =
    terms === null
      ? ""
      : terms.length === 0
        ? emptyState(
            "No contract terms yet: demurrage and detention are estimated from the carriers' published tariffs, or a benchmark. Enter your contract's free days and rates below.",
          )
        : `<div class="table-wrap"><table aria-label="Contract terms"><thead><tr><th scope="col">Clock</th><th scope="col">Carrier</th><th scope="col">Where</th><th scope="col">Box</th><th scope="col">Free days</th><th scope="col">Rates per day</th><th scope="col">Valid</th><th scope="col">Remove</th></tr></thead><tbody>${terms
            .map(
              (t) =>
                `<tr data-testid="terms"><td>${esc(CHARGE[t.chargeType] ?? t.chargeType)}<br><span class="muted">${esc(t.direction)}</span></td><td>${esc(t.carrierScac ?? "Every carrier")}</td><td>${esc(t.portLocode ?? t.countryCode ?? "Everywhere")}</td><td>${esc(EQUIPMENT[t.equipment] ?? t.equipment)}</td><td>${t.freeDays} ${esc(t.freeDayBasis === "working" ? "working" : "calendar")} days<br><span class="muted">${t.clockStartRule === "same_day" ? "counted from the start day" : "counted from the day after"}</span></td><td>${t.slabs.map((r) => `day ${r.fromDay}${r.toDay === null ? " on" : `–${r.toDay}`}: ${r.rate.toFixed(2)} ${esc(t.currency)}`).join("<br>")}</td><td>${day(t.effectiveFrom)} – ${t.effectiveTo ? day(t.effectiveTo) : "open"}</td><td>${dangerLink(`${PATH}/${t.id}/remove`, `Remove ${scope(t)}…`)}</td></tr>`,
            )
            .join("")}</tbody></table></div>`;
  const v = (k: string) => esc(typed[k] ?? "");
  const select = (name: string, id: string, label: string, options: Record<string, string>) =>
    `<div><label for="${id}">${esc(label)}</label><select id="${id}" name="${name}">${Object.entries(options)
      .map(
        ([k, text]) =>
          `<option value="${esc(k)}"${typed[name] === k ? " selected" : ""}>${esc(text)}</option>`,
      )
      .join("")}</select></div>`;
  const text = (
    name: string,
    id: string,
    label: string,
    { size, extra = "" }: { size: number; extra?: string },
  ) =>
    `<div><label for="${id}">${esc(label)}</label><input id="${id}" name="${name}" value="${v(name)}" size="${size}"${extra}></div>`;
  const slabRows = Array.from({ length: SLAB_ROWS }, (_, i) => i + 1)
    .map(
      (row) =>
        `<div class="row"><span class="muted">Step ${row}</span>${text(`slab${row}From`, `slab${row}-from`, "From day", { size: 4, extra: ' inputmode="numeric"' })}${text(`slab${row}To`, `slab${row}-to`, "To day (empty: no end)", { size: 4, extra: ' inputmode="numeric"' })}${text(`slab${row}Rate`, `slab${row}-rate`, "Rate per day", { size: 8, extra: ' inputmode="decimal"' })}</div>`,
    )
    .join("");
  const form = `<form method="post" action="${PATH}" class="card" aria-labelledby="add-terms">${csrfField(s.session.csrfToken)}<h2 id="add-terms">Add contract terms</h2>
<p class="muted">Terms for a port win over a country's, a country's over everywhere; a carrier's over every carrier's. They win over every published tariff.</p>
<fieldset><legend>What they cover</legend><div class="row">
${select("chargeType", "t-charge", "Clock", CHARGE)}
${select("direction", "t-direction", "Direction", { import: "Import", export: "Export" })}
${text("carrierScac", "t-carrier", "Carrier SCAC (empty: every carrier)", { size: 6, extra: ' maxlength="4"' })}
${text("portLocode", "t-port", "Port UN/LOCODE (empty: whole country or everywhere)", { size: 6, extra: ' maxlength="5"' })}
${text("countryCode", "t-country", "Country code (empty: everywhere)", { size: 3, extra: ' maxlength="2"' })}
${select("equipment", "t-equipment", "Box", EQUIPMENT)}
</div></fieldset>
<fieldset><legend>Free time</legend><div class="row">
${text("freeDays", "t-free-days", "Free days", { size: 4, extra: ' inputmode="numeric" required' })}
${select("freeDayBasis", "t-free-basis", "Free days are", BASIS)}
${select("clockStartRule", "t-start", "Counting starts", { next_day: "The day after the clock starts", same_day: "On the day the clock starts" })}
</div></fieldset>
<fieldset><legend>Rates after the free days (day 1 is the first charged day; steps follow on without gaps)</legend>
${slabRows}
<div class="row">${select("chargeDayBasis", "t-charge-basis", "Charged days are", BASIS)}${text("currency", "t-currency", "Currency (ISO code, such as USD)", { size: 4, extra: ' maxlength="3" required' })}</div>
</fieldset>
<fieldset><legend>Validity</legend><div class="row">
${text("effectiveFrom", "t-from", "Valid from (YYYY-MM-DD)", { size: 11, extra: ' required placeholder="2026-01-01"' })}
${text("effectiveTo", "t-to", "Valid until (YYYY-MM-DD, empty: open)", { size: 11 })}
${text("note", "t-note", "Note (optional)", { size: 24, extra: ' maxlength="500"' })}
</div></fieldset>
<p><button type="submit">Save contract terms</button></p></form>`;
  s.render(
    "Demurrage and detention contract terms",
    PATH,
    `${message}${added}${loadError}${list}${form}`,
    status,
  );
}
