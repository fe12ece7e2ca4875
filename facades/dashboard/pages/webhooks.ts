import {
  DashCreateWebhookDocument,
  DashDeleteWebhookDocument,
  DashResendDeliveryDocument,
  DashRotateWebhookDocument,
  DashSetWebhookEnabledDocument,
  DashTestWebhookDocument,
  DashWebhookDeliveryDocument,
  DashWebhooksDocument,
  type DashWebhooksQuery,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice, postButton, time } from "../html";
import type { Mount } from "../mount";

/**
 * Webhook endpoints: create (secret shown once), rotate and delete (each after a confirmation),
 * disable and re-enable, test; deliveries with their detail (request, every answer, the failure in
 * words, the next attempt) and resend.
 */
export function mountWebhookPages(get: Mount, post: Mount): void {
  get("/dashboard/webhooks", (s) => webhooksPage(s));
  get("/dashboard/webhooks/deliveries", async (s) => {
    // The deliveries table alone, for htmx to refresh in place.
    const data = await s.run(s.deps.run(s.caller, DashWebhooksDocument));
    s.res.setHeader("Cache-Control", "no-store");
    s.res.type("html").send(deliveriesTable(data?.webhookDeliveries ?? []));
  });
  get("/dashboard/webhooks/deliveries/:id", (s) => deliveryPage(s, String(s.req.params.id)));
  post("/dashboard/webhooks/deliveries/:id/resend", async (s) => {
    const resent = await s.run(
      s.deps.run(s.caller, DashResendDeliveryDocument, { id: String(s.req.params.id) }),
    );
    if (!resent?.resendWebhookDelivery)
      return deliveryPage(s, String(s.req.params.id), refusal(s).html, refusal(s).status);
    s.res.redirect(
      303,
      `/dashboard/webhooks/deliveries/${encodeURIComponent(resent.resendWebhookDelivery.id)}?resent=1`,
    );
  });
  post("/dashboard/webhooks", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const url = typeof body.url === "string" ? body.url.trim() : "";
    const chosen = ([] as unknown[])
      .concat(body.events ?? [])
      .filter((e): e is string => typeof e === "string");
    const events = chosen.length ? chosen : ["*"];
    const created = await s.run(s.deps.run(s.caller, DashCreateWebhookDocument, { input: { url, events } }));
    if (!created?.createWebhookEndpoint)
      return webhooksPage(s, endpointRefusal(s), refusal(s).status, { url, events: chosen });
    await webhooksPage(s, secretShown("Endpoint created", created.createWebhookEndpoint.signingSecret));
  });
  get("/dashboard/webhooks/:id/rotate", (s) =>
    confirmPage(s, String(s.req.params.id), (url) => ({
      question: `Rotate the signing secret of ${url}?`,
      consequence:
        "A new secret is made and shown once. From the next delivery on, requests are signed with it only: until your receiver uses the new secret, it will refuse them.",
      action: "rotate",
      confirmLabel: "Rotate the secret",
    })),
  );
  post("/dashboard/webhooks/:id/rotate", async (s) => {
    const rotated = await s.run(
      s.deps.run(s.caller, DashRotateWebhookDocument, { id: String(s.req.params.id) }),
    );
    if (!rotated?.rotateWebhookSecret) return webhooksPage(s, refusal(s).html, refusal(s).status);
    await webhooksPage(s, secretShown("Secret rotated", rotated.rotateWebhookSecret.signingSecret));
  });
  get("/dashboard/webhooks/:id/delete", (s) =>
    confirmPage(s, String(s.req.params.id), (url) => ({
      question: `Delete the endpoint ${url}?`,
      consequence:
        "Nothing more is sent to it, deliveries still waiting are dropped, and its delivery history is deleted with it. This cannot be undone.",
      action: "delete",
      confirmLabel: "Delete the endpoint",
    })),
  );
  post("/dashboard/webhooks/:id/delete", async (s) => {
    const deleted = await s.run(
      s.deps.run(s.caller, DashDeleteWebhookDocument, { id: String(s.req.params.id) }),
    );
    if (!deleted?.deleteWebhookEndpoint) return webhooksPage(s, refusal(s).html, refusal(s).status);
    await webhooksPage(s, notice("ok", "Endpoint deleted, with its deliveries: nothing more is sent to it."));
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

/** The core's refusal of a new endpoint, said about the form's fields rather than the API's. */
function endpointRefusal(s: Signed): string {
  const message = s.lastError ?? "";
  // The core refuses an address with its reason alone ("the URL must use https"): said as the form's.
  if (s.lastStatus === 400 && !/event/i.test(message))
    return notice(
      "error",
      `The URL was not accepted: ${message.replace(/^url:\s*/i, "")}. Correct it below.`,
    );
  return refusal(s).html;
}

function secretShown(what: string, secret: string): string {
  return `${notice("ok", `${what}. Copy the signing secret now: it is shown only this once.`)}<p class="secret" id="new-secret" data-testid="new-secret">${esc(secret)}</p><p><button type="button" class="secondary" data-copy="new-secret">Copy secret</button></p>`;
}

type Delivery = NonNullable<DashWebhooksQuery["webhookDeliveries"]>[number];

const STATUS_WORDS: Record<string, string> = {
  delivered: "✓ Delivered",
  failed: "✕ Failed, no more attempts",
  pending: "◌ Waiting",
};

/** Where a delivery stands, in words: the last failure's reason while it is failing. */
function standing(d: Pick<Delivery, "status" | "retryAt" | "attemptLog">): string {
  const last = d.attemptLog.at(-1);
  const why = last?.failure ? `<br><span class="muted">${esc(last.failure)}</span>` : "";
  const next = d.status === "pending" && d.retryAt ? `<br>Next attempt ${time(d.retryAt)}` : "";
  return `${esc(STATUS_WORDS[d.status] ?? d.status)}${d.status === "delivered" ? "" : why}${next}`;
}

function deliveriesTable(deliveries: Delivery[]): string {
  if (deliveries.length === 0)
    return `<div id="deliveries"><p>No deliveries yet. Send a test to an endpoint to see one here.</p></div>`;
  const pending = deliveries.some((d) => d.status === "pending");
  return `<div id="deliveries"${pending ? ' hx-get="/dashboard/webhooks/deliveries" hx-trigger="every 2s" hx-swap="outerHTML"' : ""}><div class="table-wrap"><table aria-label="Deliveries"><thead><tr><th scope="col">Event</th><th scope="col" class="hide-narrow">Endpoint</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col">Details</th></tr></thead><tbody>${deliveries
    .map(
      (d) =>
        `<tr data-testid="delivery"><td>${esc(d.event)}</td><td class="hide-narrow">${esc(d.endpoint.url)}</td><td>${standing(d)}</td><td>${d.attempts}</td><td>${time(d.createdAt)}</td><td><a href="/dashboard/webhooks/deliveries/${esc(d.id)}" aria-label="Request and answers of ${esc(d.event)} created ${esc(String(d.createdAt).slice(0, 19).replace("T", " "))} UTC">Request and answers</a></td></tr>`,
    )
    .join("")}</tbody></table></div></div>`;
}

async function webhooksPage(
  s: Signed,
  message = "",
  status?: number,
  typed: { url: string; events: string[] } = { url: "", events: [] },
): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashWebhooksDocument));
  const endpoints = data?.webhookEndpoints ?? [];
  const catalogue = (data?.webhookEvents ?? []).filter((e) => e.subscribable);
  const csrf = s.session.csrfToken;
  const list =
    endpoints.length === 0
      ? emptyState("No webhook endpoints yet. Add one below to be told when shipments change.")
      : `<div class="table-wrap"><table aria-label="Endpoints"><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Failures</th><th scope="col">Actions</th></tr></thead><tbody>${endpoints
          .map(
            (e) =>
              `<tr data-testid="endpoint"><td>${esc(e.url)}</td><td>${esc(e.events.join(", "))}</td><td>${e.enabled ? "✓ Enabled" : `✕ Disabled${e.disabledReason ? `: ${esc(e.disabledReason)}` : ""}`}</td><td>${e.consecutiveFailures}</td><td>${postButton(`/dashboard/webhooks/${e.id}/test`, "Send test", csrf)} ${e.enabled ? postButton(`/dashboard/webhooks/${e.id}/disable`, "Disable", csrf) : postButton(`/dashboard/webhooks/${e.id}/enable`, "Re-enable", csrf)} ${dangerLink(`/dashboard/webhooks/${e.id}/rotate`, `Rotate secret of ${e.url}…`)} ${dangerLink(`/dashboard/webhooks/${e.id}/delete`, `Delete ${e.url}…`)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  const form = `<form method="post" action="/dashboard/webhooks" class="card" aria-labelledby="new-endpoint"><h2 id="new-endpoint">Add an endpoint</h2>${csrfField(csrf)}
<label for="wh-url">URL (https)</label><input id="wh-url" name="url" type="url" required size="40" placeholder="https://example.com/hooks" value="${esc(typed.url)}">
<fieldset><legend>Events (none chosen: all)</legend>${catalogue
    .map(
      (ev, n) =>
        `<label for="ev-${n}"><input id="ev-${n}" type="checkbox" name="events" value="${esc(ev.name)}"${typed.events.includes(ev.name) ? " checked" : ""} aria-describedby="ev-${n}-about"> ${esc(ev.name)}</label><p class="muted event-about" id="ev-${n}-about">${esc(ev.description)}</p>`,
    )
    .join("")}</fieldset>
<p><button type="submit">Add endpoint</button></p></form>`;
  s.render(
    "Webhooks",
    "/dashboard/webhooks",
    `${message}${list}${form}<h2>Deliveries</h2>${deliveriesTable(data?.webhookDeliveries ?? [])}`,
    status,
  );
}

