import { answerFor, OUTCOMES } from "../../../src/http/outcomes";
import {
  DashArchiveShipmentDocument,
  DashDeleteFilterDocument,
  DashSavedFiltersDocument,
  DashSaveFilterDocument,
  DashScreenReferencesDocument,
  DashShareDocument,
  DashShipmentDisruptionsDocument,
  DashShipmentDocument,
  DashShipmentsDocument,
  DashTrackDocument,
  DashUnshareDocument,
  DashUntrackShipmentDocument,
  type ShipmentSort,
  type ShipmentStatus,
} from "../../generated/operations";
import { routeMapSvg } from "../../share/map";
import { emptyState, refusal, type Signed } from "../context";
import {
  arrivalTime,
  csrfField,
  esc,
  notice,
  portTime,
  postButton,
  STATUS_TEXT,
  statusBadge,
  time,
} from "../html";
import type { Mount } from "../mount";
import { follow, outlookSections } from "./outlook";
import { customerSection, documentsSection, mountShipmentTools, refreshControl } from "./shipment-tools";

const SEVERITY: Record<number, string> = {
  1: "information",
  2: "moderate",
  3: "high",
  4: "critical",
  5: "critical, widely reported",
};
const STATUSES = ["PLANNED", "IN_TRANSIT", "DELIVERED", "CANCELLED", "UNKNOWN"] as const;
/** The list's orders: the URL's `sort` and the core's ShipmentSort (the core orders, not the page). */
const SORTS: { key: string; value: ShipmentSort }[] = [
  { key: "newest", value: "NEWEST" },
  { key: "arrival", value: "ARRIVAL" },
  { key: "arrival_desc", value: "ARRIVAL_DESC" },
  { key: "reference", value: "REFERENCE" },
  { key: "carrier", value: "CARRIER" },
  { key: "status", value: "STATUS" },
  { key: "synced", value: "SYNCED" },
  { key: "last_free_day", value: "LAST_FREE_DAY" },
];
/** Hold types in words (the core's codes: customs, freight, terminal, usda, other). */
const HOLD_WORDS: Record<string, string> = {
  customs: "Customs",
  freight: "Line (freight)",
  terminal: "Terminal",
  usda: "USDA",
  other: "Other",
};

/** The kept free time: the earliest running clock's last free day, with the core's soon or passed. */
function lastFreeDayCell(i: {
  freeTime?: { lastFreeDay?: string | null; lastFreeDaySoon: boolean; lastFreeDayPassed: boolean } | null;
}): string {
  const ft = i.freeTime;
  if (!ft?.lastFreeDay) return "—";
  const flag = ft.lastFreeDayPassed ? "✕ passed" : ft.lastFreeDaySoon ? "⚠ soon" : "";
  return `${esc(ft.lastFreeDay)}${flag ? ` <span class="late">${flag}</span>` : ""}`;
}

function holdsCell(holds: readonly { container: string; type: string; status: string }[]): string {
  if (holds.length === 0) return "—";
  const types = [...new Set(holds.map((h) => HOLD_WORDS[h.type] ?? h.type))];
  const pending = holds.every((h) => h.status === "pending");
  return `<span class="late">${esc(types.join(", "))}${pending ? " (release pending)" : ""}</span>`;
}

/** The list's filters, read from the URL (so a filtered view is a link, and Back works). */
function filterFromQuery(query: Record<string, unknown>) {
  const str = (k: string) => (typeof query[k] === "string" ? (query[k] as string).trim() : "");
  const status = STATUSES.filter((s) => s === str("status"));
  const etaDays = Number.parseInt(str("eta"), 10);
  const filter: Record<string, unknown> = {};
  if (status.length) filter.status = status as ShipmentStatus[];
  if (str("carrier")) filter.carrier = str("carrier");
  if (str("customer")) filter.customer = str("customer");
  if (str("reference")) filter.reference = str("reference");
  if (str("failed") === "true") filter.failed = true;
  if (/^[A-Za-z]{2}[A-Za-z2-9]{3}$/.test(str("port"))) filter.port = str("port").toUpperCase();
  if (str("active") === "true") filter.active = true;
  if (str("delay") === "delayed") filter.delayed = true;
  if (str("delay") === "on_time") filter.delayed = false;
  if (Number.isFinite(etaDays) && etaDays > 0 && etaDays <= 365) filter.arrivingWithinDays = etaDays;
  if (str("archived") === "true") filter.archived = true;
  if (str("eta_moved") === "true") filter.etaMoved = true;
  if (str("lfd") === "soon") filter.lastFreeDaySoon = true;
  if (str("lfd") === "passed") filter.lastFreeDayPassed = true;
  if (str("hold") === "true") filter.onHold = true;
  const page = Math.max(1, Number.parseInt(str("page"), 10) || 1);
  const sort = SORTS.find((o) => o.key === str("sort")) ?? SORTS[0]!;
  return {
    filter,
    page,
    sort,
    values: {
      sort: sort.key === "newest" ? "" : sort.key,
      status: str("status"),
      carrier: str("carrier"),
      customer: str("customer"),
      reference: str("reference"),
      failed: str("failed"),
      eta: str("eta"),
      port: str("port"),
      delay: str("delay"),
      active: str("active") === "true" ? "true" : "",
      archived: str("archived") === "true" ? "true" : "",
      eta_moved: str("eta_moved") === "true" ? "true" : "",
      lfd: str("lfd") === "soon" || str("lfd") === "passed" ? str("lfd") : "",
      hold: str("hold") === "true" ? "true" : "",
    },
  };
}

