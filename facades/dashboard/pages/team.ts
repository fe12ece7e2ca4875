import {
  DashChangeTeammateRoleDocument,
  DashInvitationsDocument,
  DashInviteDocument,
  DashRemoveTeammateDocument,
  DashRevokeInvitationDocument,
  DashTeamDocument,
} from "../../generated/operations";
import { refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice, postButton, time } from "../html";
import type { Mount } from "../mount";

/** Team: the organisation's people; owners invite (the link shown; e-mail through the outbox seam). */
export function mountTeamPages(get: Mount, post: Mount): void {
  get("/dashboard/team", (s) => teamPage(s));
  post("/dashboard/team/invitations/:id/revoke", async (s) => {
    const done = await s.run(
      s.deps.run(s.caller, DashRevokeInvitationDocument, { id: String(s.req.params.id) }),
    );
    await teamPage(
      s,
      done ? notice("ok", "Invitation withdrawn: its link no longer works.") : refusal(s).html,
      done ? undefined : refusal(s).status,
    );
  });
  post("/dashboard/team/people/:id/role", async (s) => {
    const role = (s.req.body as Record<string, unknown>).role === "owner" ? "owner" : "member";
    const changed = await s.run(
      s.deps.run(s.caller, DashChangeTeammateRoleDocument, { userId: String(s.req.params.id), role }),
    );
    await teamPage(
      s,
      changed
        ? notice("ok", `${changed.changeTeammateRole.name} is now ${changed.changeTeammateRole.role}.`)
        : refusal(s).html,
      changed ? undefined : refusal(s).status,
    );
  });
  get("/dashboard/team/people/:id/remove", async (s) => {
    const team = await s.run(s.deps.run(s.caller, DashTeamDocument));
    const person = team?.viewer.organization.users.find((u) => u.id === String(s.req.params.id));
    if (!person) return teamPage(s, notice("error", "No such teammate."), 404);
    const question = `Remove ${person.name} from the organisation?`;
    s.render(
      question,
      "/dashboard/team",
      confirmation({
        question,
        consequence: `${person.name} (${person.email}) is signed out at once, every API key they hold is revoked, and they can no longer sign in here. To bring them back, invite them again.`,
        action: `/dashboard/team/people/${person.id}/remove`,
        confirmLabel: `Remove ${person.name}`,
        cancelHref: "/dashboard/team",
        csrf: s.session.csrfToken,
      }),
    );
  });
  post("/dashboard/team/people/:id/remove", async (s) => {
    const removed = await s.run(
      s.deps.run(s.caller, DashRemoveTeammateDocument, { userId: String(s.req.params.id) }),
    );
    await teamPage(
      s,
      removed
        ? notice(
            "ok",
            `${removed.removeTeammate.name} was removed: their keys are revoked and they are signed out.`,
          )
        : refusal(s).html,
      removed ? undefined : refusal(s).status,
    );
  });
  post("/dashboard/team/invitations", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const email = typeof body.email === "string" ? body.email : "";
    const role = body.role === "owner" ? "owner" : "member";
    const invited = await s.run(s.deps.run(s.caller, DashInviteDocument, { email, role }));
    if (!invited?.inviteTeammate) return teamPage(s, refusal(s).html, refusal(s).status);
    const url = `${s.deps.baseUrl}${invited.inviteTeammate.acceptPath}`;
    await teamPage(
      s,
      `${notice("ok", `Invitation for ${invited.inviteTeammate.invitation.email} created. Send them this link (valid 7 days, shown only now):`)}<p class="secret" id="invite-link" data-testid="invite-link">${esc(url)}</p><p><button type="button" class="secondary" data-copy="invite-link">Copy link</button></p>`,
    );
  });
}

async function teamPage(s: Signed, message = "", status?: number): Promise<void> {
  const team = await s.run(s.deps.run(s.caller, DashTeamDocument));
  const users = team?.viewer.organization.users ?? [];
  const owner = s.rights.manageOrganization;
  const invitations = owner
    ? ((await s.run(s.deps.run(s.caller, DashInvitationsDocument)))?.invitations ?? [])
    : [];
  // The core says, per row, what the viewer may do to that person (not themselves, an owner kept).
  const manage = (u: (typeof users)[number]) =>
    `${u.roleChangeableByViewer ? `<form method="post" action="/dashboard/team/people/${esc(u.id)}/role" class="row">${csrfField(s.session.csrfToken)}<select name="role" aria-label="Role of ${esc(u.name)}"><option value="member"${u.role === "member" ? " selected" : ""}>member</option><option value="owner"${u.role === "owner" ? " selected" : ""}>owner</option></select> <button type="submit" class="secondary">Change role of ${esc(u.name)}</button></form>` : ""}${u.removableByViewer ? dangerLink(`/dashboard/team/people/${u.id}/remove`, `Remove ${u.name}…`) : ""}`;
  const people = `<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col" class="hide-narrow">Since</th>${owner ? '<th scope="col">Manage</th>' : ""}</tr></thead><tbody>${users.map((u) => `<tr><td>${esc(u.name)}</td><td>${esc(u.email)}</td><td>${esc(u.role)}</td><td class="hide-narrow">${time(u.createdAt)}</td>${owner ? `<td>${manage(u)}</td>` : ""}</tr>`).join("")}</tbody></table></div>`;
  const open =
    invitations.length === 0
      ? ""
      : `<h2>Open invitations</h2><ul>${invitations.map((i) => `<li>${esc(i.email)} (${esc(i.role)}), expires ${time(i.expiresAt)} ${postButton(`/dashboard/team/invitations/${i.id}/revoke`, `Withdraw the invitation for ${i.email}`, s.session.csrfToken)}</li>`).join("")}</ul>`;
  const form = owner
    ? `<form method="post" action="/dashboard/team/invitations" class="card" aria-labelledby="invite-title"><h2 id="invite-title">Invite a teammate</h2>${csrfField(s.session.csrfToken)}
<label for="invite-email">E-mail address</label><input id="invite-email" name="email" type="email" required size="30">
<label for="invite-role">Role</label><select id="invite-role" name="role"><option value="member">Member: tracks shipments, manages own keys</option><option value="owner">Owner: also manages the team, billing and every key</option></select>
<p><button type="submit">Create invitation</button></p></form>`
    : `<p class="muted">Only owners invite teammates.</p>`;
  s.render("Team", "/dashboard/team", `${message}${people}${open}${form}`, status);
}
