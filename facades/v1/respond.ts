import type { Response } from "express";
import type { Admission } from "../../src/http/gate";
import {
  HTTP_STATUS_TEXT,
  OUTCOMES,
  type OutcomeCode,
  refusalData,
  retryAfterFor,
} from "../../src/http/outcomes";
import { rateLimitPlanDetail } from "../../src/http/refusal-details";

/**
 * The v1 error body (spec section 2.1): status, error code and `Retry-After` from the outcome table
 * (`retryAfter`: the wait the answer carried, for an outcome whose wait is the answer's).
 */
export function sendV1Error(
  res: Response,
  outcome: OutcomeCode,
  options: { message?: string; data?: Record<string, unknown>; retryAfter?: number } = {},
): void {
  const wire = OUTCOMES[outcome];
  const status = wire.v1.status;
  const retry = retryAfterFor("v1", outcome, options.retryAfter);
  if (retry !== undefined) res.setHeader("Retry-After", String(retry));
  res.status(status).json({
    success: false,
    statusCode: status,
    statusMessage: HTTP_STATUS_TEXT[status] ?? "Error",
    message: options.message ?? wire.sentence,
    data: { ...refusalData(outcome), ...options.data },
  });
}

export function sendV1Refusal(
  res: Response,
  admission: Extract<Admission, { ok: false }>,
  baseUrl: string,
): void {
  const { outcome } = admission;
  if (
    (outcome === "rate_limited" || outcome === "organization_rate_limited") &&
    admission.principal &&
    admission.rate
  ) {
    sendV1Error(res, outcome, {
      data: {
        limit: admission.rate.limit,
        retryAfter: admission.rate.retryAfterSeconds,
        ...rateLimitPlanDetail(admission.principal, baseUrl),
      },
    });
    return;
  }
  if ((outcome === "auth_throttled" || outcome === "keyless_throttled") && admission.rate) {
    sendV1Error(res, outcome, {
      data: { limit: admission.rate.limit, retryAfter: admission.rate.retryAfterSeconds },
    });
    return;
  }
  sendV1Error(res, admission.outcome);
}
