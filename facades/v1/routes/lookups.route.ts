import type { Response } from "express";
import type { OutcomeCode } from "../../../src/http/outcomes";
import { type FacadeDeps, runOperation } from "../../facade";
import { carrierLookupQuery as lookupQuery } from "../contract/routes";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";

/** A daily allowance as the core reports it on a lookup answer. */
export interface AllowanceView {
  limit: number;
  remaining: number;
  resetAtEpochSeconds: number;
  retryAfterSeconds?: number;
}

/** `X-Lookup-*` headers: only on answers that consulted the allowance (never on cache hits). */
export function setLookupHeaders(res: Response, allowance: AllowanceView | null | undefined): void {
  if (!allowance) return;
  res.setHeader("X-Lookup-Limit", String(allowance.limit));
  res.setHeader("X-Lookup-Remaining", String(allowance.remaining));
  res.setHeader("X-Lookup-Reset", String(allowance.resetAtEpochSeconds));
}

/** 429 for a spent daily allowance, with the headers and `Retry-After`. */
export function sendLookupLimit(
  res: Response,
  outcome: Extract<OutcomeCode, "lookup_limit_exceeded" | "carrier_lookup_limit_exceeded">,
  refusal: { message: string; allowance: AllowanceView },
): void {
  setLookupHeaders(res, refusal.allowance);
  const retryAfter = refusal.allowance.retryAfterSeconds ?? 1;
  res.setHeader("Retry-After", String(retryAfter));
  sendV1Error(res, outcome, {
    message: refusal.message,
    data: {
      limit: refusal.allowance.limit,
      remaining: refusal.allowance.remaining,
      reset: refusal.allowance.resetAtEpochSeconds,
      retryAfter,
    },
  });
}

/** The core's lookup sources; two are spelled with a hyphen on the v1 wire. */
type LookupSource = "history" | "spec" | "bl_sealines" | "bl_prefix" | "bic" | "prefix_popularity";

const WIRE_SOURCE: Readonly<Record<LookupSource, string>> = {
  history: "history",
  spec: "spec",
  bl_sealines: "bl-sealines",
  bl_prefix: "bl-prefix",
  bic: "bic",
  prefix_popularity: "prefix-popularity",
};

interface CandidateView {
  scac: string;
  name: string;
  slug: string;
  status: string;
  confidence: string;
  source: LookupSource;
}

type CarrierLookupData = {
  carrierLookup:
    | {
        __typename: "CarrierLookup";
        reference: string;
        referenceType: string;
        carrier: CandidateView | null;
        candidates: CandidateView[];
        sourcesUnavailable: LookupSource[];
        cached: boolean;
        allowance: AllowanceView | null;
      }
    | { __typename: "LookupLimitExceeded"; message: string; allowance: AllowanceView }
    | { __typename: "LookupInputInvalid"; param: string; message: string }
    | null;
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  container: "Container",
  bl: "Bill of Lading",
  booking: "Booking",
};

export const renderCandidate = (c: CandidateView) => ({
  scac: c.scac,
  name: c.name,
  slug: c.slug,
  status: c.status,
  confidence: c.confidence,
  source: WIRE_SOURCE[c.source],
});

/** GET /carriers/lookup (spec v1 section 2.11, rule 11). */
export function mountLookupRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("carrierLookup", async (req, res) => {
    const query = lookupQuery.safeParse(req.query);
    if (!query.success) {
      const issue = query.error.issues[0]!;
      return sendV1Error(res, "bad_request", {
        message: issue.message,
        data: { param: String(issue.path[0] ?? "number") },
      });
    }
    const result = await runOperation<CarrierLookupData>(deps, req, "CarrierLookup", query.data);
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.carrierLookup!;
    switch (answer.__typename) {
      case "LookupInputInvalid":
        return sendV1Error(res, "invalid_reference", {
          message: answer.message,
          data: { param: answer.param },
        });
      case "LookupLimitExceeded":
        return sendLookupLimit(res, "carrier_lookup_limit_exceeded", answer);
      case "CarrierLookup":
        setLookupHeaders(res, answer.allowance);
        res.json({
          success: true,
          data: {
            reference_number: answer.reference,
            type: TYPE_NAMES[answer.referenceType] ?? answer.referenceType,
            carrier: answer.carrier ? renderCandidate(answer.carrier) : null,
            candidates: answer.candidates.map(renderCandidate),
            sources_unavailable: answer.sourcesUnavailable.map((source) => WIRE_SOURCE[source]),
            cached: answer.cached,
          },
        });
    }
  });
}

/** The refusals vessel and schedule lookups share, as the core types them. */
export type LookupRefusal =
  | { __typename: "LookupInputInvalid"; message: string; param: string }
  | { __typename: "LookupLimitExceeded"; message: string; allowance: AllowanceView }
  | { __typename: "LookupProviderUnavailable"; retryAfterSeconds: number; allowance: AllowanceView | null };

/** Answers a shared refusal and returns true, or returns false for the route's own outcomes. */
export function sendLookupRefusal(res: Response, answer: { __typename: string }): boolean {
  const refusal = answer as LookupRefusal;
  switch (refusal.__typename) {
    case "LookupInputInvalid":
      sendV1Error(res, "bad_request", { message: refusal.message, data: { param: refusal.param } });
      return true;
    case "LookupLimitExceeded":
      sendLookupLimit(res, "lookup_limit_exceeded", refusal);
      return true;
    case "LookupProviderUnavailable":
      setLookupHeaders(res, refusal.allowance);
      res.setHeader("Retry-After", String(refusal.retryAfterSeconds));
      sendV1Error(res, "lookup_provider_unavailable", { data: { retryAfter: refusal.retryAfterSeconds } });
      return true;
    default:
      return false;
  }
}
