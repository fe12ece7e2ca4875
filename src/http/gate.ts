import type { Request, Response } from "express";
import type { Principal } from "../domain/accounts/principal";
import { MINUTE_MS, type WindowDecision } from "../domain/limits/fixed-window";
import type { Services } from "../services";
import type { OutcomeCode } from "./outcomes";

/**
 * Admission for every authenticated surface: find the key, refuse addresses that keep failing,
 * authenticate, then spend one request from the key's one-minute window. The rate headers are set
 * here so that every surface sends the same ones on every answer, success or refusal.
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

export async function admit(
  services: Services,
  req: Request,
  res: Response,
  options: GateOptions,
): Promise<Admission> {
  const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
  const failuresSubject = `auth-failures:${address}`;
  const failureLimit = services.config.authFailuresPerMinute;
  const failures = await services.limiter.peek(failuresSubject, failureLimit, MINUTE_MS);
  if (!failures.allowed) {
    setRateHeaders(res, failures);
    res.setHeader("Retry-After", String(failures.retryAfterSeconds));
    return { ok: false, outcome: "auth_throttled", rate: failures };
  }

  const rawKey = extractKey(req, options.allowQueryKey);
  const authentication = await services.accounts.authenticate(rawKey);
  if (!authentication.ok && authentication.refusal !== "developer_mode_off") {
    // Unauthenticated answers report the address's failure window, the only window that applies.
    const spent = await services.limiter.consume(failuresSubject, failureLimit, MINUTE_MS);
    setRateHeaders(res, spent);
    return { ok: false, outcome: authentication.refusal };
  }

  // With developer mode off the key is still good, so its refusal spends from its window like any answer.
  const principal = authentication.principal;
  const rate = await services.limiter.consume(
    `key:${principal.apiKey.id}`,
    principal.plan.ratePerMinute,
    MINUTE_MS,
    options.cost ?? 1,
  );
  setRateHeaders(res, rate);
  if (!rate.allowed) {
    res.setHeader("Retry-After", String(rate.retryAfterSeconds));
    return { ok: false, outcome: "rate_limited", principal, rate };
  }
  if (!authentication.ok && !options.allowDeveloperModeOff) {
    return { ok: false, outcome: "developer_mode_off", principal, rate };
  }
  return { ok: true, principal, rate };
}
