import {
  DashFollowShipmentDocument,
  DashShipmentDndDocument,
  type DashShipmentDndQuery,
  DashShipmentFollowersDocument,
  DashShipmentOutlookDocument,
  type DashShipmentOutlookQuery,
  DashUnfollowShipmentDocument,
} from "../../generated/operations";
import type { Signed } from "../context";
import { esc, postButton, time } from "../html";

/**
 * The one-shipment page's outlook: predictive ETA, the terminal record per box, demurrage and
 * detention per box, and following the shipment by e-mail. Each part reads through its own persisted
 * operation, so a part the plan leaves out says so without blanking the others.
 */
export async function outlookSections(s: Signed, id: string): Promise<string> {
  const [outlook, dnd, followers] = await Promise.all([
    s.deps.run(s.caller, DashShipmentOutlookDocument, { id }),
    s.deps.run(s.caller, DashShipmentDndDocument, { id }),
    s.deps.run(s.caller, DashShipmentFollowersDocument, { shipment: id }),
  ]);
  const shipment = outlook.ok ? outlook.data.shipment : null;
  return [
    etaSection(shipment),
    terminalSection(shipment),
    dndSection(dnd.ok ? dnd.data.shipmentDnd : null),
    followSection(s, id, followers.ok ? (followers.data.shipmentFollowers ?? []) : null),
  ].join("");
}

type Outlook = NonNullable<DashShipmentOutlookQuery["shipment"]>;

const SOURCE: Record<string, string> = {
  carrier: "the carrier's own estimate",
  model: "Quayside's model of past voyages",
  blend: "a blend of the carrier's estimate and the model",
};

function etaSection(shipment: Outlook | null | undefined): string {
  let body: string;
  if (!shipment) body = "<p>The predictive ETA could not be read.</p>";
  else if (!shipment.predictiveEtaEnabled)
    body =
      "<p>Predictive ETA is not switched on for this organisation. An owner switches it on when the plan includes it.</p>";
  else if (!shipment.predictiveEta)
    body =
      "<p>No prediction yet: it is computed once the carrier gives a vessel and a port of discharge.</p>";
  else {
    const p = shipment.predictiveEta;
    body = `<dl class="facts">
<div><dt>Likely arrival (50 %)</dt><dd>${time(p.p50)}</dd></div>
<div><dt>Arrival by (80 %)</dt><dd>${time(p.p80)}</dd></div>
<div><dt>Source</dt><dd>${esc(SOURCE[p.source] ?? p.source)}</dd></div>
<div><dt>Confidence</dt><dd>${esc(p.confidence)}</dd></div>
<div><dt>Computed</dt><dd>${time(p.computedAt)}</dd></div>
</dl>`;
  }
  return `<section class="card" aria-labelledby="predictive-eta"><h2 id="predictive-eta">Predictive ETA</h2>${body}</section>`;
}

const yesNo = (value: boolean | null | undefined, unknown = "Not said") =>
  value === true ? "✓ Yes" : value === false ? "✕ No" : unknown;

function terminalSection(shipment: Outlook | null | undefined): string {
  const items = shipment?.terminal ?? [];
  const body =
    items.length === 0
      ? "<p>No terminal record yet: it appears once the box is due at a terminal that Quayside reads.</p>"
      : `<div class="table-wrap"><table aria-label="Terminal record per box"><thead><tr><th scope="col">Box</th><th scope="col">Terminal</th><th scope="col">Status</th><th scope="col">Available for pickup</th><th scope="col">Holds</th><th scope="col">Last free day</th><th scope="col">Yard location</th></tr></thead><tbody>${items
          .map((i) => {
            const f = i.facts;
            const holds = f
              ? f.holds.length === 0
                ? "None"
                : f.holds
                    .map(
                      (h) =>
                        `${h.status === "HOLD" ? "⛔" : "◌"} ${esc(h.type.toLowerCase())} (${esc(h.status.toLowerCase())})${h.description ? `: ${esc(h.description)}` : ""}`,
                    )
                    .join("<br>")
              : "—";
            return `<tr><td>${esc(i.containerNumber)}</td><td>${esc(i.terminal.name)} <span class="muted">${esc(i.terminal.code)}</span></td><td>${i.state === "FOUND" ? `✓ Found, checked ${time(f?.checkedAt)}` : "◌ Finding"}</td><td>${f ? yesNo(f.availableForPickup) : "—"}</td><td>${holds}</td><td>${esc(f?.lastFreeDay ?? "—")}${f?.lastFreeDaySource ? ` <span class="muted">(${esc(f.lastFreeDaySource)})</span>` : ""}</td><td>${esc(f?.yardLocation ?? "—")}</td></tr>`;
          })
          .join("")}</tbody></table></div>`;
  return `<section class="card" aria-labelledby="terminal"><h2 id="terminal">Terminal</h2>${body}</section>`;
}