export function mountShipmentPages(get: Mount, post: Mount): void {
  get("/dashboard/shipments", (s) => shipmentsPage(s));
  post("/dashboard/shipments/saved-filters", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const name = typeof body.name === "string" ? body.name : "";
    const query = typeof body.query === "string" ? body.query : "";
    const saved = await s.run(s.deps.run(s.caller, DashSaveFilterDocument, { name, query }));
    // Post/redirect/get: going Back never saves it twice.
    if (saved)
      return void s.res.redirect(303, `/dashboard/shipments?${new URLSearchParams(query).toString()}`);
    await shipmentsPage(s, refusal(s).html, query);
  });
  post("/dashboard/shipments/saved-filters/:id/delete", async (s) => {
    const done = await s.run(s.deps.run(s.caller, DashDeleteFilterDocument, { id: String(s.req.params.id) }));
    await shipmentsPage(s, done ? notice("ok", "Saved filter deleted.") : refusal(s).html);
  });
  async function shipmentsPage(s: Signed, message = "", savedQuery?: string, status?: number): Promise<void> {
    const source =
      savedQuery === undefined
        ? (s.req.query as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(savedQuery));
    const { filter, page, sort, values } = filterFromQuery(source);
    const data = await s.run(
      s.deps.run(s.caller, DashShipmentsDocument, { filter, page, pageSize: 25, sort: sort.value }),
    );
    const failedLoad = data ? "" : refusal(s).html;
    const result = data?.shipmentSearch;
    const items = result?.items ?? [];
    const query = new URLSearchParams(Object.entries(values).filter(([, v]) => v)).toString();
    const form = `<form method="get" action="/dashboard/shipments" class="card" role="search" autocomplete="off" aria-label="Filter shipments">
<div class="row">
<div><label for="f-reference">Reference</label><input id="f-reference" name="reference" value="${esc(values.reference)}" size="16"></div>
<div><label for="f-status">Status</label><select id="f-status" name="status"><option value="">Any</option>${STATUSES.map((st) => `<option value="${st}"${values.status === st ? " selected" : ""}>${esc(STATUS_TEXT[st])}</option>`).join("")}</select></div>
<div><label for="f-carrier">Carrier (SCAC)</label><input id="f-carrier" name="carrier" value="${esc(values.carrier)}" size="6" maxlength="4"></div>
<div><label for="f-customer">Customer</label><input id="f-customer" name="customer" value="${esc(values.customer)}" size="14"></div>
<div><label for="f-port">Port (UN/LOCODE)</label><input id="f-port" name="port" value="${esc(values.port)}" size="6" maxlength="5" pattern="[A-Za-z]{2}[A-Za-z2-9]{3}" title="Five characters, for example NLRTM"></div>
<div><label for="f-delay">Delay</label><select id="f-delay" name="delay"><option value="">Any</option><option value="delayed"${values.delay === "delayed" ? " selected" : ""}>Delayed</option><option value="on_time"${values.delay === "on_time" ? " selected" : ""}>Not delayed</option></select></div>
<div><label for="f-eta">Arriving within</label><select id="f-eta" name="eta"><option value="">Any time</option>${[3, 7, 14, 30].map((d) => `<option value="${d}"${values.eta === String(d) ? " selected" : ""}>${d} days</option>`).join("")}</select></div>
<div><label for="f-failed"><input id="f-failed" type="checkbox" name="failed" value="true"${values.failed === "true" ? " checked" : ""}> Failed only</label></div>
<div><label for="f-eta-moved"><input id="f-eta-moved" type="checkbox" name="eta_moved" value="true"${values.eta_moved ? " checked" : ""}> ETA moved</label></div>
<div><label for="f-lfd">Last free day</label><select id="f-lfd" name="lfd"><option value="">Any</option><option value="soon"${values.lfd === "soon" ? " selected" : ""}>Soon (today or within days)</option><option value="passed"${values.lfd === "passed" ? " selected" : ""}>Passed</option></select></div>
<div><label for="f-hold"><input id="f-hold" type="checkbox" name="hold" value="true"${values.hold ? " checked" : ""}> On hold</label></div>
<div><label for="f-archived"><input id="f-archived" type="checkbox" name="archived" value="true"${values.archived ? " checked" : ""}> Archived only</label></div>
${values.active ? '<input type="hidden" name="active" value="true">' : ""}${values.sort ? `<input type="hidden" name="sort" value="${esc(values.sort)}">` : ""}<div><button type="submit">Filter</button> <a href="/dashboard/shipments">Clear</a></div>
</div></form>`;
    const total = result?.total ?? 0;
    // A column's name links to the list sorted by it (again: the other way, where there is one).
    const header = (label: string, key: string, reverse?: string) => {
      const on = values.sort === key || (key === "newest" && !values.sort);
      const next = on && reverse ? reverse : key;
      const q = new URLSearchParams(Object.entries({ ...values, sort: next }).filter(([, v]) => v));
      const ariaSort =
        values.sort === key
          ? ' aria-sort="ascending"'
          : reverse && values.sort === reverse
            ? ' aria-sort="descending"'
            : "";
      return `<th scope="col"${ariaSort}><a href="/dashboard/shipments?${esc(q.toString())}">${esc(label)}</a></th>`;
    };
    const table =
      items.length === 0
        ? emptyState(
            values.archived
              ? "No archived shipments."
              : query
                ? "No shipment matches these filters. Clear a filter to see more."
                : "No shipments yet.",
            { href: "/dashboard/track", label: "Track a new reference" },
          )
        : `<p role="status">${total} shipment${total === 1 ? "" : "s"} · <a href="/dashboard/shipments.csv${query ? `?${esc(query)}` : ""}" download>Download CSV</a></p>
<div class="table-wrap"><table><caption class="muted">Select a column's name to sort by it.</caption><thead><tr>${header("Reference", "reference")}${header("Status", "status")}${header("Carrier", "carrier")}<th scope="col">Vessel</th><th scope="col" class="hide-narrow">Route</th>${header("Arrival", "arrival", "arrival_desc")}<th scope="col">Predicted arrival</th>${header("Last free day", "last_free_day")}<th scope="col">Holds</th><th scope="col" class="hide-narrow">Customer</th><th scope="col">Actions</th></tr></thead><tbody>${items
            .map(
              (i) =>
                `<tr><td><a href="/dashboard/shipments/${esc(i.name)}">${esc(i.reference)}</a><br><span class="muted">${esc(i.name)}</span></td><td>${statusBadge(i.status, i.failed)}${i.summary?.isDelayed ? ' <span class="late">Delayed</span>' : ""}</td><td>${esc(i.confirmedCarrier?.name ?? "—")}</td><td>${esc(i.summary?.vesselName ?? "—")}</td><td class="hide-narrow">${esc(i.summary ? `${i.summary.origin} → ${i.summary.destination}` : "—")}</td><td>${arrivalTime(i)}${i.summary?.etaMoved ? ` <span class="late">${esc(etaMoveText(i.summary.etaChangeHours))}</span>` : ""}</td><td>${time(i.predictiveEta?.p50)}</td><td>${lastFreeDayCell(i)}</td><td>${holdsCell(i.holds)}</td><td class="hide-narrow">${esc(i.customers.join(", ") || "—")}</td><td><div class="row">${archiveButton(s, i)}${i.untrackableByViewer ? postButton(`/dashboard/shipments/${i.name}/untrack`, `Untrack ${i.reference}`, s.session.csrfToken) : ""}</div></td></tr>`,
            )
            .join("")}</tbody></table></div>${pager(page, total, 25, query)}`;
    const savedList =
      (await s.run(s.deps.run(s.caller, DashSavedFiltersDocument)))?.savedShipmentFilters ?? [];
    const saved = `<section class="card" aria-labelledby="saved"><h2 id="saved">Saved filters</h2>${
      savedList.length === 0
        ? "<p>None yet. Filter the list, then save the filter under a name.</p>"
        : `<ul>${savedList.map((f) => `<li><a href="/dashboard/shipments?${esc(f.query)}">${esc(f.name)}</a> ${postButton(`/dashboard/shipments/saved-filters/${f.id}/delete`, `Delete ${f.name}`, s.session.csrfToken)}</li>`).join("")}</ul>`
    }${
      query
        ? `<form method="post" action="/dashboard/shipments/saved-filters" class="row">${csrfField(s.session.csrfToken)}<input type="hidden" name="query" value="${esc(query)}"><div><label for="saved-name">Save this filter as</label><input id="saved-name" name="name" maxlength="60" required></div><div><button type="submit">Save filter</button></div></form>`
        : ""
    }</section>`;
    s.render(
      values.archived ? "Archived shipments" : "Shipments",
      "/dashboard/shipments",
      `${message}${failedLoad}${form}${saved}${table}`,
      status,
    );
  }

  get("/dashboard/shipments.csv", async (s) => {
    const { filter, sort } = filterFromQuery(s.req.query as Record<string, unknown>);
    const rows: string[] = [
      "shipment,reference,type,status,failed,carrier,origin,destination,eta,ata,customers",
    ];
    for (let page = 1; page <= 20; page++) {
      const data = await s.run(
        s.deps.run(s.caller, DashShipmentsDocument, { filter, page, pageSize: 100, sort: sort.value }),
      );
      const items = data?.shipmentSearch?.items ?? [];
      for (const i of items) {
        rows.push(
          [
            i.name,
            i.reference,
            i.referenceType,
            i.status,
            i.failed,
            i.carrierScac ?? "",
            i.summary?.origin ?? "",
            i.summary?.destination ?? "",
            i.eta ?? "",
            i.ata ?? "",
            i.customers.join("; "),
          ]
            .map(csvCell)
            .join(","),
        );
      }
      if (items.length < 100) break;
    }
    s.res.setHeader("Cache-Control", "no-store");
    s.res.setHeader("Content-Disposition", 'attachment; filename="shipments.csv"');
    s.res.type("text/csv; charset=utf-8").send(`${rows.join("\r\n")}\r\n`);
  });

  get("/dashboard/shipments/:id", (s) => shipmentPage(s));
  mountShipmentTools(get, post, shipmentPage);
  post("/dashboard/shipments/:id/share", async (s) => {
    const id = String(s.req.params.id);
    const shared = await s.run(s.deps.run(s.caller, DashShareDocument, { id }));
    const answer = shared?.shareShipment;
    const link = answer?.__typename === "ShareLink" ? answer.path : null;
    await shipmentPage(
      s,
      link
        ? `${notice("ok", "Share link ready: anyone with it sees this shipment's status, route and milestones.")}<p class="secret" id="share-url">${esc(`${s.deps.baseUrl}${link}`)}</p><p><a href="${esc(link)}">Open the public page</a></p>`
        : answer?.__typename === "ShipmentNotShareable"
          ? notice("error", answer.message)
          : refusal(s).html,
    );
  });
  post("/dashboard/shipments/:id/unshare", async (s) => {
    const id = String(s.req.params.id);
    const done = await s.run(s.deps.run(s.caller, DashUnshareDocument, { id }));
    await shipmentPage(
      s,
      done ? notice("ok", "The share link was revoked; it no longer works.") : refusal(s).html,
    );
  });

  // Archiving is undone as easily as it is done, so it asks nothing; the notice offers the way back.
  post("/dashboard/shipments/:id/archive", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const archived = body.archived !== "false";
    const done = await s.run(
      s.deps.run(s.caller, DashArchiveShipmentDocument, { id: String(s.req.params.id), archived }),
    );
    const changed =
      done?.archiveShipment?.__typename === "ShipmentArchiveChanged" ? done.archiveShipment : null;
    const message = changed
      ? `${notice(
          "ok",
          changed.archived
            ? `${changed.shipmentId} is archived: it left the list and the exceptions, and is still tracked.`
            : `${changed.shipmentId} is back in the list.`,
        )}${changed.archived ? `<p>${postButton(`/dashboard/shipments/${changed.shipmentId}/archive`, `Undo: bring ${changed.shipmentId} back`, s.session.csrfToken, '<input type="hidden" name="archived" value="false"><input type="hidden" name="from" value="list">')}</p>` : ""}`
      : done
        ? notice("error", "Your organisation does not track this shipment.")
        : refusal(s).html;
    const status = changed ? undefined : done ? OUTCOMES.shipment_not_found.v1.status : refusal(s).status;
    if (body.from === "shipment") return shipmentPage(s, message);
    await shipmentsPage(s, message, undefined, status);
  });

  // Untracking is not undone by a click: the first POST asks, the second (with confirm=yes) untracks.
  post("/dashboard/shipments/:id/untrack", async (s) => {
    const id = String(s.req.params.id);
    const body = s.req.body as Record<string, unknown>;
    if (body.confirm !== "yes") {
      const data = await s.run(s.deps.run(s.caller, DashShipmentDocument, { id }));
      const shipment = data?.shipment;
      if (!shipment) return shipmentPage(s);
      return s.render(
        `Untrack ${shipment.reference}?`,
        "/dashboard/shipments",
        `<div class="card"><p>${esc(shipment.reference)} (${esc(shipment.name)}) leaves the list and is no longer refreshed; its share link stops working and its slot is freed for this billing cycle. Tracking it again later starts afresh.</p>
<p class="row"><form method="post" action="/dashboard/shipments/${esc(shipment.name)}/untrack" class="inline">${csrfField(s.session.csrfToken)}<input type="hidden" name="confirm" value="yes"><button type="submit" class="danger">Untrack ${esc(shipment.reference)}</button></form> <a href="/dashboard/shipments/${esc(shipment.name)}">Keep tracking it</a></p></div>`,
      );
    }
    const done = await s.run(s.deps.run(s.caller, DashUntrackShipmentDocument, { id }));
    const untracked =
      done?.untrackShipment?.__typename === "ShipmentUntracked" ? done.untrackShipment.shipmentId : null;
    if (!untracked) {
      return s.render(
        "Not untracked",
        "/dashboard/shipments",
        `${done ? notice("error", "Only the person who added this shipment can untrack it.") : refusal(s).html}<p><a href="/dashboard/shipments/${esc(id)}">Back to the shipment</a></p>`,
        done ? OUTCOMES.shipment_not_found.v1.status : refusal(s).status,
      );
    }
    await shipmentsPage(s, notice("ok", `${untracked} is no longer tracked; its slot is free again.`));
  });

  for (const on of [true, false]) {
    post(`/dashboard/shipments/:id/${on ? "follow" : "unfollow"}`, async (s) => {
      const done = await follow(s, String(s.req.params.id), on);
      await shipmentPage(
        s,
        done
          ? notice("ok", on ? "You now follow this shipment." : "You no longer follow this shipment.")
          : refusal(s).html,
      );
    });
  }

  get("/dashboard/track", async (s) => {
    s.render("Track", "/dashboard/track", trackForm(s));
  });
  post("/dashboard/track", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const raw = typeof body.references === "string" ? body.references : "";
    const carrierText = typeof body.carrier === "string" ? body.carrier.trim() : "";
    const carrier = carrierText || undefined;
    // The core reads the paste (what is a reference, what only looks like one); nothing is tracked yet.
    const screened = await s.run(s.deps.run(s.caller, DashScreenReferencesDocument, { text: raw }));
    if (!screened) {
      const { html, status } = refusal(s);
      return s.render("Track", "/dashboard/track", `${html}${trackForm(s, raw, carrierText)}`, status);
    }
    const items = screened.screenReferences;
    const refused = items.filter((i) => i.verdict === "NOT_A_REFERENCE");
    const suspect = items.filter((i) => i.verdict === "SUSPECT_CHECK_DIGIT");
    const confirmed = body.confirmed === "yes";
    const toTrack = items.filter(
      (i) => i.verdict === "REFERENCE" || (confirmed && i.verdict === "SUSPECT_CHECK_DIGIT"),
    );
    if (!confirmed && (refused.length > 0 || suspect.length > 0)) {
      return s.render(
        "Track",
        "/dashboard/track",
        reviewPage(s, raw, carrierText, items),
        refused.length > 0 && toTrack.length === 0 && suspect.length === 0
          ? OUTCOMES.bad_request.v1.status
          : 200,
      );
    }
    const outcomes: string[] = [];
    for (const item of toTrack) {
      const reference = item.reference!;
      const result = await s.deps.run(s.caller, DashTrackDocument, { reference, carrier });
      if (!result.ok) {
        outcomes.push(`<tr><td>${esc(item.input)}</td><td>⚠ ${esc(result.message)}</td></tr>`);
        continue;
      }
      const track = result.data.track;
      if (track?.__typename === "TrackSuccess") {
        outcomes.push(
          `<tr><td><a href="/dashboard/shipments/${esc(track.shipment.name)}">${esc(reference)}</a></td><td>✓ Tracked as ${esc(track.shipment.name)} (${esc(track.carrier.name)})</td></tr>`,
        );
      } else if (track?.__typename === "ReferenceNotFound" && track.shipment) {
        outcomes.push(
          `<tr><td><a href="/dashboard/shipments/${esc(track.shipment.name)}">${esc(reference)}</a></td><td>○ No carrier has found it yet${track.discoveryQueued ? "; other carriers are being searched" : ""}</td></tr>`,
        );
      } else if (track) {
        const answer = answerFor("TrackResult", track);
        const sentence = answer.kind === "refusal" ? OUTCOMES[answer.outcome].sentence : "Done.";
        outcomes.push(`<tr><td>${esc(reference)}</td><td>⚠ ${esc(sentence)}</td></tr>`);
      }
    }
    for (const item of [...refused, ...(confirmed ? [] : suspect)])
      outcomes.push(`<tr><td>${esc(item.input)}</td><td>✕ Not tracked: ${esc(item.message)}</td></tr>`);
    s.render(
      "Track",
      "/dashboard/track",
      `<section aria-labelledby="results"><h2 id="results">Results</h2><div class="table-wrap"><table><thead><tr><th scope="col">Reference</th><th scope="col">Outcome</th></tr></thead><tbody>${outcomes.join("")}</tbody></table></div></section>${trackForm(s)}`,
    );
  });
}

