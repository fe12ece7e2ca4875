import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SIGN_IN_FAILURES_PER_WINDOW } from "../../src/domain/people/people.service";
import {
  ACCOUNT_FAILURES_BEFORE_LOCK,
  ACCOUNT_LONGEST_LOCK_MS,
  accountLockMs,
} from "../../src/domain/people/sign-in-lockout";
import { ManualClock } from "../../src/lib/clock";
import { startTestApp, type TestApp } from "../support/app";

/**
 * Issue 39 items 2 and 10 on the dashboard's sign-in, over plain HTTP: browsing signed out stores no
 * session (the sign-in form's CSRF token is a double-submit cookie), a forged token is still refused,
 * and failed sign-ins are limited per account as well as per address, with a lock short enough that
 * nobody can shut the owner out for long. Time is the injected clock.
 */
const clock = new ManualClock("2026-11-22T10:00:00.000Z");
const PASSWORD = "correct-horse-battery";
let app: TestApp;
let addressCounter = 0;

beforeAll(async () => {
  // Behind a proxy, so each request names its client address in X-Forwarded-For.
  app = await startTestApp({ clock, env: { QUAYSIDE_TRUST_PROXY: "true", QUAYSIDE_WORKERS: "off" } });
}, 120_000);
afterAll(() => app?.stop());
// Every test starts a day later: no address window or account lock carries over.
beforeEach(() => clock.advance(24 * 60 * 60 * 1000));

/** A client address nobody used before (each guess of an attacker with many addresses). */
const freshAddress = () => ({
  "x-forwarded-for": `198.18.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`,
});

const sessionRows = () => app.services.db.prisma.dashboardSession.count();

async function person(): Promise<string> {
  const { accounts } = app.services;
  const org = await accounts.createOrganization({ name: `Org ${Math.random().toString(36).slice(2, 8)}` });
  const email = `p-${org.id.slice(0, 8)}@example.com`;
  await accounts.createUser({ organizationId: org.id, email, role: "owner", password: PASSWORD });
  return email;
}

/** The sign-in page as a browser gets it: the cookies it sets and the form's CSRF token. */
async function visit(headers: Record<string, string>) {
  const res = await fetch(`${app.url}/dashboard/sign-in`, { headers });
  const setCookies = res.headers.getSetCookie();
  const token = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? "";
  return { status: res.status, setCookies, cookie: setCookies.map((c) => c.split(";")[0]).join("; "), token };
}

