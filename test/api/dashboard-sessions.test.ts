import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_FAILURES_PER_WINDOW } from "../../src/domain/people/people.service";
import { graphql, startTestApp, type TestApp } from "../support/app";

/**
 * The dashboard's sign-in over plain HTTP (no browser): throttling per address, the Secure cookie
 * behind a TLS proxy, operator pages refused to other organisations, the password hash never shown.
 */
let app: TestApp;
const PASSWORD = "correct-horse-battery";

beforeAll(async () => {
  // Behind a proxy: the client address and the scheme come from X-Forwarded-*.
  app = await startTestApp({ env: { QUAYSIDE_TRUST_PROXY: "true", QUAYSIDE_WORKERS: "off" } });
}, 120_000);
afterAll(() => app?.stop());

async function person(role: "owner" | "member" = "owner") {
  const { accounts } = app.services;
  const org = await accounts.createOrganization({ name: `Org ${Math.random().toString(36).slice(2, 8)}` });
  const email = `p-${org.id.slice(0, 8)}@example.com`;
  await accounts.createUser({ organizationId: org.id, email, role, password: PASSWORD });
  return { email, organizationId: org.id };
}

/** A visitor's session: its cookie and the sign-in form's CSRF token. */
async function visit(headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}/dashboard/sign-in`, { headers });
  const cookie = res.headers.get("set-cookie") ?? "";
  const token = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? "";
  return { cookie, session: cookie.split(";")[0]!, token };
}

async function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  const { session, token } = await visit(headers);
  return fetch(`${app.url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: session, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ _csrf: token, email, password }).toString(),
  });
}

describe("dashboard sign-in over HTTP", { timeout: 180_000 }, () => {
  it("refuses further attempts from an address after too many failures, even with the right password", async () => {
    const { email } = await person();
    const from = { "x-forwarded-for": "203.0.113.9" };
    for (let n = 0; n < SIGN_IN_FAILURES_PER_WINDOW; n++) {
      // A different account each time: one account locks itself sooner (its own per-account limit,
      // test/security/dashboard-sign-in.test.ts), and this is about the address.
      const wrong = await signIn(`sprayed-${n}@example.com`, `wrong-${n}-password`, from);
      expect(wrong.status).toBe(401);
    }
    const throttled = await signIn(email, PASSWORD, from);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await throttled.text()).toMatch(/Too many failed sign-ins/);
    // Another address is not affected.
    const elsewhere = await signIn(email, PASSWORD, { "x-forwarded-for": "198.51.100.4" });
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.headers.get("location")).toBe("/dashboard");
  });

  it("marks the session cookie Secure behind a TLS proxy, and not on plain HTTP", async () => {
    const { email } = await person();
    const tls = await signIn(email, PASSWORD, {
      "x-forwarded-proto": "https",
      "x-forwarded-for": "192.0.2.1",
    });
    expect(tls.headers.get("set-cookie")).toMatch(
      /^quayside_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure; Expires=/,
    );
    const plain = await signIn(email, PASSWORD, { "x-forwarded-for": "192.0.2.2" });
    expect(plain.headers.get("set-cookie")).not.toContain("Secure");
  });

  it("answers an unknown address like a wrong password, and never redirects outside the dashboard", async () => {
    const { session, token } = await visit({ "x-forwarded-for": "192.0.2.3" });
    const res = await fetch(`${app.url}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: session,
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": "192.0.2.3",
      },
      body: new URLSearchParams({ _csrf: token, email: "nobody@example.com", password: PASSWORD }).toString(),
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("do not match an account");

    const { email } = await person();
    const { session: s2, token: t2 } = await visit({ "x-forwarded-for": "192.0.2.4" });
    const open = await fetch(`${app.url}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: s2,
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": "192.0.2.4",
      },
      body: new URLSearchParams({
        _csrf: t2,
        email,
        password: PASSWORD,
        next: "//evil.example/x",
      }).toString(),
    });
    expect(open.headers.get("location")).toBe("/dashboard");
  });

  it("refuses the operator pages to an organisation that does not operate the deployment", async () => {
    const { email } = await person();
    const signedIn = await signIn(email, PASSWORD, { "x-forwarded-for": "192.0.2.5" });
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const res = await fetch(`${app.url}/dashboard/operations`, { headers: { cookie } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("operates this deployment");
    const nav = await (await fetch(`${app.url}/dashboard`, { headers: { cookie } })).text();
    expect(nav).not.toContain('href="/dashboard/operations"');
  });

  it("lets an owner's key invite on /graphql, and refuses a member's key with OWNER_REQUIRED", async () => {
    const owner = await app.fixtures.organization({ role: "owner" });
    const member = await app.fixtures.teammate(owner.organizationId, { role: "member" });
    const invite = `mutation($email: String!) { inviteTeammate(email: $email) { acceptPath invitation { email role } } }`;
    const refused = await graphql(app, member.key, invite, { email: "new-mate@example.com" });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("OWNER_REQUIRED");
    expect(await app.services.db.prisma.invitation.count({ where: { email: "new-mate@example.com" } })).toBe(
      0,
    );

    const invited = await graphql(app, owner.key, invite, { email: "new-mate@example.com" });
    const answer = invited.body.data?.inviteTeammate as { acceptPath: string; invitation: { role: string } };
    expect(answer.invitation.role).toBe("member");
    expect(answer.acceptPath).toMatch(/^\/dashboard\/invitations\/[\w-]{43}$/);
    const listed = await graphql(app, owner.key, "{ invitations { email } }");
    expect(listed.body.data?.invitations).toEqual([{ email: "new-mate@example.com" }]);
    // The invitation is e-mailed through the mail queue (the outbox here: no SMTP_URL), with its link.
    const mail = await graphql(app, owner.key, "{ mailOutbox { to subject text } }");
    const invitationMail = (
      mail.body.data!.mailOutbox as { to: string; subject: string; text: string }[]
    ).find((m) => m.to === "new-mate@example.com");
    expect(invitationMail?.subject).toMatch(/invited you to .* on Quayside$/);
    expect(invitationMail?.text).toContain(answer.acceptPath);
    // The internal fields are not on the public schema.
    const internal = await graphql(app, owner.key, `mutation { changePassword(current: "a", next: "b") }`);
    expect(internal.body.errors?.[0]?.message).toMatch(/Cannot query field "changePassword"/);
  });

  it("stores passwords as scrypt hashes that carry their parameters, never the password", async () => {
    const { email } = await person();
    const user = await app.services.db.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user.passwordHash).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
  });
});
