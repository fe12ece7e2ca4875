import { OUTCOMES } from "../../../src/http/outcomes";
import { DashCreateKeyDocument, DashKeysDocument, DashRevokeKeyDocument } from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, esc, notice, postButton, time } from "../html";
import type { Mount } from "../mount";

/** API keys: create (the raw key shown once), view-only and expiry, revoke. */
export function mountKeyPages(get: Mount, post: Mount): void {
  get("/dashboard/keys", (s) => keysPage(s));
  post("/dashboard/keys", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const name = typeof body.name === "string" ? body.name.trim() : "";
    const days = Number.parseInt(typeof body.expiresInDays === "string" ? body.expiresInDays : "", 10);
    const created = await s.run(
      s.deps.run(s.caller, DashCreateKeyDocument, {
        input: {
          name: name || "API key",
          viewOnly: body.viewOnly === "true",
          expiresInDays: Number.isFinite(days) && days > 0 ? days : null,
        },
      }),
    );
    if (!created?.createApiKey) return keysPage(s, refusal(s).html, refusal(s).status);
    await keysPage(
      s,
      `${notice("ok", `Key "${created.createApiKey.apiKey.name}" created. Copy it now: it is shown only this once.`)}
<p class="secret" id="new-key" data-testid="new-key">${esc(created.createApiKey.key)}</p><p><button type="button" class="secondary" data-copy="new-key">Copy key</button></p>`,
    );
  });
  post("/dashboard/keys/:id/revoke", async (s) => {
    const done = await s.run(s.deps.run(s.caller, DashRevokeKeyDocument, { id: String(s.req.params.id) }));
    if (!done) return keysPage(s, refusal(s).html, refusal(s).status);
    await keysPage(s, notice("ok", "The key was revoked; requests with it are refused from now on."));
  });
}

async function keysPage(s: Signed, message = "", status?: number): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashKeysDocument));
  const keys = data?.viewer.organization.apiKeys ?? [];
  const mine = (k: (typeof keys)[number]) => k.user.id === s.caller.principal.user.id;
  const canRevoke = (k: (typeof keys)[number]) => !k.revokedAt && (s.person.role === "owner" || mine(k));
  const rows = keys
    .map((k) => {
      const state = k.revokedAt ? "✕ Revoked" : k.expired ? "✕ Expired" : "✓ Live";
      return `<tr><td>${esc(k.name)}</td><td><code>${esc(k.displayPrefix)}…</code></td><td>${esc(k.user.email)}</td><td>${k.viewOnly ? "View-only" : "Read and write"}</td><td>${state}</td><td class="hide-narrow">${time(k.expiresAt, "Never")}</td><td class="hide-narrow">${time(k.lastUsedAt, "Never")}</td><td>${canRevoke(k) ? postButton(`/dashboard/keys/${k.id}/revoke`, `Revoke ${k.name}`, s.session.csrfToken) : ""}</td></tr>`;
    })
    .join("");
  const table =
    keys.length === 0
      ? emptyState("No API keys yet. Create one below to call the API.")
      : `<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Owner</th><th scope="col">Access</th><th scope="col">State</th><th scope="col" class="hide-narrow">Expires</th><th scope="col" class="hide-narrow">Last used</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const form = `<form method="post" action="/dashboard/keys" class="card" aria-labelledby="new-key-title"><h2 id="new-key-title">Create a key</h2>${csrfField(s.session.csrfToken)}
<label for="key-name">Name</label><input id="key-name" name="name" maxlength="100" required size="24">
<label for="key-expiry">Expires after (days, empty for never)</label><input id="key-expiry" name="expiresInDays" type="number" min="1" max="3650" inputmode="numeric" size="8">
<p><label for="key-view-only"><input id="key-view-only" type="checkbox" name="viewOnly" value="true"> View-only (may read, may not change anything)</label></p>
<p><button type="submit">Create key</button></p></form>`;
  s.render(
    "API keys",
    "/dashboard/keys",
    `${message}${table}${form}`,
    status ?? (message.includes("notice-error") ? OUTCOMES.bad_request.v1.status : 200),
  );
}