type DndAnswer = DashShipmentDndQuery["shipmentDnd"];
type Clock = Extract<DndAnswer, { __typename: "ShipmentDnd" }>["containers"][number]["demurrage"];

const DND_STATUS: Record<string, string> = {
  within_free_time: "✓ Within free time",
  at_risk: "⚠ At risk",
  overdue: "✕ Overdue",
  closed: "■ Closed",
  unknown: "? Unknown",
};
const TERMS: Record<string, string> = {
  contract: "your contract",
  carrier_port_tariff: "carrier's port tariff",
  carrier_country_tariff: "carrier's country tariff",
  benchmark: "benchmark",
};

function money(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return "Rates not known";
  return `${amount.toFixed(2)} ${currency ?? ""}`.trim();
}

function clockRow(box: string, kind: string, c: Clock): string {
  return `<tr><td>${esc(box)}</td><td>${kind}</td><td>${esc(DND_STATUS[c.status] ?? c.status)}${c.unknownReason ? ` <span class="muted">(${esc(c.unknownReason.replace(/_/g, " "))})</span>` : ""}</td><td>${esc(c.lastFreeDay ?? "—")}${c.lastFreeDaySource ? ` <span class="muted">(${c.lastFreeDaySource === "terminal" ? "from the terminal" : "from the tariff"})</span>` : ""}</td><td>${c.daysRemaining ?? "—"}</td><td>${esc(money(c.accruedCost, c.currency))}</td><td>${esc(money(c.projectedCost, c.currency))}</td><td>${esc(c.termsSource ? (TERMS[c.termsSource] ?? c.termsSource) : "—")}${c.isEstimate ? " (estimate)" : ""}</td></tr>`;
}

function dndSection(answer: DndAnswer | null): string {
  let body: string;
  if (!answer || answer.__typename === "ShipmentNotFound")
    body = "<p>Demurrage and detention could not be read.</p>";
  else if (answer.__typename === "PlanRequired")
    body =
      "<p>Demurrage and detention are not part of this plan. An owner can change the plan on the Usage page.</p>";
  else if (answer.__typename === "FeatureDisabled")
    body = "<p>Demurrage and detention are switched off for this organisation.</p>";
  else if (answer.containers.length === 0) body = "<p>No box known yet, so no clock runs.</p>";
  else
    body = `<div class="table-wrap"><table aria-label="Demurrage and detention per box"><thead><tr><th scope="col">Box</th><th scope="col">Clock</th><th scope="col">Status</th><th scope="col">Last free day</th><th scope="col">Days remaining</th><th scope="col">Accrued</th><th scope="col">Projected</th><th scope="col">Terms from</th></tr></thead><tbody>${answer.containers
      .map(
        (c) =>
          `${clockRow(c.container, "Demurrage", c.demurrage)}${c.detention ? clockRow(c.container, "Detention", c.detention) : ""}`,
      )
      .join("")}</tbody></table></div>`;
  return `<section class="card" aria-labelledby="dnd"><h2 id="dnd">Demurrage and detention</h2>${body}<p><a href="/dashboard/dnd-terms">Your contract terms for demurrage and detention</a></p></section>`;
}

function followSection(s: Signed, id: string, followers: { id: string; isViewer: boolean }[] | null): string {
  // Whether the reader is among them is the core's to say (User.isViewer), not an e-mail comparison.
  const following = followers?.some((f) => f.isViewer) ?? false;
  const count = followers?.length ?? 0;
  return `<section class="card" aria-labelledby="follow"><h2 id="follow">E-mail about this shipment</h2>
<p>${following ? "✓ You follow this shipment: you get its e-mail as your notification preferences say." : "You do not follow this shipment."} ${count} ${count === 1 ? "person follows" : "people follow"} it. <a href="/dashboard/notifications">Notification preferences</a></p>
${following ? postButton(`/dashboard/shipments/${id}/unfollow`, "Unfollow this shipment", s.session.csrfToken) : postButton(`/dashboard/shipments/${id}/follow`, "Follow this shipment", s.session.csrfToken)}
</section>`;
}

export async function follow(s: Signed, id: string, on: boolean): Promise<boolean> {
  const result = on
    ? await s.run(s.deps.run(s.caller, DashFollowShipmentDocument, { shipment: id }))
    : await s.run(s.deps.run(s.caller, DashUnfollowShipmentDocument, { shipment: id }));
  return result !== null;
}
