import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Principal } from "../domain/accounts/principal";
import type { PeopleService, SignInThrottle } from "../domain/people/people.service";
import { closeIfBodyUnread } from "./connections";
import { type AdmissionGate, clientAddress } from "./gate";
import type { OutcomeCode } from "./outcomes";

/** The dashboard's session cookie. HttpOnly, SameSite=Lax, Secure whenever the request came over TLS. */
export const SESSION_COOKIE = "quayside_session";
/** The header that carries the CSRF token on htmx requests and on /graphql from the browser. */
export const CSRF_HEADER = "x-csrf-token";
/**
 * A visitor's CSRF token (the sign-in and invitation forms): a random value in this cookie, which
 * the form must send back (double submit). Nothing is stored on the server until a person signs in.
 */
export const VISITOR_CSRF_COOKIE = "quayside_csrf";
/** 32 random bytes in base64url, as every token we issue. */
const TOKEN_SHAPE = /^[\w-]{43}$/;

export interface BrowserSession {
  /** The session cookie's id; null for a visitor, who has no stored session. */
  rawId: string | null;
  csrfToken: string;
  principal: Principal | null;
}

export type SignInOutcome =
  | { ok: true; session: BrowserSession }
  | { ok: false; refusal: "wrong_credentials" }
  | { ok: false; refusal: "throttled"; throttle: SignInThrottle; retryAfterSeconds: number };

function readCookie(req: Request, name: string): string | undefined {
  const header = req.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

function setSessionCookie(req: Request, res: Response, rawId: string, expiresAt: Date | null): void {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax"];
  // Behind a TLS-terminating proxy req.secure is true only with trust proxy (QUAYSIDE_TRUST_PROXY).
  if (req.secure) attributes.push("Secure");
  attributes.push(expiresAt ? `Expires=${expiresAt.toUTCString()}` : "Max-Age=0");
  res.append("Set-Cookie", `${SESSION_COOKIE}=${expiresAt ? rawId : ""}; ${attributes.join("; ")}`);
}

export function sameToken(a: string | undefined, b: string): boolean {
  // An empty expected token (none issued) never matches, not even an empty one sent.
  if (typeof a !== "string" || b.length === 0) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The visitor's CSRF token from its cookie, or a new one set in the cookie. HttpOnly (the page gets
 * the token in the form, never from script) and SameSite=Strict: a cross-site request does not even
 * carry it, and a forged form cannot know it.
 */
function visitorCsrfToken(req: Request, res: Response): string {
  const sent = readCookie(req, VISITOR_CSRF_COOKIE);
  if (sent && TOKEN_SHAPE.test(sent)) return sent;
  const token = randomBytes(32).toString("base64url");
  const attributes = ["Path=/dashboard", "HttpOnly", "SameSite=Strict"];
  if (req.secure) attributes.push("Secure");
  res.append("Set-Cookie", `${VISITOR_CSRF_COOKIE}=${token}; ${attributes.join("; ")}`);
  return token;
}

/**
 * Browser sessions for the dashboard: what a facade may ask about people (read the session, sign in
 * and out), as the AdmissionGate is for keys. The cookie carries a random id; the database holds its
 * hash, the user and the session's CSRF token (synchronizer token pattern). A visitor who has not
 * signed in has no stored session: their forms carry a double-submit token from a cookie, so
 * anonymous requests cost no row (issue 39 item 2).
 */
export class SessionGate {
  constructor(private readonly people: PeopleService) {}

  async read(req: Request): Promise<BrowserSession | null> {
    const rawId = readCookie(req, SESSION_COOKIE);
    const resolved = rawId ? await this.people.resolve(rawId) : null;
    return resolved && rawId ? { rawId, ...resolved } : null;
  }

  /**
   * The stored session, or a visitor without one whose CSRF token is the double-submit cookie's
   * (set when the browser has none), so a form can carry it. Stores nothing.
   */
  async readOrVisit(req: Request, res: Response): Promise<BrowserSession> {
    const existing = await this.read(req);
    if (existing) return existing;
    return { rawId: null, csrfToken: visitorCsrfToken(req, res), principal: null };
  }

  /** Signs in, replacing whatever session the browser had with a new id. */
  async signIn(req: Request, res: Response, email: string, password: string): Promise<SignInOutcome> {
    const result = await this.people.signIn({
      email,
      password,
      address: clientAddress(req),
      previousRawId: readCookie(req, SESSION_COOKIE),
    });
    if (!result.ok) return result;
    setSessionCookie(req, res, result.session.rawId, result.session.expiresAt);
    return {
      ok: true,
      session: {
        rawId: result.session.rawId,
        csrfToken: result.session.csrfToken,
        principal: result.principal,
      },
    };
  }

  async signOut(req: Request, res: Response): Promise<void> {
    const rawId = readCookie(req, SESSION_COOKIE);
    if (rawId) await this.people.signOut(rawId);
    setSessionCookie(req, res, "", null);
  }

  /**
   * A safe read from the browser (a document's download link on the dashboard): a GET without a key
   * but with a signed-in session cookie acts as that person, through the same windows as every call.
   * No CSRF token is asked: the answer is an attachment another site cannot read, and nothing
   * changes. Requests with a key, or without a session, go on to the key gate unchanged.
   */
  readSessions(
    admission: AdmissionGate,
    refuse: (res: Response, outcome: OutcomeCode) => void,
  ): RequestHandler {
    return (req, res, next) => {
      if (
        (req.method !== "GET" && req.method !== "HEAD") ||
        req.get("authorization") ||
        req.get("x-api-key") !== undefined
      )
        return next();
      this.read(req).then(async (session) => {
        if (!session?.principal) return next();
        const admitted = await admission.admitPrincipal(res, session.principal);
        if (!admitted.ok) return refuse(res, admitted.outcome);
        req.principal = session.principal;
        next();
      }, next);
    };
  }

  /**
   * /graphql from the browser: a request without a key but with a signed-in session cookie acts as
   * that person, only with the session's CSRF token in X-CSRF-Token (a cross-site page cannot read
   * it, and cannot set the header without a preflight CORS refuses). Requests with a key, or without
   * a session, go on to the key gate unchanged.
   */
  graphqlSessions(
    admission: AdmissionGate,
    refuse: (res: Response, outcome: OutcomeCode) => void,
  ): RequestHandler {
    return (req, res, next) => {
      if (req.method === "OPTIONS" || req.get("authorization") || req.get("x-api-key") !== undefined)
        return next();
      this.read(req).then(async (session) => {
        if (!session?.principal) return next();
        if (!sameToken(req.get(CSRF_HEADER), session.csrfToken)) {
          closeIfBodyUnread(req, res);
          return refuse(res, "csrf_token_invalid");
        }
        const admitted = await admission.admitPrincipal(res, session.principal);
        if (!admitted.ok) {
          closeIfBodyUnread(req, res);
          return refuse(res, admitted.outcome);
        }
        req.principal = session.principal;
        next();
      }, next);
    };
  }
}
