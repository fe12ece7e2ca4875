import type { Response } from "express";
import type { Admission } from "../../src/http/gate";
import {
  HTTP_STATUS_TEXT,
  OUTCOMES,
  type OutcomeCode,
  outcomeOf,
  type ResultUnion,
  refusalData,
  retryAfterFor,
} from "../../src/http/outcomes";
import { rateLimitPlanDetail } from "../../src/http/refusal-details";
import { renderedJsonOf } from "./render/rendered-json";

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

/** The core's plan or feature-switch refusal of a feature, in the v1 body (spec 4.1: 403 either way). */
export type FeatureGate =
  | { __typename: "PlanRequired"; feature: string; minPlan: string }
  | { __typename: "FeatureDisabled"; feature: string };

/**
 * Answers a feature gate of `union` as the outcome table says; a plan refusal names the plan that has
 * the feature, in the sentence `planMessage` words for it.
 */
export function sendFeatureGate(
  res: Response,
  union: ResultUnion,
  gate: FeatureGate,
  planMessage: (minPlan: string) => string,
): void {
  sendV1Error(
    res,
    outcomeOf(union, gate),
    gate.__typename === "PlanRequired"
      ? {
          message: planMessage(gate.minPlan),
          data: { feature: gate.feature, min_plan: gate.minPlan },
        }
      : { data: { feature: gate.feature } },
  );
}

/** Writes a JSON body as `res.json` would (same bytes and headers), without its per-call work. */
function sendJsonText(res: Response, text: string): void {
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(res.req.method === "HEAD" ? undefined : text);
}

/**
 * A v1 list answer (`{success, total, data}`, spec section 2.1) whose items come straight from an
 * operation's result: the items' JSON is written once per kept answer (above), the envelope per call.
 * Byte for byte what `res.json({ success: true, total, data: items })` sends.
 */
export function sendV1List(res: Response, items: readonly unknown[], total: number = items.length): void {
  // The sandbox's marks (`mode`, `persisted`) right after `success`, as its res.json wrapper puts them.
  const marks = typeof res.locals.envelopeMarks === "string" ? res.locals.envelopeMarks : "";
  sendJsonText(
    res,
    `{"success":true,${marks}"total":${total},"data":${renderedJsonOf(items, "as is", () => items)}}`,
  );
}

/**
 * A v1 success answer whose `data` is JSON text already written (a page of shipment summaries,
 * `shipmentSummariesJson`), after the members of `head` in their order: byte for byte what
 * `res.json({ success: true, ...head, data })` sends, sandbox marks included.
 */
export function sendV1Data(res: Response, head: Readonly<Record<string, unknown>>, dataText: string): void {
  const marks = typeof res.locals.envelopeMarks === "string" ? res.locals.envelopeMarks : "";
  let members = "";
  for (const key of Object.keys(head)) {
    const value = head[key];
    if (value !== undefined) members += `${JSON.stringify(key)}:${JSON.stringify(value)},`;
  }
  sendJsonText(res, `{"success":true,${marks}${members}"data":${dataText}}`);
}
