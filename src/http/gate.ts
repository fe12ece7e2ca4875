import type { Request, RequestHandler, Response } from "express";
import type { AccountsService, Authentication, KeyRefusal } from "../domain/accounts/accounts.service";
import type { Principal } from "../domain/accounts/principal";
import { type FixedWindowLimiter, MINUTE_MS, type WindowDecision } from "../domain/limits/fixed-window";
import {
  keyRateWindow,
  organizationRateWindow,
  type RateWindow,
  tighterWindow,
} from "../domain/limits/rate-windows";
import type { Clock } from "../lib/clock";
import { closeIfBodyUnread } from "./connections";
import { bearerChallenge, type OutcomeCode } from "./outcomes";

/** Who a key says the caller is, and a rate window's state: the types a facade renders refusals from. */
export type { Principal, WindowDecision };

/**
 * Admission for every authenticated surface: authenticate the key, then spend from the key's
 * one-minute window and from its organisation's. The key is authenticated before anything about the
 * client's address is consulted, so a key that authenticates is never refused for what others sent
 * from the same address (behind a proxy every tenant shares one). Only failures are throttled, per
 * address. The rate headers are set here so that every surface sends the same ones on every answer.
 */
export type Admission =
  | { ok: true; principal: Principal; rate: WindowDecision }
  | { ok: false; outcome: OutcomeCode; principal?: Principal; rate?: WindowDecision };

export interface GateOptions {
  /** Only the compatibility API accepts `?api_key=` (it is the third-party contract). */
  allowQueryKey: boolean;
  /** The dashboard API lets developer-mode-off keys in so developer mode can be switched on. */
  allowDeveloperModeOff?: boolean;
  /** Requests to spend (an MCP batch may spend more than one). */
  cost?: number;
  /**
   * Whether a 401 carries `WWW-Authenticate` (true unless said otherwise). The compatibility API
   * answers every refusal with HTTP 200, where a challenge means nothing.
   */
  challenge?: boolean;
}

export function extractKey(req: Request, allowQueryKey: boolean): string | undefined {
  const authorization = req.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    return match ? match[1]!.trim() : authorization.trim();
  }
  const header = req.get("x-api-key");
  if (header !== undefined) return header.trim();
  if (allowQueryKey) {
    const value = req.query.api_key;
    if (typeof value === "string") return value.trim();
    if (Array.isArray(value)) return ""; // ambiguous: refuse rather than guess which one was meant
  }
  return undefined;
}

export function setRateHeaders(res: Response, rate: WindowDecision): void {
  res.setHeader("X-RateLimit-Limit", String(rate.limit));
  res.setHeader("X-RateLimit-Remaining", String(rate.remaining));
  res.setHeader("X-RateLimit-Reset", String(rate.resetAt));
}

/** The client's address as the app sees it (the proxy's client address when trust proxy is on). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * Requests a minute to one partner source's inbound webhook: a batch holds up to 100 events, so this
 * is up to 12,000 events a minute per source, the requests of the largest plan's key window.
 */
export const PARTNER_INBOUND_PER_MINUTE = 120;

const failuresSubject = (req: Request) => `auth-failures:${clientAddress(req)}`;
const keylessSubject = (req: Request) => `keyless:${clientAddress(req)}`;

/** What spending a request from the key's and the organisation's windows came to. */
type SpentWindows = { rate: WindowDecision; outcome?: "rate_limited" | "organization_rate_limited" };

/** What the gate reads and spends from, handed over by the composition root. */
export interface GateDeps {
  accounts: AccountsService;
  limiter: FixedWindowLimiter;
  clock: Clock;
  /** Failed authentications per minute per address (past it: `auth_throttled`). */
  authFailuresPerMinute: number;
  /** Requests without a key per minute per address (past it: `keyless_throttled`). */
  keylessPerMinute: number;
}

/** A per-address window of a keyless surface: its name (the counter's subject) and size. */
export interface AddressWindow {
  name: string;
  perMinute: number;
}

/**
 * The gate of every surface: what a facade may ask of keys and rate windows, and nothing else (no
 * limiter, no accounts service reaches a facade). Every answer it decides carries the rate headers.
 */