function postSignIn(form: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

async function signIn(email: string, password: string, from: Record<string, string> = freshAddress()) {
  const { cookie, token } = await visit(from);
  return postSignIn({ _csrf: token, email, password }, { ...from, cookie });
}

describe("signed-out browsing stores no session (item 2)", { timeout: 60_000 }, () => {
  it("creates no session row for 50 cookie-less requests of each dashboard page a visitor reaches", async () => {
    const before = await sessionRows();
    const paths = ["/dashboard", "/dashboard/sign-in", "/dashboard/shipments", "/dashboard/invitations/nope"];
    for (const path of paths) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => fetch(`${app.url}${path}`, { redirect: "manual" })),
      );
      for (const res of answers) {
        expect(res.status, path).toBeLessThan(500);
        // No session cookie for a visitor; only the form's double-submit cookie.
        expect(
          res.headers.getSetCookie().some((c) => c.startsWith("quayside_session=")),
          path,
        ).toBe(false);
        await res.body?.cancel();
      }
    }
    expect(await sessionRows()).toBe(before);
  });

  it("gives the sign-in form a token equal to an HttpOnly, SameSite=Strict cookie, and keeps it", async () => {
    const first = await visit(freshAddress());
    expect(first.setCookies).toEqual([
      expect.stringMatching(/^quayside_csrf=[\w-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict$/),
    ]);
    expect(first.cookie).toBe(`quayside_csrf=${first.token}`);
    // A browser that already holds the cookie gets the same token and no new cookie.
    const again = await fetch(`${app.url}/dashboard/sign-in`, { headers: { cookie: first.cookie } });
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toContain(`name="_csrf" value="${first.token}"`);
    // Two visitors never share a token.
    expect((await visit(freshAddress())).token).not.toBe(first.token);
  });

  it("signs in with the token and stores exactly one session, with a new id whatever id was planted", async () => {
    const email = await person();
    const before = await sessionRows();
    const from = freshAddress();
    const { cookie, token } = await visit(from);
    const planted = "attacker-chosen-session-id-000000000000000";
    const res = await postSignIn(
      { _csrf: token, email, password: PASSWORD },
      { ...from, cookie: `${cookie}; quayside_session=${planted}` },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    const session = res.headers.getSetCookie().find((c) => c.startsWith("quayside_session="))!;
    expect(session).toMatch(/^quayside_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Expires=/);
    expect(session).not.toContain(planted);
    expect(await sessionRows()).toBe(before + 1);
    const overview = await fetch(`${app.url}/dashboard`, { headers: { cookie: session.split(";")[0]! } });
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain("<h1>Overview</h1>");
  });

  it("refuses a forged, missing or another visitor's token with 403, signing nobody in", async () => {
    const email = await person();
    const before = await sessionRows();
    const from = freshAddress();
    const mine = await visit(from);
    const theirs = await visit(freshAddress());
    const attempts: [string, Record<string, string>, Record<string, string>][] = [
      ["a made-up token", { _csrf: "x".repeat(43) }, { cookie: mine.cookie }],
      ["no token", {}, { cookie: mine.cookie }],
      ["an empty token and no cookie", { _csrf: "" }, {}],
      ["the right token without its cookie", { _csrf: mine.token }, {}],
      ["another visitor's token", { _csrf: theirs.token }, { cookie: mine.cookie }],
      ["a token matching a cookie the form never issued", { _csrf: "" }, { cookie: "quayside_csrf=" }],
    ];
    for (const [label, form, headers] of attempts) {
      const res = await postSignIn({ ...form, email, password: PASSWORD }, { ...from, ...headers });
      expect(res.status, label).toBe(403);
      expect(
        res.headers.getSetCookie().some((c) => c.startsWith("quayside_session=")),
        label,
      ).toBe(false);
      expect(await res.text(), label).toContain("Request refused");
    }
    expect(await sessionRows()).toBe(before);
  });

  it("keeps the token across a wrong password, so the next try from the same page works", async () => {
    const email = await person();
    const from = freshAddress();
    const { cookie, token } = await visit(from);
    const wrong = await postSignIn(
      { _csrf: token, email, password: "not-the-password" },
      { ...from, cookie },
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(`name="_csrf" value="${token}"`);
    const right = await postSignIn({ _csrf: token, email, password: PASSWORD }, { ...from, cookie });
    expect(right.status).toBe(303);
  });
});

describe("failed sign-ins per account (item 10)", { timeout: 120_000 }, () => {
  it("refuses many addresses guessing one account after the account's limit, even the right password", async () => {
    const email = await person();
    expect(ACCOUNT_FAILURES_BEFORE_LOCK).toBeLessThan(SIGN_IN_FAILURES_PER_WINDOW);
    // Each guess from its own address: the per-address limit alone would never stop this.
    for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_LOCK; n++) {
      expect((await signIn(email, `guess-${n}-password`)).status).toBe(401);
    }
    for (const password of ["guess-x-password", PASSWORD]) {
      const refused = await signIn(email, password);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe(String(accountLockMs(1) / 1000));
      const page = await refused.text();
      expect(page).toContain("Too many failed sign-ins to this account. Try again in 1 minute.");
      expect(refused.headers.getSetCookie().some((c) => c.startsWith("quayside_session="))).toBe(false);
    }
    // Another account is not affected.
    expect((await signIn(await person(), PASSWORD)).status).toBe(303);
  });

  it("lets the owner sign in with the right password once the short lock is over", async () => {
    const email = await person();
    for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_LOCK; n++) await signIn(email, `guess-${n}-password`);
    expect((await signIn(email, PASSWORD)).status).toBe(429);
    clock.advance(accountLockMs(1) - 1_000);
    const almost = await signIn(email, PASSWORD);
    expect(almost.status).toBe(429);
    expect(almost.headers.get("retry-after")).toBe("1");
    clock.advance(1_000);
    const owner = await signIn(email, PASSWORD);
    expect(owner.status).toBe(303);
    expect(owner.headers.get("location")).toBe("/dashboard");
  });

  it("doubles the lock for each further lock, and never locks longer than a quarter of an hour", async () => {
    const email = await person();
    const locks: number[] = [];
    for (let lock = 1; lock <= 6; lock++) {
      for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_LOCK; n++) {
        expect((await signIn(email, `guess-${lock}-${n}-password`)).status).toBe(401);
      }
      const refused = await signIn(email, PASSWORD);
      expect(refused.status).toBe(429);
      locks.push(Number(refused.headers.get("retry-after")));
      clock.advance(Number(refused.headers.get("retry-after")) * 1000);
    }
    expect(locks).toEqual([60, 120, 240, 480, 900, 900]);
    expect(Math.max(...locks) * 1000).toBe(ACCOUNT_LONGEST_LOCK_MS);
    // After the last lock the owner signs in.
    expect((await signIn(email, PASSWORD)).status).toBe(303);
  });

  it("locks an address nobody has exactly like a real account, so a lock tells nobody who exists", async () => {
    const nobody = `nobody-${addressCounter}@example.com`;
    for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_LOCK; n++) {
      expect((await signIn(nobody, `guess-${n}-password`)).status).toBe(401);
    }
    const refused = await signIn(` ${nobody.toUpperCase()} `, PASSWORD);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many failed sign-ins to this account.");
  });

  it("forgets failures a quarter of an hour after the first, so a few typos never add up to a lock", async () => {
    const email = await person();
    for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_LOCK - 1; n++) await signIn(email, `typo-${n}-password`);
    clock.advance(15 * 60 * 1000);
    for (let n = 0; n < ACCOUNT_FAILURES_BEFORE_LOCK - 1; n++) {
      expect((await signIn(email, `typo-again-${n}-password`)).status).toBe(401);
    }
    expect((await signIn(email, PASSWORD)).status).toBe(303);
  });

  it("keeps the per-address limit: one address is refused after its own failures, for any account", async () => {
    const from = freshAddress();
    for (let n = 0; n < SIGN_IN_FAILURES_PER_WINDOW; n++) {
      // A different account each time, so no account lock is reached.
      expect(
        (await signIn(`spray-${n}-${addressCounter}@example.com`, "wrong-password-1", from)).status,
      ).toBe(401);
    }
    const refused = await signIn(await person(), PASSWORD, from);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many failed sign-ins from this address.");
  });
});
