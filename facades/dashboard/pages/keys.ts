import { OUTCOMES } from "../../../src/http/outcomes";
import { DashCreateKeyDocument, DashKeysDocument, DashRevokeKeyDocument } from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice, time } from "../html";
import type { Mount } from "../mount";

/** API keys: create (the raw key shown once), view-only and expiry, revoke. */
export function mountKeyPages(get: Mount, post: Mount): void {
  get("/dashboard/keys", (s) => keysPage(s));
  post("/dashboard/keys", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const name = typeof body.name === "string" ? body.name.trim() : "";
    const daysText = typeof body.expiresInDays === "string" ? body.expiresInDays.trim() : "";
    const days = Number.parseInt(daysText, 10);
    const typed = { name, expiresInDays: daysText, viewOnly: body.viewOnly === "true" };
    if (!name)
      return keysPage(s, notice("error", "Give the key a name, so you can tell it apart later."), 400, typed);
    if (daysText && !(/^\d+$/.test(daysText) && days >= 1 && days <= 3650)) {
      return keysPage(
        s,
        notice(
          "error",
          "The expiry is a number of days from 1 to 3650, or empty for a key that never expires.",
        ),
        400,
        typed,
      );
    }
    const created = await s.run(
      s.deps.run(s.caller, DashCreateKeyDocument, {
        input: {
          name,
          viewOnly: body.viewOnly === "true",
          expiresInDays: Number.isFinite(days) && days > 0 ? days : null,
        },
      }),
    );
    if (!created?.createApiKey) return keysPage(s, refusal(s).html, refusal(s).status, typed);
    await keysPage(
      s,
      `${notice("ok", `Key "${created.createApiKey.apiKey.name}" created. Copy it now: it is shown only this once.`)}
<p class="secret" id="new-key" data-testid="new-key">${esc(created.createApiKey.key)}</p><p><button type="button" class="secondary" data-copy="new-key">Copy key</button></p>`,
    );
  });
  get("/dashboard/keys/:id/revoke", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashKeysDocument));
    // Asked only about a key the core says this person may revoke now (the rule revokeApiKey enforces).
    const key = data?.viewer.organization.apiKeys.find(
      (k) => k.id === String(s.req.params.id) && k.revocableByViewer,
    );
    if (!key)
      return keysPage(
        s,
        notice("error", "No such API key that you may revoke: it is already revoked, or it is a teammate's."),
        OUTCOMES.not_found.v1.status,
      );
    const question = `Revoke the key "${key.name}"?`;
    s.render(
      question,
      "/dashboard/keys",
      confirmation({
        question,
        consequence: `Every request with the key starting ${key.displayPrefix}… is refused from then on, on every API. A revoked key cannot be brought back: whatever uses it needs a new key.`,
        action: `/dashboard/keys/${key.id}/revoke`,
        confirmLabel: `Revoke ${key.name}`,
        cancelHref: "/dashboard/keys",
        csrf: s.session.csrfToken,
      }),
    );
  });
  post("/dashboard/keys/:id/revoke", async (s) => {
    const done = await s.run(s.deps.run(s.caller, DashRevokeKeyDocument, { id: String(s.req.params.id) }));
    if (!done) return keysPage(s, refusal(s).html, refusal(s).status);
    await keysPage(s, notice("ok", "The key was revoked; requests with it are refused from now on."));
  });
}

async function keysPage(
  s: Signed,
  message = "",
  status?: number,
  typed: { name: string; expiresInDays: string; viewOnly: boolean } = {
    name: "",
    expiresInDays: "",
    viewOnly: false,
  },
): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashKeysDocument));
  const keys = data?.viewer.organization.apiKeys ?? [];
  const rows = keys
    .map((k) => {
      const state = k.revokedAt ? "✕ Revoked" : k.expired ? "✕ Expired" : "✓ Live";
      return `<tr><td>${esc(k.name)}</td><td><code>${esc(k.displayPrefix)}…</code></td><td>${esc(k.user.email)}</td><td>${k.viewOnly ? "View-only" : "Read and write"}</td><td>${state}</td><td class="hide-narrow">${time(k.expiresAt, "Never")}</td><td class="hide-narrow">${time(k.lastUsedAt, "Never")}</td><td>${k.revocableByViewer ? dangerLink(`/dashboard/keys/${k.id}/revoke`, `Revoke ${k.name}…`) : ""}</td></tr>`;
    })
    .join("");
  const table =
    keys.length === 0
      ? emptyState("No API keys yet. Create one below to call the API.")
      : `<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Owner</th><th scope="col">Access</th><th scope="col">State</th><th scope="col" class="hide-narrow">Expires</th><th scope="col" class="hide-narrow">Last used</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const form = `<form method="post" action="/dashboard/keys" class="card" aria-labelledby="new-key-title"><h2 id="new-key-title">Create a key</h2>${csrfField(s.session.csrfToken)}
<label for="key-name">Name</label><input id="key-name" name="name" maxlength="100" required size="24" value="${esc(typed.name)}">
<label for="key-expiry">Expires after (days, empty for never)</label><input id="key-expiry" name="expiresInDays" type="number" min="1" max="3650" inputmode="numeric" size="8" value="${esc(typed.expiresInDays)}">
<p><label for="key-view-only"><input id="key-view-only" type="checkbox" name="viewOnly" value="true"${typed.viewOnly ? " checked" : ""}> View-only (may read, may not change anything)</label></p>
<p><button type="submit">Create key</button></p></form>`;
  s.render(
    "API keys",
    "/dashboard/keys",
    `${message}${table}${form}`,
    status ?? (message.includes("notice-error") ? OUTCOMES.bad_request.v1.status : 200),
  );
}
