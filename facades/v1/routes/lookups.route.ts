import type { Response } from "express";
import { outcomeOf, type ResultUnion } from "../../../src/http/outcomes";
import type { FacadeDeps, Member } from "../../facade";
import {
  CarrierLookupDocument,
  type CarrierLookupQuery,
  type CarrierLookupSource,
  type SailingSchedulesQuery,
  type VesselTrackQuery,
} from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";

type Lookup = CarrierLookupQuery["carrierLookup"];

/** The refusals vessel and schedule lookups share, as their operations select them. */
export type LookupRefusal = Member<
  VesselTrackQuery["vesselPosition"] | SailingSchedulesQuery["sailingSchedules"],
  "LookupInputInvalid" | "LookupLimitExceeded" | "LookupProviderUnavailable"
>;

/** A daily allowance as a lookup answer carries it; a spent one says when to retry. */
type AllowanceView = NonNullable<
  Member<Lookup | LookupRefusal, "CarrierLookup" | "LookupLimitExceeded">["allowance"]
>;

/** `X-Lookup-*` headers: only on answers that consulted the allowance (never on cache hits). */
export function setLookupHeaders(
  res: Response,
  allowance: Omit<AllowanceView, "retryAfterSeconds"> | null | undefined,
): void {
  if (!allowance) return;
  res.setHeader("X-Lookup-Limit", String(allowance.limit));
  res.setHeader("X-Lookup-Remaining", String(allowance.remaining));
  res.setHeader("X-Lookup-Reset", String(allowance.resetAtEpochSeconds));
}

/** 429 for a spent daily allowance, with the headers and `Retry-After`. */
export function sendLookupLimit(
  res: Response,
  union: ResultUnion,
  refusal: { __typename: "LookupLimitExceeded"; message: string; allowance: AllowanceView | null },
): void {
  const { allowance } = refusal;
  setLookupHeaders(res, allowance);
  const retryAfter =
    (allowance && "retryAfterSeconds" in allowance ? allowance.retryAfterSeconds : null) ?? 1;
  sendV1Error(res, outcomeOf(union, refusal), {
    retryAfter,
    message: refusal.message,
    data: {
      limit: allowance?.limit,
      remaining: allowance?.remaining,
      reset: allowance?.resetAtEpochSeconds,
      retryAfter,
    },
  });
}

/** The core's lookup sources; two are spelled with a hyphen on the v1 wire. */
const WIRE_SOURCE: Readonly<Record<CarrierLookupSource, string>> = {
  history: "history",
  spec: "spec",
  bl_sealines: "bl-sealines",
  bl_prefix: "bl-prefix",
  bic: "bic",
  prefix_popularity: "prefix-popularity",
};

type CandidateView = Member<Lookup, "CarrierLookup">["candidates"][number];

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
  api.on("carrierLookup", async (req, res, { query }) => {
    const result = await deps.run(req, CarrierLookupDocument, query);
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.carrierLookup!;
    switch (answer.__typename) {
      case "LookupInputInvalid":
        return sendV1Error(res, outcomeOf("CarrierLookupOutcome", answer), {
          message: answer.message,
          data: { param: answer.param },
        });
      case "LookupLimitExceeded":
        return sendLookupLimit(res, "CarrierLookupOutcome", answer);
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

/** Answers a shared refusal and returns true, or returns false for the route's own outcomes. */
export function sendLookupRefusal<A extends { __typename: string }>(
  res: Response,
  union: "SailingSchedulesOutcome" | "VesselTrackOutcome",
  answer: A,
): answer is Extract<A, LookupRefusal> {
  // Each member of the union is checked by its __typename below; anything else is the route's own.
  const refusal = answer as unknown as LookupRefusal;
  switch (refusal.__typename) {
    case "LookupInputInvalid":
      sendV1Error(res, outcomeOf(union, refusal), {
        message: refusal.message,
        data: { param: refusal.param },
      });
      return true;
    case "LookupLimitExceeded":
      sendLookupLimit(res, union, refusal);
      return true;
    case "LookupProviderUnavailable":
      setLookupHeaders(res, refusal.allowance);
      sendV1Error(res, outcomeOf(union, refusal), {
        data: { retryAfter: refusal.retryAfterSeconds },
        retryAfter: refusal.retryAfterSeconds,
      });
      return true;
    default:
      return false;
  }
}
