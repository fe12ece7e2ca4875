import {
  DashExceptionRulesDocument,
  DashShipmentCountDocument,
  DashShipmentsDocument,
} from "../../generated/operations";
import { emptyState } from "../context";
import { arrivalTime, esc, statusBadge, time } from "../html";
import type { Mount } from "../mount";

/**
 * Overview: the exceptions (failed, delayed, ETA moved, last free day soon or passed, on hold,
 * arriving this week), counts by status, the
 * latest carrier updates. Archived shipments are in none of them (the core leaves them out).
 */
export function mountOverview(get: Mount): void {
  get("/dashboard", async (s) => {
    const count = async (filter: Record<string, unknown>) => {
      const data = await s.run(s.deps.run(s.caller, DashShipmentCountDocument, { filter }));
      return data?.shipmentSearch?.total ?? 0;
    };
    const [
      planned,
      inTransit,
      delivered,
      failed,
      arriving,
      delayed,
      etaMoved,
      lfdSoon,
      lfdPassed,
      onHold,
      rules,
      recent,
    ] = await Promise.all([
      count({ status: ["PLANNED"] }),
      count({ status: ["IN_TRANSIT"] }),
      count({ status: ["DELIVERED"] }),
      count({ failed: true }),
      count({ arrivingWithinDays: 7 }),
      count({ delayed: true, active: true }),
      count({ etaMoved: true, active: true }),
      // Free time and holds are kept on each row; the core compares them with its own clock.
      count({ lastFreeDaySoon: true, active: true }),
      count({ lastFreeDayPassed: true, active: true }),
      count({ onHold: true, active: true }),
      s.run(s.deps.run(s.caller, DashExceptionRulesDocument, {})),
      // Recently synced first: what the carriers changed, not what was added last.
      s.run(s.deps.run(s.caller, DashShipmentsDocument, { page: 1, pageSize: 8, sort: "SYNCED" })),
    ]);
    const items = recent?.shipmentSearch?.items ?? [];
    const soonDays = rules?.shipmentExceptionRules.lastFreeDaySoonDays ?? "a few";
    const tile = (label: string, value: number, href: string) =>
      `<li><a href="${esc(href)}"><strong>${value}</strong>${esc(label)}</a></li>`;
    // Exceptions first: each is a filter of the list, counted by the core on its own clock.
    const exceptions = `<h2 id="attention">Needs attention</h2><ul class="tiles" aria-labelledby="attention">
${tile("Failed: no carrier found it", failed, "/dashboard/shipments?failed=true")}
${tile("Delayed: ETA a day or more later", delayed, "/dashboard/shipments?delay=delayed&active=true&sort=arrival")}
${tile("ETA moved: half a day or more at the last update", etaMoved, "/dashboard/shipments?eta_moved=true&active=true&sort=arrival")}
${tile(`Last free day within ${soonDays} days`, lfdSoon, "/dashboard/shipments?lfd=soon&active=true&sort=last_free_day")}
${tile("Last free day passed: charges running", lfdPassed, "/dashboard/shipments?lfd=passed&active=true&sort=last_free_day")}
${tile("On hold: customs, line or terminal", onHold, "/dashboard/shipments?hold=true&active=true")}
${tile("Arriving in 7 days", arriving, "/dashboard/shipments?eta=7&sort=arrival")}
</ul>`;
    const tiles = `<h2 id="by-state">By state</h2><ul class="tiles" aria-labelledby="by-state">
${tile("Planned", planned, "/dashboard/shipments?status=PLANNED")}
${tile("In transit", inTransit, "/dashboard/shipments?status=IN_TRANSIT")}
${tile("Delivered", delivered, "/dashboard/shipments?status=DELIVERED")}
</ul>`;
    const list =
      items.length === 0
        ? emptyState("You are not tracking anything yet.", {
            href: "/dashboard/track",
            label: "Track a container, bill of lading or booking",
          })
        : `<div class="table-wrap"><table><caption class="muted">Most recently updated from the carrier</caption><thead><tr><th scope="col">Shipment</th><th scope="col">Status</th><th scope="col">ETA</th><th scope="col" class="hide-narrow">Updated</th></tr></thead><tbody>${items
            .map(
              (i) =>
                `<tr><td><a href="/dashboard/shipments/${esc(i.name)}">${esc(i.reference)}</a></td><td>${statusBadge(i.status, i.failed)}${i.summary?.isDelayed ? ' <span class="late">Delayed</span>' : ""}</td><td>${arrivalTime(i)}</td><td class="hide-narrow">${time(i.updatedAt)}</td></tr>`,
            )
            .join("")}</tbody></table></div>`;
    s.render("Overview", "/dashboard", `${exceptions}${tiles}<h2>Recent changes</h2>${list}`);
  });
}
