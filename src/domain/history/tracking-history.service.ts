import type { PrismaClient, TrackingLookup } from "../../generated/prisma/client";
import { type Carrier, findCarrierByScac } from "../carriers/carrier-directory";
import { type ParsedReference, parseReference, type ReferenceType } from "../references/reference";
import type { DocumentStore, StoredDocument } from "../tracking/document-store";
import type { LookupLog } from "../tracking/lookup-log";
import type { Surface } from "../tracking/tracking.service";

/** Entries a history answer lists at most: the newest ones, in the order the calls were made. */
export const HISTORY_LIMIT = 1000;

/** Where a logged call came from: one of the API surfaces, or a background job (refresh, discovery). */
export const LOOKUP_SURFACES = [
  "compat",
  "v1",
  "graphql",
  "mcp",
  "job",
] as const satisfies readonly Surface[];
export type LookupSurface = (typeof LOOKUP_SURFACES)[number];

/** How a logged call ended: a fresh answer, a stored one served while the carrier was down, nothing. */
export const LOOKUP_OUTCOMES = ["tracked", "stale", "not_found"] as const;
export type LookupOutcome = (typeof LOOKUP_OUTCOMES)[number];

export type HistoryList =
  | { ok: true; reference: ParsedReference; lookups: TrackingLookup[] }
  | { ok: false; reason: "invalid_reference"; message: string };

/**
 * The lookup log read back (compat `/history`): every call that tracked a reference for the
 * organisation and was answered with a stored document, on any surface (compat, v1, GraphQL, MCP;
 * not the scheduled refresh jobs), and the exact document version each was answered with. Refused
 * calls (not found, carrier down, limits) have no document and are not listed.
 * Logging began with the lookup log, so an old reference's list may be shorter than its age.
 */
export class TrackingHistoryService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      documents: DocumentStore;
      directory: readonly Carrier[];
      /** Lookups logged in this process and not yet written: flushed before the history is read. */
      log: LookupLog;
    },
  ) {}

  async list(
    organizationId: string,
    input: { reference: string; type?: ReferenceType; carrier?: string; limit?: number },
  ): Promise<HistoryList> {
    const parsed = parseReference(input.reference, input.type);
    if (!parsed.ok) return { ok: false, reason: "invalid_reference", message: parsed.message };
    const reference = parsed.value;
    const carrier = input.carrier ? findCarrierByScac(input.carrier, this.deps.directory) : undefined;
    await this.deps.log.flush();
    const newest = await this.deps.prisma.trackingLookup.findMany({
      where: {
        organizationId,
        referenceKey: reference.normalized,
        referenceType: reference.type,
        documentVersionId: { not: null },
        // Scheduled refreshes are the service's own lookups, not calls.
        surface: { not: "job" },
        ...(input.carrier ? { carrierScac: carrier?.scac ?? input.carrier.trim().toUpperCase() } : {}),
      },
      orderBy: { number: "desc" },
      take: Math.min(input.limit ?? HISTORY_LIMIT, HISTORY_LIMIT),
    });
    return { ok: true, reference, lookups: newest.reverse() };
  }

  /**
   * One logged call of the organisation by its history id (numbered per organisation); null for an
   * unknown one, or one that was not a call about `reference` (of `type`) when those are given.
   */
  async lookup(
    organizationId: string,
    id: number,
    match: { reference?: string; type?: ReferenceType } = {},
  ): Promise<TrackingLookup | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
    await this.deps.log.flush();
    // History ids are numbered per organisation: the id is only ever looked up within the caller's.
    const row = await this.deps.prisma.trackingLookup.findUnique({
      where: { organizationId_number: { organizationId, number: id } },
    });
    if (!row || row.surface === "job") return null;
    if (match.type && match.type !== row.referenceType) return null;
    if (match.reference !== undefined) {
      const parsed = parseReference(match.reference, row.referenceType);
      if (!parsed.ok || parsed.value.normalized !== row.referenceKey) return null;
    }
    return row;
  }

  /** The exact stored version a call was answered with. */
  async documentOf(lookup: TrackingLookup): Promise<StoredDocument | null> {
    return lookup.documentVersionId ? this.deps.documents.version(lookup.documentVersionId) : null;
  }
}