/**
 * What the paste holds before anything is tracked: pieces that are not references (never tracked) and
 * container-shaped numbers with a wrong check digit (tracked only when confirmed), with what was typed
 * kept in the form to correct.
 */
function reviewPage(
  s: Signed,
  raw: string,
  carrier: string,
  items: { input: string; reference: string | null; verdict: string; message: string | null }[],
): string {
  const valid = items.filter((i) => i.verdict === "REFERENCE");
  const suspect = items.filter((i) => i.verdict === "SUSPECT_CHECK_DIGIT");
  const refused = items.filter((i) => i.verdict === "NOT_A_REFERENCE");
  const list = (rows: typeof items) => `<ul>${rows.map((i) => `<li>${esc(i.message)}</li>`).join("")}</ul>`;
  const words = (n: number) => `${n} reference${n === 1 ? "" : "s"}`;
  const parts = [
    refused.length > 0
      ? `<div class="notice notice-error" role="alert"><p><span aria-hidden="true">⚠</span> ${refused.length === 1 ? "This is not a container, bill-of-lading or booking number, and will not be tracked:" : `These ${refused.length} are not container, bill-of-lading or booking numbers, and will not be tracked:`}</p>${list(refused)}</div>`
      : "",
    suspect.length > 0
      ? `<div class="notice notice-warn" role="alert"><p><span aria-hidden="true">⚠</span> Possible typo:</p>${list(suspect)}</div>`
      : "",
    valid.length > 0
      ? `<p>Ready to track: ${valid.map((i) => `<strong>${esc(i.reference)}</strong>`).join(", ")}.</p>`
      : "",
  ];
  const confirm = (label: string, withSuspect: boolean) => {
    const text = (withSuspect ? [...valid, ...suspect] : valid).map((i) => i.reference).join("\n");
    return `<form method="post" action="/dashboard/track" class="inline" data-progress="Tracking: asking the carriers. This can take a few seconds per reference.">${csrfField(s.session.csrfToken)}<input type="hidden" name="references" value="${esc(text)}"><input type="hidden" name="carrier" value="${esc(carrier)}"><input type="hidden" name="confirmed" value="yes"><button type="submit">${esc(label)}</button> <span role="status" data-progress-text></span></form>`;
  };
  const actions =
    valid.length + suspect.length === 0
      ? ""
      : `<p class="row">${valid.length > 0 ? confirm(`Track the ${words(valid.length)} above`, false) : ""}${suspect.length > 0 ? confirm(`Track ${valid.length > 0 ? "all " : ""}${words(valid.length + suspect.length)}, the possible typo${suspect.length === 1 ? "" : "s"} included`, true) : ""}</p>`;
  return `<section aria-labelledby="review"><h2 id="review">Check before tracking</h2>${parts.join("")}${actions}</section>
<h2>Or correct the list</h2>${trackForm(s, raw, carrier)}`;
}

