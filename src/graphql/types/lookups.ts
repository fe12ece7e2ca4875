import type { LookupCandidate } from "../../domain/lookups/carrier-lookup";
import type { CarrierLookupOutcome, CarrierLookupResult } from "../../domain/lookups/carrier-lookup.service";
import type { AllowanceState } from "../../domain/lookups/lookup-allowance";
import { builder } from "../builder";
import { UPSTREAM_CALL } from "../limits";

/**
 * The daily lookup allowances and the carrier lookup. The allowance objects are what the REST facade
 * turns into `X-Lookup-*` headers and what MCP tools report; the rules live in the services.
 */
const AllowanceKindEnum = builder.enumType("LookupAllowanceKind", {
  values: {
    VESSEL_SCHEDULE: {
      description: "Vessel positions and sailing schedules: one daily allowance per key by plan.",
    },
    CARRIER: { description: "Carrier lookups: 1,000 a day per key." },
  } as const,
});

export const LookupAllowanceRef = builder.objectRef<AllowanceState>("LookupAllowance").implement({
  description:
    "A key's daily lookup allowance after this answer (UTC-day windows). Absent from answers served from the cache, which cost nothing.",
  fields: (t) => ({
    kind: t.field({
      type: AllowanceKindEnum,
      resolve: (a) => (a.kind === "carrier" ? "CARRIER" : "VESSEL_SCHEDULE"),
    }),
    limit: t.exposeInt("limit", { description: "Lookups a day." }),
    remaining: t.exposeInt("remaining"),
    resetAt: t.field({ type: "DateTime", description: "The next UTC midnight.", resolve: (a) => a.resetAt }),
    resetAtEpochSeconds: t.int({
      description: "resetAt in unix seconds (the X-Lookup-Reset header).",
      resolve: (a) => Math.floor(a.resetAt.getTime() / 1000),
    }),
    retryAfterSeconds: t.exposeInt("retryAfterSeconds"),
  }),
});

export const LookupLimitExceededRef = builder
  .objectRef<{ allowance: AllowanceState }>("LookupLimitExceeded")
  .implement({
    description:
      "The key's daily allowance for this kind of lookup is spent; it resets at the next UTC midnight.",
    fields: (t) => ({
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
      message: t.string({
        resolve: (o) =>
          o.allowance.kind === "carrier"
            ? `The daily carrier lookup allowance of ${o.allowance.limit} is used up.`
            : `The daily vessel and schedule lookup allowance of ${o.allowance.limit} is used up.`,
      }),
    }),
  });

export const LookupInputInvalidRef = builder
  .objectRef<{ param: string; message: string }>("LookupInputInvalid")
  .implement({
    description: "A parameter of the lookup is not valid; nothing was spent.",
    fields: (t) => ({
      param: t.exposeString("param", { description: "The parameter's REST name, e.g. imo, week_range." }),
      message: t.exposeString("message"),
    }),
  });

export const LookupProviderUnavailableRef = builder
  .objectRef<{ reason: string; allowance: AllowanceState }>("LookupProviderUnavailable")
  .implement({
    description: "No source could answer now; the lookup was given back to the allowance. Retry in a minute.",
    fields: (t) => ({
      reason: t.exposeString("reason"),
      retryAfterSeconds: t.int({ resolve: () => 60 }),
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
    }),
  });

const ConfidenceEnum = builder.enumType("LookupConfidence", {
  values: ["high", "medium", "low"] as const,
});

const CandidateRef = builder.objectRef<LookupCandidate>("CarrierLookupCandidate").implement({
  fields: (t) => ({
    scac: t.exposeString("scac"),
    name: t.exposeString("name"),
    slug: t.exposeString("slug"),
    status: t.exposeString("status", { description: "active or maintenance." }),
    confidence: t.field({ type: ConfidenceEnum, resolve: (c) => c.confidence }),
    source: t.exposeString("source", {
      description:
        "history (high: answered for this reference before), spec (high: matches the carrier's published B/L layout), bl-sealines (high: the B/L starts with one of the line's SCACs), bl-prefix (medium: another B/L prefix the carrier uses), bic (medium: the container's owner prefix), prefix-popularity (low: answered most often for references with the same prefix).",
    }),
  }),
});

type CarrierLookupAnswer = Extract<CarrierLookupOutcome, { kind: "result" }>;

const CarrierLookupRef = builder.objectRef<CarrierLookupAnswer>("CarrierLookup").implement({
  description: "Which carrier a reference belongs to (v1 section 2.11). Creates no shipment and no slot.",
  fields: (t) => ({
    reference: t.string({ resolve: (o) => o.result.reference }),
    referenceType: t.string({
      description: "container, bl or booking.",
      resolve: (o) => o.result.referenceType,
    }),
    carrier: t.field({
      type: CandidateRef,
      nullable: true,
      description:
        "The strongest candidate, whatever its confidence; null exactly when there is no candidate.",
      resolve: (o) => o.result.carrier,
    }),
    candidates: t.field({
      type: [CandidateRef],
      resolve: (o: { result: CarrierLookupResult }) => o.result.candidates,
    }),
    sourcesUnavailable: t.stringList({
      description:
        "Sources that failed or took longer than 3 seconds. Non-empty with a null carrier: a degraded answer, retry later.",
      resolve: (o) => o.result.sourcesUnavailable,
    }),
    cached: t.boolean({
      description: "A repeat lookup served from the cache (free).",
      resolve: (o) => o.result.cached,
    }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});

const CARRIER_LOOKUP_MEMBERS = {
  result: CarrierLookupRef,
  invalid_reference: LookupInputInvalidRef,
  limit_exceeded: LookupLimitExceededRef,
} as const;

type CarrierLookupValue =
  | CarrierLookupAnswer
  | { kind: "invalid_reference"; param: string; message: string }
  | Extract<CarrierLookupOutcome, { kind: "limit_exceeded" }>;

const CarrierLookupOutcomeRef = builder.unionType("CarrierLookupOutcome", {
  types: Object.values(CARRIER_LOOKUP_MEMBERS),
  resolveType: (value) => CARRIER_LOOKUP_MEMBERS[(value as CarrierLookupValue).kind],
});

const LookupReferenceTypeEnum = builder.enumType("LookupReferenceType", {
  values: ["container", "bl"] as const,
});

builder.queryFields((t) => ({
  carrierLookup: t.field({
    extensions: UPSTREAM_CALL,
    type: CarrierLookupOutcomeRef,
    nullable: true,
    description:
      "Resolves the carrier of a container or bill-of-lading number with the evidence for each candidate. A repeat within the hour is served from the cache and costs nothing; otherwise one carrier lookup of the key's daily allowance.",
    authScopes: { developerMode: true },
    args: {
      number: t.arg.string({ required: true }),
      type: t.arg({
        type: LookupReferenceTypeEnum,
        required: false,
        description: "Inferred when absent: 4 letters and 7 digits is a container.",
      }),
    },
    resolve: async (_root, args, ctx): Promise<CarrierLookupValue> => {
      const outcome = await ctx.services.lookups.carrierLookups.lookup(ctx.principal!, {
        number: args.number,
        type: args.type ?? undefined,
      });
      if (outcome.kind === "invalid_reference") {
        return { kind: "invalid_reference", param: "number", message: outcome.message };
      }
      return outcome;
    },
  }),
}));
