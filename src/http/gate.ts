import type { Request, Response } from "express";
import type { KeyRefusal } from "../domain/accounts/accounts.service";
import type { Principal } from "../domain/accounts/principal";
import { MINUTE_MS, type WindowDecision } from "../domain/limits/fixed-window";
import {
  keyRateWindow,
  organizationRateWindow,
  type RateWindow,
  tighterWindow,
} from "../domain/limits/rate-windows";
import type { Services } from "../services";
import { bearerChallenge, type OutcomeCode } from "./outcomes";

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

const failuresSubject = (req: Request) => `auth-failures:${clientAddress(req)}`;
const keylessSubject = (req: Request) => `keyless:${clientAddress(req)}`;

/**
 * Rate headers for a refusal decided before any key is read (a wrong verb, a refused Origin): the
 * address's failed-authentication window, read and not spent.
 */
export async function setUnauthenticatedRateHeaders(
  services: Services,
  req: Request,
  res: Response,
): Promise<void> {
  setRateHeaders(
    res,
    await services.limiter.peek(failuresSubject(req), services.config.authFailuresPerMinute, MINUTE_MS),
  );
}

export async function admit(
  services: Services,
  req: Request,
  res: Response,
  options: GateOptions,
): Promise<Admission> {
  const rawKey = extractKey(req, options.allowQueryKey);
  const authentication = await services.accounts.authenticate(rawKey);
  if (!authentication.ok && authentication.refusal !== "developer_mode_off") {
    return refuseUnauthenticated(services, req, res, authentication.refusal, options);
  }

  const principal = authentication.principal;
  const refusedForDeveloperMode = !authentication.ok && !options.allowDeveloperModeOff;
  // A refusal spends one request, not a batch's size: the batch will not run.
  const cost = refusedForDeveloperMode ? 1 : (options.cost ?? 1);
  const spent = await spendWindows(services, principal, cost);
  setRateHeaders(res, spent.rate);
  if (spent.outcome) {
    res.setHeader("Retry-After", String(spent.rate.retryAfterSeconds));
    return { ok: false, outcome: spent.outcome, principal, rate: spent.rate };
  }
  if (refusedForDeveloperMode) {
    return { ok: false, outcome: "developer_mode_off", principal, rate: spent.rate };
  }
  return { ok: true, principal, rate: spent.rate };
}

/**
 * The rest of an admitted request's cost, once its size is known (an MCP batch is admitted for one
 * request before its body is read, then costs one request per message). Refused, the rest is given
 * back at once: the request keeps only the one its admission spent, like every refused answer.
 */
export async function spendRest(
  services: Services,
  res: Response,
  admission: Extract<Admission, { ok: true }>,
  extra: number,
): Promise<Admission> {
  if (extra <= 0) return admission;
  const { principal } = admission;
  const spent = await spendWindows(services, principal, extra, 0);
  setRateHeaders(res, spent.rate);
  if (spent.outcome) {
    res.setHeader("Retry-After", String(spent.rate.retryAfterSeconds));
    return { ok: false, outcome: spent.outcome, principal, rate: spent.rate };
  }
  return { ok: true, principal, rate: spent.rate };
}

/**
 * Spends `cost` from the key's window, then from the organisation's (a multiple of the per-key
 * window). A request the key's own window refuses never reaches the organisation's, so one key
 * running into its limit cannot use up its teammates' minute. A refused request keeps one request
 * spent, like every refused answer, and gets the rest of a batch's cost back at once. The window
 * reported is the tighter of the two: the key's, unless the organisation has less left.
 */
async function spendWindows(
  services: Services,
  principal: Principal,
  cost: number,
  keptOnRefusal = 1,
): Promise<{ rate: WindowDecision; outcome?: "rate_limited" | "organization_rate_limited" }> {
  const { limiter } = services;
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
 * Refuses a request whose key did not authenticate. What it spends depends on what was sent:
 * - a key that exists nowhere is what a guesser sends: it spends from the address's failure window,
 *   and past it the answer is 429 `auth_throttled` instead of 401;
 * - no key at all is no attack (RFC 6750 section 3.1), but not free either: it spends from the
 *   address's keyless window, and past it the answer is 429 `keyless_throttled`. A CORS preflight
 *   (OPTIONS) never carries credentials and spends nothing;
 * - a revoked or expired key exists, so it is not a guess: it spends nothing and keeps its own 401.
 * None of these windows is ever consulted for a key that authenticates.
 */
async function refuseUnauthenticated(
  services: Services,
  req: Request,
  res: Response,
  refusal: Exclude<KeyRefusal, "developer_mode_off">,
  options: GateOptions,
): Promise<Admission> {
  const { limiter, config } = services;
  let outcome: OutcomeCode = refusal;
  let rate: WindowDecision;
  if (refusal === "invalid_key") {
    rate = await limiter.consume(failuresSubject(req), config.authFailuresPerMinute, MINUTE_MS);
    if (!rate.allowed) outcome = "auth_throttled";
  } else if (refusal === "missing_key") {
    const subject = keylessSubject(req);
    rate =
      req.method === "OPTIONS"
        ? await limiter.peek(subject, config.keylessPerMinute, MINUTE_MS)
        : await limiter.consume(subject, config.keylessPerMinute, MINUTE_MS);
    if (!rate.allowed && req.method !== "OPTIONS") outcome = "keyless_throttled";
  } else {
    rate = await limiter.peek(failuresSubject(req), config.authFailuresPerMinute, MINUTE_MS);
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