function trackForm(s: Signed, value = "", carrier = ""): string {
  return `<form method="post" action="/dashboard/track" class="card" data-progress="Tracking: asking the carriers. This can take a few seconds per reference.">${csrfField(s.session.csrfToken)}
<label for="references">Container, bill-of-lading or booking numbers</label>
<p class="muted" id="references-help">One per line (or separated by spaces or commas), up to 50. Example: MSCU1234566</p>
<textarea id="references" name="references" aria-describedby="references-help" required>${esc(value)}</textarea>
<label for="carrier">Carrier SCAC (optional: detected when empty)</label><input id="carrier" name="carrier" size="6" maxlength="4" value="${esc(carrier)}">
<p><button type="submit">Track</button> <span role="status" data-progress-text></span></p></form>`;
}

/** The core's ETA move in words: "ETA 30 h later" (the core decides it is a move worth showing). */
function etaMoveText(hours: number): string {
  return `ETA ${Math.abs(hours)} h ${hours > 0 ? "later" : "earlier"}`;
}

/** Archive or bring back, from the list or the shipment's page: the same POST, told where to come back. */
function archiveButton(
  s: Signed,
  i: { name: string; reference: string; archived: boolean },
  from: "list" | "shipment" = "list",
): string {
  return postButton(
    `/dashboard/shipments/${i.name}/archive`,
    i.archived ? `Unarchive ${i.reference}` : `Archive ${i.reference}`,
    s.session.csrfToken,
    `<input type="hidden" name="archived" value="${i.archived ? "false" : "true"}"><input type="hidden" name="from" value="${from}">`,
  );
}