/** The confirmation step of rotating or deleting an endpoint (named by its URL). */
async function confirmPage(
  s: Signed,
  id: string,
  words: (url: string) => { question: string; consequence: string; action: string; confirmLabel: string },
): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashWebhooksDocument));
  const endpoint = data?.webhookEndpoints?.find((e) => e.id === id);
  if (!endpoint) return webhooksPage(s, notice("error", "No such webhook endpoint."), 404);
  const w = words(endpoint.url);
  s.render(
    w.question,
    "/dashboard/webhooks",
    confirmation({
      question: w.question,
      consequence: w.consequence,
      action: `/dashboard/webhooks/${id}/${w.action}`,
      confirmLabel: w.confirmLabel,
      cancelHref: "/dashboard/webhooks",
      csrf: s.session.csrfToken,
    }),
  );
}

async function deliveryPage(s: Signed, id: string, message = "", status?: number): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashWebhookDeliveryDocument, { id }));
  const d = data?.webhookDelivery;
  if (!d) {
    return s.render(
      "Delivery not found",
      "/dashboard/webhooks",
      `${message}${notice("error", "There is no such delivery (it may have gone with its endpoint).")}<p><a href="/dashboard/webhooks">Back to webhooks</a></p>`,
      404,
    );
  }
  const about = data.webhookEvents.find((e) => e.name === d.event)?.description ?? "";
  const resentNotice =
    s.req.query.resent === "1" && !message
      ? notice("ok", "Sent again as this new delivery; it goes out with the endpoint's next deliveries.")
      : "";
  const facts = `<dl class="facts"><div><dt>Event</dt><dd>${esc(d.event)}<br><span class="muted">${esc(about)}</span></dd></div>
<div><dt>Endpoint</dt><dd>${esc(d.endpoint.url)}${d.endpoint.enabled ? "" : " (disabled: nothing is sent until it is re-enabled)"}</dd></div>
<div><dt>Status</dt><dd data-testid="delivery-status">${standing(d)}</dd></div>
<div><dt>Created</dt><dd>${time(d.createdAt)}</dd></div>
<div><dt>Delivered</dt><dd>${time(d.deliveredAt, "Not yet")}</dd></div></dl>`;
  const request = `<section aria-labelledby="request"><h2 id="request">Request</h2><p><code>POST ${esc(d.endpoint.url)}</code></p>
<div class="table-wrap"><table aria-label="Request headers"><thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead><tbody>${d.requestHeaders
    .map((h) => `<tr><td><code>${esc(h.name)}</code></td><td><code>${esc(h.value)}</code></td></tr>`)
    .join(
      "",
    )}<tr><td><code>x-service-signature</code></td><td class="muted">Signed at each attempt with the endpoint's secret (t=…,v1=…)</td></tr></tbody></table></div>
<h3>Body</h3><pre data-testid="request-body">${esc(prettyJson(d.body))}</pre></section>`;
  const attempts = `<section aria-labelledby="answers"><h2 id="answers">Attempts and answers</h2>${
    d.attemptLog.length === 0
      ? "<p>Not attempted yet.</p>"
      : `<ol class="attempts">${d.attemptLog
          .map(
            (a) =>
              `<li data-testid="attempt"><p>${time(a.attemptedAt)}: ${a.responseStatus !== null ? `HTTP ${a.responseStatus}` : "no answer"} in ${a.durationMs} ms</p>${a.failure ? `<p>${esc(a.failure)}</p>` : "<p>✓ Acknowledged.</p>"}${a.responseExcerpt ? `<p class="muted">Start of the answer:</p><pre>${esc(a.responseExcerpt)}</pre>` : ""}</li>`,
          )
          .join("")}</ol>`
  }</section>`;
  const resend =
    d.status === "pending"
      ? `<p class="muted">Still being tried; it can be sent again once it is delivered or has failed.</p>`
      : postButton(
          `/dashboard/webhooks/deliveries/${d.id}/resend`,
          "Resend this delivery",
          s.session.csrfToken,
        );
  s.render(
    `Delivery of ${d.event}`,
    "/dashboard/webhooks",
    // Addresses and ids are long unbroken words: they wrap anywhere rather than widen a phone's page.
    `<div class="wrap-anywhere">${message}${resentNotice}<p><a href="/dashboard/webhooks">Back to webhooks</a></p>${facts}<p>${resend}</p>${request}${attempts}</div>`,
    status,
  );
}

/** The body as sent, indented to read; it is shown as it was sent when it is not JSON. */
function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
