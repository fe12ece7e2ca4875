import type { DashChangePasswordDocument } from "../../generated/operations";
import { DashSetDeveloperModeDocument, DashViewerDocument } from "../../generated/operations";
import type { DashboardDeps } from "../context";
import { refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice } from "../html";
import type { Mount } from "../mount";

/** Account: the person's password and the organisation's developer mode (owners). */
export function mountAccountPages(
  get: Mount,
  post: Mount,
  _deps: DashboardDeps,
  changePassword: typeof DashChangePasswordDocument,
): void {
  get("/dashboard/account", (s) => accountPage(s));
  post("/dashboard/account/password", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const current = typeof body.current === "string" ? body.current : "";
    const next = typeof body.next === "string" ? body.next : "";
    const done = await s.run(s.deps.run(s.caller, changePassword, { current, next }));
    if (!done) return accountPage(s, refusal(s).html, refusal(s).status);
    await accountPage(s, notice("ok", "Password changed. Other sessions were signed out."));
  });
  get("/dashboard/account/developer-mode/off", async (s) => {
    const question = "Switch developer mode off?";
    s.render(
      question,
      "/dashboard/account",
      confirmation({
        question,
        consequence:
          "Every API surface (REST, GraphQL, the SeaRates-compatible API, MCP) refuses the organisation's keys at once, so integrations using them stop until it is switched on again. The keys themselves are kept.",
        action: "/dashboard/account/developer-mode",
        confirmLabel: "Switch developer mode off",
        cancelHref: "/dashboard/account",
        csrf: s.session.csrfToken,
        extra: '<input type="hidden" name="enabled" value="false">',
      }),
    );
  });
  post("/dashboard/account/developer-mode", async (s) => {
    const enabled = (s.req.body as Record<string, unknown>).enabled === "true";
    const done = await s.run(s.deps.run(s.caller, DashSetDeveloperModeDocument, { enabled }));
    if (!done) return accountPage(s, refusal(s).html, refusal(s).status);
    await accountPage(
      s,
      notice(
        "ok",
        enabled
          ? "Developer mode is on: the organisation's API keys work."
          : "Developer mode is off: every API surface refuses the organisation's keys.",
      ),
    );
  });
}

async function accountPage(s: Signed, message = "", status?: number): Promise<void> {
  const viewer = await s.run(s.deps.run(s.caller, DashViewerDocument));
  const org = viewer?.viewer.organization;
  const csrf = s.session.csrfToken;
  const developer = org
    ? `<section class="card" aria-labelledby="dev"><h2 id="dev">Developer mode</h2>
<p>Developer mode is <strong>${org.developerMode ? "on" : "off"}</strong>. ${org.developerMode ? "API keys of the organisation work on every surface." : "API keys are refused on every surface until it is switched on."}</p>
${!s.rights.manageOrganization ? '<p class="muted">Only owners switch it.</p>' : org.developerMode ? `<p>${dangerLink("/dashboard/account/developer-mode/off", "Switch developer mode off…")}</p>` : `<form method="post" action="/dashboard/account/developer-mode">${csrfField(csrf)}<input type="hidden" name="enabled" value="true"><button type="submit">Switch developer mode on</button></form>`}
<p>Plan: ${esc(org.plan.name)}.</p></section>`
    : "";
  const password = `<form method="post" action="/dashboard/account/password" class="card" aria-labelledby="pw"><h2 id="pw">Change password</h2>${csrfField(csrf)}
<input type="text" name="username" autocomplete="username" value="${esc(s.person.email)}" hidden>
<label for="pw-current">Current password</label><input id="pw-current" name="current" type="password" autocomplete="current-password" required size="28">
<label for="pw-next">New password (at least 10 characters)</label><input id="pw-next" name="next" type="password" autocomplete="new-password" minlength="10" required size="28">
<p><button type="submit">Change password</button></p></form>`;
  s.render(
    "Account",
    "/dashboard/account",
    `${message}<p>Signed in as ${esc(s.person.name)} (${esc(s.person.email)}).</p>${developer}${password}`,
    status,
  );
}