function pager(page: number, total: number, size: number, query: string): string {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages === 1) return "";
  const link = (p: number, label: string) => {
    const q = new URLSearchParams(query);
    q.set("page", String(p));
    return `<a href="/dashboard/shipments?${esc(q.toString())}">${esc(label)}</a>`;
  };
  return `<nav aria-label="Pages" class="row">${page > 1 ? link(page - 1, "Previous page") : ""}<span>Page ${page} of ${pages}</span>${page < pages ? link(page + 1, "Next page") : ""}</nav>`;
}

function csvCell(value: unknown): string {
  let text = String(value ?? "");
  // A cell a spreadsheet would run as a formula is written as text.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function shipmentPage(s: Signed, message = "", status?: number): Promise<void> {
  const id = String(s.req.params.id);
  const data = await s.run(s.deps.run(s.caller, DashShipmentDocument, { id }));
  const shipment = data?.shipment;
  if (!shipment) {
    const status = data ? OUTCOMES.shipment_not_found.v1.status : refusal(s).status;
    return s.render(
      "Shipment not found",
      "/dashboard/shipments",
      `${message}${emptyState("Your organisation does not track this shipment.", { href: "/dashboard/shipments", label: "Back to shipments" })}`,
      status,
    );
  }
  const untrack = shipment.untrackableByViewer
    ? postButton(
        `/dashboard/shipments/${shipment.name}/untrack`,
        "Untrack this shipment",
        s.session.csrfToken,
      )
    : "";
  // A reference no carrier has found has no journey to show: say what happened and what to do.
  if (shipment.failed) {
    return s.render(
      shipment.reference,
      "/dashboard/shipments",
      `${message}<section class="card" aria-labelledby="standing"><h2 id="standing">Not found yet</h2>
<p>${statusBadge(shipment.status, true)}</p>
<p>${esc(shipment.failureExplanation ?? "No carrier has found this reference yet.")}</p>
<dl class="glance">
<div><dt>Reference</dt><dd>${esc(shipment.reference)} (${esc(REFERENCE_TYPE_TEXT[shipment.referenceType] ?? shipment.referenceType)})</dd></div>
${shipment.confirmedCarrier ? `<div><dt>Carrier you named</dt><dd>${esc(shipment.confirmedCarrier.name)}</dd></div>` : ""}
<div><dt>Tracked since</dt><dd>${time(shipment.createdAt)}</dd></div>
</dl>
<p class="row"><a href="/dashboard/track">Track a corrected number</a> ${untrack}</p></section>`,
      status,
    );
  }
  const doc = shipment.document;
  const stops = (doc?.placedLocations ?? [])
    .filter((l) => l.lat !== null && l.lng !== null)
    .map((l) => ({ lat: l.lat!, lng: l.lng!, name: l.name }));
  const legs = (doc?.routeSegments ?? []).map((r) => ({ path: r.path }));
  const inland = doc?.inlandLegs ?? [];
  const vessel = doc?.vesselNow ?? null;
  const next = doc?.nextMilestone ?? null;
  const refresh = refreshControl(s, shipment);
  const glance = `<section class="card" aria-labelledby="glance"><h2 id="glance">At a glance</h2>
<p>${statusBadge(shipment.status, false)}${shipment.summary?.isDelayed ? ' <span class="late">⚠ Delayed</span>' : ""}${shipment.archived ? ' <span class="muted">Archived</span>' : ""}</p>
<dl class="glance">
<div><dt>Next milestone</dt><dd>${next ? `${esc(next.description)}${next.location ? `, ${esc(next.location.name)}` : ""}<br>${portTime({ local: next.localDateTime, utcOffset: next.utcOffset, instant: next.instant }, "date not given")}` : "None expected"}</dd></div>
<div><dt>${shipment.ata ? "Arrived" : "Estimated arrival"}</dt><dd>${arrivalTime(shipment, "Not known yet")}</dd></div>
${finalDestinationLine(shipment.finalDestinationEta)}
<div><dt>Vessel</dt><dd>${vessel ? `${esc(vessel.name)}${vessel.voyage ? ` / ${esc(vessel.voyage)}` : ""}<br><span class="muted">${vessel.source === "AIS" ? `AIS position ${time(vessel.observedAt)}` : "Position estimated along the route"}</span>` : "Not at sea"}</dd></div>
<div><dt>Route</dt><dd>${esc(shipment.summary ? `${shipment.summary.origin} → ${shipment.summary.destination}` : "—")}</dd></div>
<div><dt>Carrier</dt><dd>${esc(shipment.confirmedCarrier?.name ?? shipment.carrierScac ?? "—")}</dd></div>
${shipment.customers.length > 0 ? `<div><dt>Customer</dt><dd>${esc(shipment.customers.join(", "))}</dd></div>` : ""}
</dl>
<p class="muted">Data from the carrier ${time(shipment.lastSyncedAt, "never fetched")}${shipment.scheduledRefreshAt ? `; next refresh ${time(shipment.scheduledRefreshAt)}` : ""}. ${refresh.button}</p>${pushLine(shipment)}${refresh.form}</section>`;
  const pin = vessel
    ? {
        lat: vessel.lat,
        lng: vessel.lng,
        label: `${vessel.name} now${vessel.source === "AIS" ? "" : " (estimated)"}`,
      }
    : undefined;
  const map = `<section class="card" aria-labelledby="route"><h2 id="route">Route</h2>
${
  stops.length > 0
    ? `<figure>${routeMapSvg(stops, legs, pin, inland)}<figcaption class="muted">Map drawn from Natural Earth data on this server.${inland.length > 0 ? ` The dashed line is the ${[...new Set(inland.map((l) => INLAND_MODE_TEXT[l.mode]))].join(" and ")} leg drawn from your partners' positions.` : ""}${vessel ? ` The marked point is ${esc(vessel.name)}${vessel.source === "AIS" ? ", at its last AIS report" : ", estimated along the route"} (${vessel.lat.toFixed(2)}, ${vessel.lng.toFixed(2)}).` : ""} <a href="#places">The places as a table</a>.</figcaption></figure>`
    : "<p>No places with coordinates yet.</p>"
}</section>`;
  const places =
    stops.length === 0
      ? ""
      : `<section class="card" aria-labelledby="places"><h2 id="places">Places on the route</h2><div class="table-wrap"><table aria-label="Places on the route"><thead><tr><th scope="col">#</th><th scope="col">Place</th><th scope="col">Latitude</th><th scope="col">Longitude</th></tr></thead><tbody>${stops.map((p, n) => `<tr><td>${n + 1}</td><td>${esc(p.name)}</td><td>${p.lat.toFixed(3)}</td><td>${p.lng.toFixed(3)}</td></tr>`).join("")}</tbody></table></div></section>`;
  const events = doc?.timeline ?? [];
  const timeline = `<section class="card" aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
${
  events.length === 0
    ? "<p>No milestones yet.</p>"
    : `<div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">Actual or estimated</th><th scope="col">Milestone</th><th scope="col">Place</th><th scope="col" class="hide-narrow">Vessel</th><th scope="col" class="hide-narrow">Container</th></tr></thead><tbody>${events
        .map(
          ({ event: e, container }) =>
            `<tr class="${e.actual ? "actual" : "estimated"}"><td>${portTime({ local: e.localDateTime, utcOffset: e.utcOffset, instant: e.instant }, e.localDateTime ?? "—")}</td><td>${e.actual ? "✓ Actual" : "◌ Estimated"}</td><td>${esc(e.description)}${e.source.kind === "PARTNER" ? `<br><span class="muted">Reported by ${esc(e.source.name)}</span>` : ""}</td><td>${esc(e.location?.name ?? "—")}</td><td class="hide-narrow">${esc(e.vessel ? `${e.vessel.name}${e.voyage ? ` / ${e.voyage}` : ""}` : "—")}</td><td class="hide-narrow">${esc(container)}</td></tr>`,
        )
        .join("")}</tbody></table></div>`
}</section>`;
  const containers = `<section class="card" aria-labelledby="containers"><h2 id="containers">Containers</h2>${(doc?.containers ?? []).length === 0 ? "<p>None known yet.</p>" : `<ul>${doc!.containers.map((c) => `<li>${esc(c.number)} ${esc(c.sizeType ?? "")} ${statusBadge(c.status)}</li>`).join("")}</ul>`}</section>`;
  const voyages = `<section class="card" aria-labelledby="voyages"><h2 id="voyages">Vessels and voyages</h2>${(doc?.voyageLegs ?? []).length === 0 ? "<p>No vessel legs yet.</p>" : `<div class="table-wrap"><table><thead><tr><th scope="col">Leg</th><th scope="col">Vessel</th><th scope="col">Voyage</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Status</th></tr></thead><tbody>${doc!.voyageLegs.map((l) => `<tr><td>${l.sequence}</td><td>${esc(l.vessel?.name ?? "—")}${l.vessel?.imo ? ` <span class="muted">IMO ${l.vessel.imo}</span>` : ""}</td><td>${esc(l.voyage ?? "—")}</td><td>${esc(l.from?.name ?? "—")}<br>${portTime({ local: l.departure.localDateTime, utcOffset: l.departure.utcOffset, instant: l.departure.instant })}</td><td>${esc(l.to?.name ?? "—")}<br>${l.arrival ? portTime({ local: l.arrival.localDateTime, utcOffset: l.arrival.utcOffset, instant: l.arrival.instant }) : time(null)}</td><td>${esc(l.status.toLowerCase())}</td></tr>`).join("")}</tbody></table></div>`}</section>`;
  const history = `<section class="card" aria-labelledby="eta-history"><h2 id="eta-history">ETA history</h2>${(doc?.etaHistory ?? []).length === 0 ? "<p>No arrival estimate recorded yet.</p>" : `<div class="table-wrap"><table><thead><tr><th scope="col">Recorded</th><th scope="col">Arrival</th><th scope="col">Change</th></tr></thead><tbody>${doc!.etaHistory.map((h) => `<tr><td>${time(h.recordedAt)}</td><td>${portTime({ local: h.localDateTime, utcOffset: h.utcOffset, instant: h.eta })}${h.actual ? " (actual)" : ""}</td><td>${h.changeHours === 0 ? "—" : `${h.changeHours > 0 ? "later by" : "earlier by"} ${Math.abs(h.changeHours)} h`}</td></tr>`).join("")}</tbody></table></div>`}</section>`;
  // Share is offered only when the link would show a page (the core's `shareable`).
  const share = `<section class="card" aria-labelledby="share"><h2 id="share">Share link and tracking</h2>
${
  shipment.shareable
    ? `<p>A public page with the status, route and milestones (no customer, no account details).</p>
