import type { Principal } from "../accounts/principal";
import type { Carrier } from "../carriers/carrier-directory";
import { parseReference, type ReferenceType } from "../references/reference";
import type { DocumentStore } from "../tracking/document-store";
import {
  type LookupCandidate,
  type LookupEvidence,
  lookupCandidates,
  popularityPrefix,
  type SlowSource,
} from "./carrier-lookup";
import type { AllowanceState, LookupAllowanceService } from "./lookup-allowance";
import type { LookupCache } from "./lookup-cache";

/** A source that has not answered within this time is reported in `sources_unavailable`. */
export const SOURCE_TIMEOUT_MS = 3_000;
/** How long a complete answer is served again without spending (a repeat lookup). */
export const CARRIER_LOOKUP_CACHE_MS = 60 * 60_000;

export interface CarrierLookupResult {
  reference: string;
  referenceType: ReferenceType;
  /** The strongest candidate; null exactly when there is none. */
  carrier: LookupCandidate | null;
  candidates: LookupCandidate[];
  sourcesUnavailable: SlowSource[];
  cached: boolean;
}

export type CarrierLookupOutcome =
  | { kind: "result"; result: CarrierLookupResult; allowance: AllowanceState | null }
  | { kind: "invalid_reference"; referenceType: ReferenceType; reason: string; message: string }
  | { kind: "limit_exceeded"; allowance: AllowanceState };

/**
 * The two slow sources, always read for the asking organisation only: another organisation's tracking
 * is never evidence (a `history` answer would tell the caller that someone else tracks the reference).
 */
export interface CarrierEvidenceSources {
  history(organizationId: string, referenceKey: string): Promise<string[]>;
  prefixPopularity(
    organizationId: string,
    prefix: string,
    type: ReferenceType,
    exceptKey: string,
  ): Promise<string[]>;
}

/** The database behind the two slow sources: the organisation's own carrier documents. */
export function storeEvidenceSources(documents: DocumentStore): CarrierEvidenceSources {
  return {
    history: (organizationId, key) => documents.carriersThatAnswered(organizationId, key),
    prefixPopularity: (organizationId, prefix, type, exceptKey) =>
      documents.prefixPopularity(
        organizationId,
        prefix,
        type === "container" ? ["container"] : ["bl", "booking"],
        exceptKey,
      ),
  };
}

async function within<T>(work: () => Promise<T>, timeoutMs: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), timeoutMs);
      }),
    ]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/carriers/lookup`: creates no shipment and no slot. A repeat within the hour (same organisation,
 * same reference) is served from the cache, costs nothing and reports no allowance; anything else
 * spends one carrier lookup of the key's daily allowance. Answers whose slow sources failed are not
 * cached, so a retry asks again.
 */
export class CarrierLookupService {
  constructor(
    private readonly deps: {
      directory: readonly Carrier[];
      sources: CarrierEvidenceSources;
      allowance: LookupAllowanceService;
      cache: LookupCache;
      sourceTimeoutMs?: number;
    },
  ) {}

  async lookup(
    principal: Principal,
    input: { number: string; type?: "container" | "bl" },
  ): Promise<CarrierLookupOutcome> {
    const parsed = parseReference(input.number, input.type);
    if (!parsed.ok) {
      return {
        kind: "invalid_reference",
        referenceType: parsed.type,
        reason: parsed.reason,
        message: parsed.message,
      };
    }
    const reference = parsed.value;
    const cacheKey = `carrier-lookup:${principal.organization.id}:${reference.type}:${reference.normalized}${
      reference.container && reference.type !== "container" ? `/${reference.container.number}` : ""
    }`;
    const hit = await this.deps.cache.get<CarrierLookupResult>(cacheKey);
    if (hit) return { kind: "result", result: { ...hit, cached: true }, allowance: null };

    const spend = await this.deps.allowance.spend(principal, "carrier");
    if (!spend.allowed) return { kind: "limit_exceeded", allowance: spend.state };

    const timeout = this.deps.sourceTimeoutMs ?? SOURCE_TIMEOUT_MS;
    const prefix = popularityPrefix(reference);
    const [history, prefixPopularity] = await Promise.all([
      within(() => this.deps.sources.history(principal.organization.id, reference.normalized), timeout),
      prefix === null
        ? Promise.resolve<string[]>([])
        : within(
            () =>
              this.deps.sources.prefixPopularity(
                principal.organization.id,
                prefix,
                reference.type,
                reference.normalized,
              ),
            timeout,
          ),
    ]);
    const evidence: LookupEvidence = { history, prefixPopularity };
    const candidates = lookupCandidates(reference, evidence, this.deps.directory);
    const sourcesUnavailable: SlowSource[] = [];
    if (history === null) sourcesUnavailable.push("history");
    if (prefixPopularity === null) sourcesUnavailable.push("prefix-popularity");
    const result: CarrierLookupResult = {
      reference: reference.number,
      referenceType: reference.type,
      carrier: candidates[0] ?? null,
      candidates,
      sourcesUnavailable,
      cached: false,
    };
    if (sourcesUnavailable.length === 0) await this.deps.cache.set(cacheKey, result, CARRIER_LOOKUP_CACHE_MS);
    return { kind: "result", result, allowance: spend.state };
  }
}