export class AdmissionGate {
  constructor(private readonly deps: GateDeps) {}

  /**
   * Rate headers for a refusal decided before any key is read (a wrong verb, a refused Origin): the
   * address's failed-authentication window, read and not spent.
   */
  async setUnauthenticatedRateHeaders(req: Request, res: Response): Promise<void> {
    setRateHeaders(res, await this.deps.limiter.peek(failuresSubject(req), this.deps.authFailuresPerMinute));
  }

  async admit(req: Request, res: Response, options: GateOptions): Promise<Admission> {
    return this.admitNow(req, res, options);
  }

  /**
   * `admit`, decided in the same tick when nothing it needs is a round trip: the key in the key cache
   * and the windows in this process's memory (the hot path of every request: no promise per layer).
   * Otherwise a promise of the same decision. Same checks, spending, headers and order either way.
   */
  admitNow(req: Request, res: Response, options: GateOptions): Admission | Promise<Admission> {
    const rawKey = extractKey(req, options.allowQueryKey);
    const { accounts } = this.deps;
    const known = accounts.authenticateKnown(rawKey);
    if (known === undefined) {
      return accounts
        .authenticateLookedUp(rawKey!)
        .then((authentication) => this.admitAuthenticated(req, res, options, authentication));
    }
    return this.admitAuthenticated(req, res, options, known);
  }

  private admitAuthenticated(
    req: Request,
    res: Response,
    options: GateOptions,
    authentication: Authentication,
  ): Admission | Promise<Admission> {
    if (!authentication.ok && authentication.refusal !== "developer_mode_off") {
      return this.refuseUnauthenticated(req, res, authentication.refusal, options);
    }

    const principal = authentication.principal;
    const refusedForDeveloperMode = !authentication.ok && !options.allowDeveloperModeOff;
    // A refusal spends one request, not a batch's size: the batch will not run.
    const cost = refusedForDeveloperMode ? 1 : (options.cost ?? 1);
    const settle = (spent: SpentWindows): Admission => {
      setRateHeaders(res, spent.rate);
      if (spent.outcome) {
        res.setHeader("Retry-After", String(spent.rate.retryAfterSeconds));
        return { ok: false, outcome: spent.outcome, principal, rate: spent.rate };
      }
      if (refusedForDeveloperMode) {
        return { ok: false, outcome: "developer_mode_off", principal, rate: spent.rate };
      }
      return { ok: true, principal, rate: spent.rate };
    };
    const spent = this.spendWindowsNow(principal, cost) ?? this.spendWindows(principal, cost);
    return spent instanceof Promise ? spent.then(settle) : settle(spent);
  }

  /**
   * Admission of a caller already authenticated another way (a person's dashboard session): the same
   * rate windows as a key, counted against the person.
   */
  async admitPrincipal(res: Response, principal: Principal): Promise<Admission> {
    const spent = await this.spendWindows(principal, 1);
    setRateHeaders(res, spent.rate);
    if (spent.outcome) {
      res.setHeader("Retry-After", String(spent.rate.retryAfterSeconds));
      return { ok: false, outcome: spent.outcome, principal, rate: spent.rate };
    }
    return { ok: true, principal, rate: spent.rate };
  }

  /**
   * The rest of an admitted request's cost, once its size is known (an MCP batch is admitted for one
   * request before its body is read, then costs one request per message). Refused, the rest is given
   * back at once: the request keeps only the one its admission spent, like every refused answer.
   */
  async spendRest(
    res: Response,
    admission: Extract<Admission, { ok: true }>,
    extra: number,
  ): Promise<Admission> {
    if (extra <= 0) return admission;
    const { principal } = admission;
    const spent = await this.spendWindows(principal, extra, 0);
    setRateHeaders(res, spent.rate);
    if (spent.outcome) {
      res.setHeader("Retry-After", String(spent.rate.retryAfterSeconds));
      return { ok: false, outcome: spent.outcome, principal, rate: spent.rate };
    }
    return { ok: true, principal, rate: spent.rate };
  }