${postButton(`/dashboard/shipments/${shipment.name}/share`, "Create or show the share link", s.session.csrfToken)}
${postButton(`/dashboard/shipments/${shipment.name}/unshare`, "Revoke the share link", s.session.csrfToken)}`
    : "<p>A share link can be made once the carrier has sent this shipment's journey.</p>"
}
<p class="row">${archiveButton(s, shipment, "shipment")} ${untrack}</p>
<p class="muted">${shipment.archived ? "Archived: out of the list and the exceptions (the list's “Archived only” shows it), still tracked." : "Archiving takes it out of the list and the exceptions; it stays tracked and can be brought back."}</p>
</section>`;
  const disruptions = await disruptionsSection(s, shipment.name);
  const outlook = await outlookSections(s, shipment.name);
  const [customer, documents] = await Promise.all([
    customerSection(s, shipment),
    documentsSection(s, shipment.name),
  ]);
  const jump = `<nav aria-label="On this page"><ul class="jump"><li><a href="#timeline">Timeline</a></li><li><a href="#disruptions">Disruptions</a></li><li><a href="#predictive-eta">Outlook</a></li><li><a href="#containers">Containers</a></li><li><a href="#voyages">Vessels</a></li><li><a href="#eta-history">ETA history</a></li><li><a href="#customer">Customer, documents</a></li><li><a href="#share">Share and untrack</a></li></ul></nav>`;
  s.render(
    `${shipment.reference}`,
    "/dashboard/shipments",
    `${message}${glance}${jump}${map}${timeline}${disruptions}${outlook}${places}${containers}${voyages}${history}${customer}${documents}${share}`,
    status,
  );
}

