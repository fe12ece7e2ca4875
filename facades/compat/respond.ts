import type { Response } from "express";
import type { Admission } from "../../src/http/gate";
import { OUTCOMES, type OutcomeCode } from "../../src/http/outcomes";

/**
 * The compat envelope. Every answer is HTTP 200 (the third-party contract); the outcome is in
 * `message`, and every refusal carries a `detail` sentence.
 */
export function sendCompatSuccess(res: Response, data: unknown, message = "OK"): void {
  res.status(200).json({ status: "success", message, data });
}

export function sendCompatRefusal(
  res: Response,
  outcome: OutcomeCode,
  options: { detail?: string; data?: Record<string, unknown>; status?: number } = {},
): void {
  const wire = OUTCOMES[outcome];
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
  // API_KEY_EXPIRED means "fix billing or the key, do not retry soon": the contract fixes 3600 s.
  if (admission.outcome === "expired_key") res.setHeader("Retry-After", "3600");
  sendCompatRefusal(res, admission.outcome);
}
