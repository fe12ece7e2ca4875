import {
  DashCongestionDocument,
  DashCustomersDocument,
  DashFeedSourcesDocument,
  DashOperationsDocument,
  DashUsageDocument,
} from "../../generated/operations";
import { emptyState, refusal } from "../context";
import { esc, time } from "../html";
import type { Mount } from "../mount";

const table = (head: string[], rows: string[], label?: string) =>
  `<div class="table-wrap"><table${label ? ` aria-label="${esc(label)}"` : ""}><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
const percent = (n: number | null | undefined) =>
  n === null || n === undefined ? "—" : `${Math.round(n * 100)} %`;
/**
 * The reported closures or strikes that raised a port's score above its queue's own (the core's
 * `raisedBy`), so an operator reading `critical` with a short queue sees why; a dash when the queue
 * alone set the score.
 */
const raisedBy = (events: readonly { headline: string; severity: number }[]) =>
  events.length === 0
    ? '<span class="muted">Its queue</span>'
    : events
        .map((e) => `News: ${esc(e.headline)} <span class="muted">(severity ${e.severity})</span>`)
        .join("<br>");

/** Customers, usage and plan, and the operator pages (the operating organisation only). */
export function mountMorePages(get: Mount): void {
  get("/dashboard/customers", async (s) => {
    const search = typeof s.req.query.search === "string" ? s.req.query.search.slice(0, 100) : "";
    const data = await s.run(s.deps.run(s.caller, DashCustomersDocument, { search: search || undefined }));
    const list = data?.customers;
    const form = `<form method="get" action="/dashboard/customers" role="search" aria-label="Search customers" class="card row"><div><label for="c-search">Name contains</label><input id="c-search" name="search" value="${esc(search)}"></div><div><button type="submit">Search</button></div></form>`;
    const body = !list
      ? refusal(s).html
      : list.items.length === 0
        ? emptyState(
            search
              ? "No customer matches that name."
              : "No customers yet. A customer is named when a shipment is tracked or corrected with one (the API's customer field).",
          )
        : table(
            ["Customer", "Shipments", "Active", "Since"],
            list.items.map(
              (c) =>
                `<tr><td><a href="/dashboard/shipments?customer=${encodeURIComponent(c.name)}">${esc(c.name)}</a></td><td>${c.shipmentCount}</td><td>${c.activeShipmentCount}</td><td>${time(c.createdAt)}</td></tr>`,
            ),
          );
    const limit = list
      ? `<p class="muted">${list.total} of at most ${list.limit} customers on this plan.</p>`
      : "";
    s.render("Customers", "/dashboard/customers", `${form}${limit}${body}`);
  });

  get("/dashboard/usage", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashUsageDocument));
    const u = data?.accountUsage;
    if (!u) return s.render("Usage and plan", "/dashboard/usage", refusal(s).html, refusal(s).status);
    const used = u.slots.limit > 0 ? Math.min(100, Math.round((u.slots.held / u.slots.limit) * 100)) : 0;
    s.render(
      "Usage and plan",
      "/dashboard/usage",
      `<section class="card" aria-labelledby="slots"><h2 id="slots">Shipment slots this cycle</h2>
