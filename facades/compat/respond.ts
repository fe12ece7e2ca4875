import type { Response } from "express";
import type { Admission } from "../../src/http/gate";
import { OUTCOMES, type OutcomeCode, retryAfterFor } from "../../src/http/outcomes";

/**
 * The compat envelope. Every answer is HTTP 200 (the third-party contract); the outcome is in
 * `message`, and every refusal carries a `detail` sentence.
 */
export function sendCompatSuccess(res: Response, data: unknown, message = "OK"): void {
  res.status(200).json({ status: "success", message, data });
}

/**
 * `sendCompatSuccess` with `data` already serialised (`dataJson`): the same bytes and headers as
 * `res.json` makes of the envelope.
 */
export function sendCompatSuccessJson(res: Response, dataJson: string, message = "OK"): void {
  res.status(200);
  if (!res.get("Content-Type")) res.set("Content-Type", "application/json");
  res.send(`{"status":"success","message":${JSON.stringify(message)},"data":${dataJson}}`);
}

/**
 * A refusal, with the HTTP status and `Retry-After` the outcome table gives compat for it
 * (`retryAfter`: the wait the answer carried, e.g. a carrier's back-off on SEALINE_NO_RESPONSE).
 * API_KEY_RATE_LIMIT's is set by the gate.
 */
export function sendCompatRefusal(
  res: Response,
  outcome: OutcomeCode,
  options: { detail?: string; data?: Record<string, unknown>; retryAfter?: number } = {},
): void {
  const wire = OUTCOMES[outcome];
  const retryAfter = retryAfterFor("compat", outcome, options.retryAfter);
  if (retryAfter !== undefined) res.setHeader("Retry-After", String(retryAfter));
  res.status(wire.compat.status ?? 200).json({
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