  /**
   * Spends one request from the client address's own window of a keyless surface (the sandbox), with
   * the rate headers, and `Retry-After` when the window is spent.
   */
  async spendAddressWindow(req: Request, res: Response, window: AddressWindow): Promise<WindowDecision> {
    const rate = await this.deps.limiter.consume(`${window.name}:${clientAddress(req)}`, window.perMinute);
    setRateHeaders(res, rate);
    if (!rate.allowed) res.setHeader("Retry-After", String(rate.retryAfterSeconds));
    return rate;
  }

  /**
   * Spends one request from a partner source's inbound webhook window (issue 41): per source, whoever
   * sends, before the signature is checked, so a flood of requests (forged or a partner's runaway
   * retry loop) costs one counter each, never an HMAC and a database read. Sets the rate headers, and
   * `Retry-After` when the window is spent.
   */
  async spendPartnerInboundWindow(res: Response, sourceId: string): Promise<WindowDecision> {
    const rate = await this.deps.limiter.consume(`partner-inbound:${sourceId}`, PARTNER_INBOUND_PER_MINUTE);
    setRateHeaders(res, rate);
    if (!rate.allowed) res.setHeader("Retry-After", String(rate.retryAfterSeconds));
    return rate;
  }

  /**
   * The refusal of a key whose minute window is spent, as production answers it now, without
   * spending anything: the sandbox's reserved 429 reference shows it. Sets the rate headers and
   * `Retry-After` (the end of the current minute).
   */
  spentKeyWindow(res: Response, principal: Principal): Extract<Admission, { ok: false }> {
    const now = this.deps.clock.now().getTime();
    const resetAt = Math.ceil((now + 1) / MINUTE_MS) * (MINUTE_MS / 1000);
    const rate: WindowDecision = {
      allowed: false,
      limit: principal.plan.ratePerMinute,
      remaining: 0,
      resetAt,
      retryAfterSeconds: Math.max(1, resetAt - Math.floor(now / 1000)),
    };
    setRateHeaders(res, rate);
    res.setHeader("Retry-After", String(rate.retryAfterSeconds));
    return { ok: false, outcome: "rate_limited", principal, rate };
  }

  /**
   * Spends `cost` from the key's window, then from the organisation's (a multiple of the per-key
   * window). A request the key's own window refuses never reaches the organisation's, so one key
   * running into its limit cannot use up its teammates' minute. A refused request keeps one request
   * spent, like every refused answer, and gets the rest of a batch's cost back at once. The window
   * reported is the tighter of the two: the key's, unless the organisation has less left.
   */
  private async spendWindows(principal: Principal, cost: number, keptOnRefusal = 1): Promise<SpentWindows> {
    const { limiter } = this.deps;
    const keyWindow = keyRateWindow(principal);
    const orgWindow = organizationRateWindow(principal);
    const refund = (window: RateWindow) =>
      limiter.consume(window.subject, window.limit, MINUTE_MS, -(cost - keptOnRefusal));

    const key = await limiter.consume(keyWindow.subject, keyWindow.limit, MINUTE_MS, cost);
    if (!key.allowed) {
      const rate = cost > keptOnRefusal ? await refund(keyWindow) : key;
      return { rate: { ...rate, allowed: false }, outcome: "rate_limited" };
    }
    const organization = await limiter.consume(orgWindow.subject, orgWindow.limit, MINUTE_MS, cost);
    if (!organization.allowed) {
      const rate =
        cost > keptOnRefusal ? (await Promise.all([refund(orgWindow), refund(keyWindow)]))[0]! : organization;
      return { rate: { ...rate, allowed: false }, outcome: "organization_rate_limited" };
    }
    return { rate: tighterWindow(key, organization) };
  }