<p><strong>${u.slots.held}</strong> of ${u.slots.limit} used, ${u.slots.remaining} left (${used} %).</p>
<progress max="100" value="${used}" aria-label="Slots used">${used} %</progress>
<p>Cycle (${esc(u.cycle)}): ${time(u.slots.cycleStart)} to ${time(u.slots.cycleEnd)}.</p></section>
<section class="card" aria-labelledby="plan"><h2 id="plan">Plan: ${esc(u.plan.name)}</h2>
${table(
  ["Allowance", "Amount"],
  [
    `<tr><td>New shipments per month</td><td>${u.plan.shipmentSlotsPerMonth}</td></tr>`,
    `<tr><td>Requests per minute per key</td><td>${u.plan.ratePerMinute}</td></tr>`,
    `<tr><td>Vessel and schedule lookups per day</td><td>${u.plan.lookupsPerDay}</td></tr>`,
    `<tr><td>Carrier lookups per day</td><td>${u.plan.carrierLookupsPerDay}</td></tr>`,
    `<tr><td>Customers</td><td>${u.plan.customerLimit}</td></tr>`,
  ],
  "Plan allowances",
)}
<p>Rate window now: ${u.rateLimit.remaining} of ${u.rateLimit.limit} requests left this minute.</p>
<p>Billing: ${esc(u.billingState)}${u.overdueDays > 0 ? `, ${u.overdueDays} days overdue (grace ${u.graceDays} days)` : ""}.</p></section>`,
    );
  });

  get("/dashboard/operations", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashOperationsDocument));
    const h = data?.deploymentHealth;
    if (!h) return s.render("Operations", "/dashboard/operations", refusal(s).html, refusal(s).status);
    const queues = table(
      ["Queue", "Waiting", "Oldest due for"],
      h.queues.map(
        (q) =>
          `<tr><td>${esc(q.queue.replace(/_/g, " "))}</td><td>${q.depth}</td><td>${q.oldestDueAgeSeconds > 0 ? `${Math.round(q.oldestDueAgeSeconds)} s` : "nothing due"}</td></tr>`,
      ),
      "Background queues",
    );
    const carriers =
      h.carriers.length === 0
        ? emptyState("No carrier was called since this instance started.")
        : table(
            ["Carrier (SCAC)", "Calls", "Answer rate", "Mean latency", "Faults"],
            h.carriers.map(
              (c) =>
                `<tr><td>${esc(c.scac)}</td><td>${c.calls}</td><td>${percent(c.answerRate)}${c.answerRateLow ? ' <span class="late">⚠ low</span>' : ""}</td><td>${c.meanLatencyMs === null ? "—" : `${Math.round(c.meanLatencyMs)} ms`}</td><td>${esc(
                  h.carrierFaults
                    .filter((f) => f.scac === c.scac)
                    .map((f) => `${f.outcome}: ${f.count}`)
                    .join(", ") || "none",
                )}</td></tr>`,
            ),
            "Carrier network health",
          );
    s.render(
      "Operations",
      "/dashboard/operations",
      `<h2>Background work</h2>${queues}<p>Webhook deliveries that gave up in the last 24 hours: <strong>${h.failedDeliveries24h}</strong>.</p>
<h2>Carrier network health</h2><p class="muted">Calls this instance made since it started.</p>${carriers}
<p><a href="/dashboard/operations/feeds">Feed sources</a> · <a href="/dashboard/operations/congestion">Congestion board</a></p>`,
    );
  });

  get("/dashboard/operations/feeds", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashFeedSourcesDocument));
    const sources = data?.disruptionSources;
    if (!sources)
      return s.render("Feed sources", "/dashboard/operations", refusal(s).html, refusal(s).status);
    const body =
      sources.length === 0
        ? emptyState("No disruption news feeds are configured (QUAYSIDE_DISRUPTION_FEEDS).")
        : table(
            ["Feed", "State", "Items (seen / taken)", "Last success", "Last error", "Next fetch"],
            sources.map(
              (f) =>
                `<tr><td>${esc(f.publisher)}<br><span class="muted">${esc(f.url)}</span></td><td>${f.enabled ? (f.consecutiveFailures > 0 ? `⚠ ${f.consecutiveFailures} failures in a row` : "✓ Healthy") : "✕ Off"}</td><td>${f.itemsSeen} / ${f.itemsAccepted}</td><td>${time(f.lastSuccessAt, "Never")}</td><td>${esc(f.lastError ?? "—")} ${f.lastErrorAt ? time(f.lastErrorAt) : ""}</td><td>${time(f.nextFetchAt)}</td></tr>`,
            ),
            "Feed sources",
          );
    s.render("Feed sources", "/dashboard/operations", body);
  });

  get("/dashboard/operations/congestion", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashCongestionDocument));
    const board = data?.portCongestionBoard;
    if (board?.__typename !== "PortCongestionBoard") {
      return s.render(
        "Congestion board",
        "/dashboard/operations",
        board ? emptyState("The congestion board is not part of this organisation's plan.") : refusal(s).html,
      );
    }
    const body =
      board.items.length === 0
        ? emptyState("No port is scored yet: readings appear once a week of samples exists.")
        : table(
            [
              "Port",
              "Score",
              "Level",
              "Raised by",
              "Vessels waiting",
              "Median wait",
              "7-day trend",
              "Computed",
            ],
            board.items.map(
              (p) =>
                `<tr><td>${esc(p.name)} <span class="muted">${esc(p.locode)}</span></td><td>${p.score}</td><td>${esc(p.bucket)} (${esc(p.tier)})</td><td>${raisedBy(p.raisedBy)}</td><td>${p.vesselsWaiting}</td><td>${p.medianAnchorageWaitH === null ? "—" : `${p.medianAnchorageWaitH.toFixed(1)} h`}</td><td>${p.trend7d > 0 ? "▲" : p.trend7d < 0 ? "▼" : "="} ${p.trend7d.toFixed(1)}</td><td>${time(p.computedAt)}</td></tr>`,
            ),
            "Congestion board",
          );
    s.render("Congestion board", "/dashboard/operations", body);
  });
}