const REFERENCE_TYPE_TEXT: Record<string, string> = {
  container: "container number",
  bl: "bill of lading",
  booking: "booking",
};

async function disruptionsSection(s: Signed, id: string): Promise<string> {
  const result = await s.deps.run(s.caller, DashShipmentDisruptionsDocument, { id });
  const answer = result.ok ? result.data.shipmentDisruptions : null;
  let body: string;
  if (!answer || answer.__typename === "ShipmentNotFound") body = "<p>Disruptions could not be read.</p>";
  else if (answer.__typename === "PlanRequired") body = "<p>Disruption alerts are not part of this plan.</p>";
  else if (answer.__typename === "FeatureDisabled")
    body = "<p>Disruption alerts are switched off for this organisation.</p>";
  else if (answer.items.length === 0) body = "<p>No active disruption touches this shipment.</p>";
  else
    body = `<ul>${answer.items
      .map(
        (i) =>
          `<li><strong><span aria-hidden="true">⚠</span> ${esc(i.disruption.headline)}</strong> (${esc(SEVERITY[i.disruption.severity] ?? `severity ${i.disruption.severity}`)}, ${esc(i.disruption.category.replace(/_/g, " "))}; matched by ${esc(i.matchTypes.join(", ").toLowerCase().replace(/_/g, " "))})<br><span class="muted">${esc(i.disruption.summary)}</span> ${time(i.disruption.lastUpdated)}</li>`,
      )
      .join("")}</ul>`;
  return `<section class="card" aria-labelledby="disruptions"><h2 id="disruptions">Disruptions</h2>${body}</section>`;
}