  /**
   * `spendWindows` in the same tick when the windows are counted in this process's memory (undefined
   * when they are shared: the caller awaits `spendWindows`). The same steps in the same order.
   */
  private spendWindowsNow(principal: Principal, cost: number, keptOnRefusal = 1): SpentWindows | undefined {
    const { limiter } = this.deps;
    const keyWindow = keyRateWindow(principal);
    const key = limiter.consumeNow(keyWindow.subject, keyWindow.limit, MINUTE_MS, cost);
    if (key === undefined) return undefined;
    // The same store as the key's window: counted in memory too, so every call below answers now.
    const now = (window: RateWindow, amount: number) =>
      limiter.consumeNow(window.subject, window.limit, MINUTE_MS, amount)!;
    if (!key.allowed) {
      const rate = cost > keptOnRefusal ? now(keyWindow, -(cost - keptOnRefusal)) : key;
      return { rate: { ...rate, allowed: false }, outcome: "rate_limited" };
    }
    const orgWindow = organizationRateWindow(principal);
    const organization = now(orgWindow, cost);
    if (!organization.allowed) {
      let rate = organization;
      if (cost > keptOnRefusal) {
        rate = now(orgWindow, -(cost - keptOnRefusal));
        now(keyWindow, -(cost - keptOnRefusal));
      }
      return { rate: { ...rate, allowed: false }, outcome: "organization_rate_limited" };
    }
    return { rate: tighterWindow(key, organization) };
  }

  /**
   * Refuses a request whose key did not authenticate. What it spends depends on what was sent:
   * - a key that exists nowhere is what a guesser sends: it spends from the address's failure window,
   *   and past it the answer is 429 `auth_throttled` instead of 401;
   * - no key at all is no attack (RFC 6750 section 3.1), but not free either: it spends from the
   *   address's keyless window, and past it the answer is 429 `keyless_throttled`. A CORS preflight
   *   (OPTIONS) never carries credentials and spends nothing;
   * - a revoked or expired key exists, so it is not a guess: it spends nothing and keeps its own 401.
   * None of these windows is ever consulted for a key that authenticates.
   */
  private async refuseUnauthenticated(
    req: Request,
    res: Response,
    refusal: Exclude<KeyRefusal, "developer_mode_off">,
    options: GateOptions,
  ): Promise<Admission> {
    const { limiter, authFailuresPerMinute, keylessPerMinute } = this.deps;
    let outcome: OutcomeCode = refusal;
    let rate: WindowDecision;
    if (refusal === "invalid_key") {
      rate = await limiter.consume(failuresSubject(req), authFailuresPerMinute, MINUTE_MS);
      if (!rate.allowed) outcome = "auth_throttled";
    } else if (refusal === "missing_key") {
      const subject = keylessSubject(req);
      rate =
        req.method === "OPTIONS"
          ? await limiter.peek(subject, keylessPerMinute, MINUTE_MS)
          : await limiter.consume(subject, keylessPerMinute, MINUTE_MS);
      if (!rate.allowed && req.method !== "OPTIONS") outcome = "keyless_throttled";
    } else {
      rate = await limiter.peek(failuresSubject(req), authFailuresPerMinute, MINUTE_MS);
    }
    setRateHeaders(res, rate);
    if (outcome === "auth_throttled" || outcome === "keyless_throttled") {
      res.setHeader("Retry-After", String(rate.retryAfterSeconds));
    } else if (options.challenge !== false) {
      const challenge = bearerChallenge(outcome);
      if (challenge) res.setHeader("WWW-Authenticate", challenge);
    }
    return { ok: false, outcome, rate };
  }
}

declare module "express-serve-static-core" {
  interface Request {
    /** Set by the gate once the key authenticated (the sandbox sets its world's). */
    principal?: Principal;
  }
}

/** Admission as middleware: refused requests are answered by `refuse` and never reach a route. */
export function guard(
  admission: AdmissionGate,
  options: GateOptions,
  refuse: (res: Response, refusal: Extract<Admission, { ok: false }>) => void,
): RequestHandler {
  return (req, res, next) => {
    // Already admitted as a person (a dashboard session on /graphql).
    if (req.principal) return next();
    const proceed = (decision: Admission) => {
      if (!decision.ok) {
        closeIfBodyUnread(req, res);
        return refuse(res, decision);
      }
      req.principal = decision.principal;
      next();
    };
    // Decided in this tick on the hot path (a cached key, windows in memory): no promise to wait on.
    const decision = admission.admitNow(req, res, options);
    if (decision instanceof Promise) decision.then(proceed, next);
    else proceed(decision);
  };
}
