import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Principal } from "../domain/accounts/principal";
import type { PeopleService } from "../domain/people/people.service";
import { closeIfBodyUnread } from "./connections";
import { type AdmissionGate, clientAddress } from "./gate";
import type { OutcomeCode } from "./outcomes";

/** The dashboard's session cookie. HttpOnly, SameSite=Lax, Secure whenever the request came over TLS. */
export const SESSION_COOKIE = "quayside_session";
/** The header that carries the CSRF token on htmx requests and on /graphql from the browser. */
export const CSRF_HEADER = "x-csrf-token";

export interface BrowserSession {
  rawId: string;
  csrfToken: string;
  principal: Principal | null;
}

export type SignInOutcome =
  | { ok: true; session: BrowserSession }
  | { ok: false; refusal: "wrong_credentials" | "throttled"; retryAfterSeconds?: number };

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
  if (typeof a !== "string") return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Browser sessions for the dashboard: what a facade may ask about people (read the session, sign in
 * and out), as the AdmissionGate is for keys. The cookie carries a random id; the database holds its
 * hash, the user and the session's CSRF token (synchronizer token pattern).
 */
export class SessionGate {
  constructor(private readonly people: PeopleService) {}

  async read(req: Request): Promise<BrowserSession | null> {
    const rawId = readCookie(req, SESSION_COOKIE);
    const resolved = rawId ? await this.people.resolve(rawId) : null;
    return resolved && rawId ? { rawId, ...resolved } : null;
  }

  /** The session, or a new visitor's session (its cookie set) so a form can carry a CSRF token. */
  async readOrOpen(req: Request, res: Response): Promise<BrowserSession> {
    const existing = await this.read(req);
    if (existing) return existing;
    const opened = await this.people.openVisitorSession();
    setSessionCookie(req, res, opened.rawId, opened.expiresAt);
    return { rawId: opened.rawId, csrfToken: opened.csrfToken, principal: null };
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
