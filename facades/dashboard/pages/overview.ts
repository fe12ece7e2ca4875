import { DashShipmentCountDocument, DashShipmentsDocument } from "../../generated/operations";
import { emptyState } from "../context";
import { arrivalTime, esc, statusBadge, time } from "../html";
import type { Mount } from "../mount";

/** Overview: counts by status, failed, arriving this week, the most recently changed shipments. */
export function mountOverview(get: Mount): void {
  get("/dashboard", async (s) => {
    const count = async (filter: Record<string, unknown>) => {
      const data = await s.run(s.deps.run(s.caller, DashShipmentCountDocument, { filter }));
      return data?.shipmentSearch?.total ?? 0;
    };
    const [planned, inTransit, delivered, failed, arriving, recent] = await Promise.all([
      count({ status: ["PLANNED"] }),
      count({ status: ["IN_TRANSIT"] }),
      count({ status: ["DELIVERED"] }),
      count({ failed: true }),
      count({ arrivingWithinDays: 7 }),
      s.run(s.deps.run(s.caller, DashShipmentsDocument, { page: 1, pageSize: 8 })),
    ]);
    const items = recent?.shipmentSearch?.items ?? [];
    const tile = (label: string, value: number, href: string) =>
      `<li><a href="${esc(href)}"><strong>${value}</strong>${esc(label)}</a></li>`;
    const tiles = `<ul class="tiles" aria-label="Shipments by state">
${tile("Planned", planned, "/dashboard/shipments?status=PLANNED")}
${tile("In transit", inTransit, "/dashboard/shipments?status=IN_TRANSIT")}
${tile("Delivered", delivered, "/dashboard/shipments?status=DELIVERED")}
${tile("Failed (not found yet)", failed, "/dashboard/shipments?failed=true")}
${tile("Arriving in 7 days", arriving, "/dashboard/shipments?eta=7")}
</ul>`;
    const list =
      items.length === 0
        ? emptyState("You are not tracking anything yet.", {
            href: "/dashboard/track",
            label: "Track a container, bill of lading or booking",
          })
        : `<div class="table-wrap"><table><caption class="muted">Newest shipments</caption><thead><tr><th scope="col">Shipment</th><th scope="col">Status</th><th scope="col">ETA</th><th scope="col" class="hide-narrow">Updated</th></tr></thead><tbody>${items
            .map(
              (i) =>
                `<tr><td><a href="/dashboard/shipments/${esc(i.name)}">${esc(i.reference)}</a></td><td>${statusBadge(i.status, i.failed)}${i.summary?.isDelayed ? ' <span class="late">Delayed</span>' : ""}</td><td>${arrivalTime(i)}</td><td class="hide-narrow">${time(i.updatedAt)}</td></tr>`,
            )
            .join("")}</tbody></table></div>`;
    s.render("Overview", "/dashboard", `${tiles}<h2>Recent changes</h2>${list}`);
  });
}