/** The carrier's pushed updates, as the core says them (Shipment.carrierPush); nothing when polled only. */
function pushLine(shipment: {
  carrierPush: { status: string; lastPushAt: string | null; pollEveryHours: number } | null;
}): string {
  const push = shipment.carrierPush;
  if (!push) return "";
  if (push.status === "ACTIVE") {
    return `<p class="muted" data-carrier-push="active">Updates pushed by the carrier, last at ${time(push.lastPushAt, "none yet")}; the carrier is still asked every ${push.pollEveryHours} hours as a safety net.</p>`;
  }
  if (push.status === "LOST") {
    return `<p class="muted" data-carrier-push="lost">The carrier stopped pushing updates; it is asked every ${push.pollEveryHours} hours until they are registered again.</p>`;
  }
  return `<p class="muted" data-carrier-push="pending">Pushed updates asked of the carrier; it is asked every ${push.pollEveryHours} hours meanwhile.</p>`;
}

const INLAND_MODE_TEXT: Record<string, string> = { TRUCK: "truck", RAIL: "rail", BARGE: "barge" };
const FINAL_BASIS: Record<string, (km: number | null, mode: string) => string> = {
  partner_position: (km, mode) => `from the ${mode}'s position${km === null ? "" : `, ${km} km to go`}`,
  partner_estimate: () => "the partner's own estimate",
  inland_default: () => "estimated by default: the port's arrival, 3 days at the port and the inland transit",
};

/** The predicted arrival at the final destination beyond the port (Shipment.finalDestinationEta), when there is one. */
function finalDestinationLine(
  eta: {
    p50: string;
    p80: string;
    source: string;
    confidence: string;
    place: string;
    remainingKm: number | null;
    mode: string;
  } | null,
): string {
  if (!eta) return "";
  const basis =
    FINAL_BASIS[eta.source]?.(eta.remainingKm, INLAND_MODE_TEXT[eta.mode] ?? eta.mode) ?? eta.source;
  return `<div><dt>At ${esc(eta.place || "the final destination")}</dt><dd data-testid="final-destination-eta">${time(eta.p50)}<br><span class="muted">by ${time(eta.p80)} at the latest (4 in 5); ${esc(basis)}; confidence ${esc(eta.confidence)}</span></dd></div>`;
}
