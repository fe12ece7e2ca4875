import type { Response } from "express";
import type { Admission } from "../../src/http/gate";
import { OUTCOMES, type OutcomeCode } from "../../src/http/outcomes";

/** API_KEY_LIMIT_REACHED and API_KEY_EXPIRED mean "fix billing or the key, do not retry soon". */
export const BILLING_RETRY_AFTER_SECONDS = 3600;
const BILLING_MESSAGES = new Set(["API_KEY_LIMIT_REACHED", "API_KEY_EXPIRED"]);

/**
 * The compat envelope. Every answer is HTTP 200 (the third-party contract); the outcome is in
 * `message`, and every refusal carries a `detail` sentence.
 */
export function sendCompatSuccess(res: Response, data: unknown, message = "OK"): void {
  res.status(200).json({ status: "success", message, data });
}

/**
 * A refusal. `Retry-After` is 3600 on API_KEY_LIMIT_REACHED and API_KEY_EXPIRED; the real number of
 * seconds (`retryAfter`) on SEALINE_NO_RESPONSE; the outcome table's on an outcome that has one (the
 * database unavailable); API_KEY_RATE_LIMIT's is set by the gate.
 */
export function sendCompatRefusal(
  res: Response,
  outcome: OutcomeCode,
  options: { detail?: string; data?: Record<string, unknown>; status?: number; retryAfter?: number } = {},
): void {
  const wire = OUTCOMES[outcome];
  const retryAfter =
    options.retryAfter ??
    wire.retryAfterSeconds ??
    (BILLING_MESSAGES.has(wire.compat.message) ? BILLING_RETRY_AFTER_SECONDS : undefined);
  if (retryAfter !== undefined) res.setHeader("Retry-After", String(retryAfter));
  res.status(options.status ?? 200).json({
    status: "error",
    message: wire.compat.message,
    data: options.data ?? {},
    detail: options.detail ?? wire.sentence,
  });
}

export function sendCompatAdmissionRefusal(
  res: Response,
  admission: Extract<Admission, { ok: false }>,
): void {
  sendCompatRefusal(res, admission.outcome);
}
