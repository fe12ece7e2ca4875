import {
  DashCreateWebhookDocument,
  DashRotateWebhookDocument,
  DashSetWebhookEnabledDocument,
  DashTestWebhookDocument,
  DashWebhooksDocument,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, esc, notice, postButton, time } from "../html";
import type { Mount } from "../mount";

const EVENTS = [
  "shipment.updated",
  "shipment.vessel_arrived",
  "shipment.arrived",
  "eta.changed",
  "discovery.recovered",
];

/** Webhook endpoints: create (secret shown once), rotate, disable and re-enable, test; deliveries. */
export function mountWebhookPages(get: Mount, post: Mount): void {
  get("/dashboard/webhooks", (s) => webhooksPage(s));
  get("/dashboard/webhooks/deliveries", async (s) => {
    // The deliveries table alone, for htmx to refresh in place.
    const data = await s.run(s.deps.run(s.caller, DashWebhooksDocument));
    s.res.setHeader("Cache-Control", "no-store");
    s.res.type("html").send(deliveriesTable(data?.webhookDeliveries ?? []));
  });
  post("/dashboard/webhooks", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const url = typeof body.url === "string" ? body.url.trim() : "";
    const chosen = ([] as unknown[])
      .concat(body.events ?? [])
      .filter((e): e is string => typeof e === "string");
    const events = chosen.length ? chosen : ["*"];
    const created = await s.run(s.deps.run(s.caller, DashCreateWebhookDocument, { input: { url, events } }));
    if (!created?.createWebhookEndpoint) return webhooksPage(s, refusal(s).html, refusal(s).status);
    await webhooksPage(s, secretShown("Endpoint created", created.createWebhookEndpoint.signingSecret));
  });
  post("/dashboard/webhooks/:id/rotate", async (s) => {
    const rotated = await s.run(
      s.deps.run(s.caller, DashRotateWebhookDocument, { id: String(s.req.params.id) }),
    );
    if (!rotated?.rotateWebhookSecret) return webhooksPage(s, refusal(s).html, refusal(s).status);
    await webhooksPage(s, secretShown("Secret rotated", rotated.rotateWebhookSecret.signingSecret));
  });
  for (const [path, enabled] of [
    ["disable", false],
    ["enable", true],
  ] as const) {
    post(`/dashboard/webhooks/:id/${path}`, async (s) => {
      const done = await s.run(
        s.deps.run(s.caller, DashSetWebhookEnabledDocument, { id: String(s.req.params.id), enabled }),
      );
      if (!done?.setWebhookEndpointEnabled) return webhooksPage(s, refusal(s).html, refusal(s).status);
      await webhooksPage(
        s,
        notice(
          "ok",
          enabled
            ? "Endpoint re-enabled; its failure count was cleared."
            : "Endpoint disabled; nothing is sent to it until it is re-enabled.",
        ),
      );
    });
  }
  post("/dashboard/webhooks/:id/test", async (s) => {
    const sent = await s.run(s.deps.run(s.caller, DashTestWebhookDocument, { id: String(s.req.params.id) }));
    if (!sent?.sendTestWebhook) return webhooksPage(s, refusal(s).html, refusal(s).status);
    await webhooksPage(s, notice("ok", "A webhook.test delivery was queued; it appears under Deliveries."));
  });
}

function secretShown(what: string, secret: string): string {
  return `${notice("ok", `${what}. Copy the signing secret now: it is shown only this once.`)}<p class="secret" id="new-secret" data-testid="new-secret">${esc(secret)}</p><p><button type="button" class="secondary" data-copy="new-secret">Copy secret</button></p>`;
}

type Delivery = NonNullable<
  import("../../generated/operations").DashWebhooksQuery["webhookDeliveries"]
>[number];

function deliveriesTable(deliveries: Delivery[]): string {
  if (deliveries.length === 0)
    return `<div id="deliveries"><p>No deliveries yet. Send a test to an endpoint to see one here.</p></div>`;
  const pending = deliveries.some((d) => d.status === "pending");
  return `<div id="deliveries"${pending ? ' hx-get="/dashboard/webhooks/deliveries" hx-trigger="every 2s" hx-swap="outerHTML"' : ""}><div class="table-wrap"><table><thead><tr><th scope="col">Event</th><th scope="col" class="hide-narrow">Endpoint</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col">Details</th></tr></thead><tbody>${deliveries
    .map(
      (d) =>
        `<tr data-testid="delivery"><td>${esc(d.event)}</td><td class="hide-narrow">${esc(d.endpoint.url)}</td><td>${d.status === "delivered" ? "✓" : d.status === "failed" ? "✕" : "◌"} ${esc(d.status)}</td><td>${d.attempts}</td><td>${time(d.createdAt)}</td><td><details><summary>Body and attempts</summary><pre>${esc(d.body)}</pre><ul>${d.attemptLog.map((a) => `<li>${time(a.attemptedAt)}: ${a.responseStatus ? `HTTP ${a.responseStatus}` : esc(a.error ?? "no answer")} in ${a.durationMs} ms</li>`).join("") || "<li>Not attempted yet</li>"}</ul></details></td></tr>`,
    )
    .join("")}</tbody></table></div></div>`;
}

async function webhooksPage(s: Signed, message = "", status?: number): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashWebhooksDocument));
  const endpoints = data?.webhookEndpoints ?? [];
  const csrf = s.session.csrfToken;
  const list =
    endpoints.length === 0
      ? emptyState("No webhook endpoints yet. Add one below to be told when shipments change.")
      : `<div class="table-wrap"><table><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Failures</th><th scope="col">Actions</th></tr></thead><tbody>${endpoints
          .map(
            (e) =>
              `<tr data-testid="endpoint"><td>${esc(e.url)}</td><td>${esc(e.events.join(", "))}</td><td>${e.enabled ? "✓ Enabled" : `✕ Disabled${e.disabledReason ? `: ${esc(e.disabledReason)}` : ""}`}</td><td>${e.consecutiveFailures}</td><td>${postButton(`/dashboard/webhooks/${e.id}/test`, "Send test", csrf)} ${e.enabled ? postButton(`/dashboard/webhooks/${e.id}/disable`, "Disable", csrf) : postButton(`/dashboard/webhooks/${e.id}/enable`, "Re-enable", csrf)} ${postButton(`/dashboard/webhooks/${e.id}/rotate`, "Rotate secret", csrf)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  const form = `<form method="post" action="/dashboard/webhooks" class="card" aria-labelledby="new-endpoint"><h2 id="new-endpoint">Add an endpoint</h2>${csrfField(csrf)}
<label for="wh-url">URL (https)</label><input id="wh-url" name="url" type="url" required size="40" placeholder="https://example.com/hooks">
<fieldset><legend>Events (none chosen: all)</legend>${EVENTS.map((ev, n) => `<label for="ev-${n}"><input id="ev-${n}" type="checkbox" name="events" value="${ev}"> ${ev}</label>`).join("")}</fieldset>
<p><button type="submit">Add endpoint</button></p></form>`;
  s.render(
    "Webhooks",
    "/dashboard/webhooks",
    `${message}${list}${form}<h2>Deliveries</h2>${deliveriesTable(data?.webhookDeliveries ?? [])}`,
    status,
  );
}
