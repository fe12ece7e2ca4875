import { createHash, randomUUID } from "node:crypto";
import type { PreparedSql, PreparedStatement } from "../../db/database";
import type { CarrierDocument, DocumentVersion, Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ReferenceKind } from "../../generated/prisma/enums";
import { answersChanged } from "../../lib/answer-changes";
import { answerReads } from "../../lib/answer-scope";
import type { Clock } from "../../lib/clock";
import type { CacheLookups } from "../../observability/metrics";
import type { PartnerEventFacts } from "../partners/partner-event";
import { mergePartnerEvents } from "../partners/partner-merge";
import { type DocumentChange, diffDocuments, etaOf } from "./document-diff";
import type { EtaRevision, TrackingDocument } from "./model";
import { summaryFactsOf } from "./summary-facts";

/** One carrier's document for one reference of one organisation: the key of `carrier_documents`. */
export interface DocumentKey {
  organizationId: string;
  carrierScac: string;
  referenceType: ReferenceKind;
  referenceKey: string;
}

export interface StoredDocument {
  document: CarrierDocument;
  version: DocumentVersion;
  content: TrackingDocument;
}

/** A document's newest version as readers see it: the version's identity, not its diff. */
export interface LatestDocument {
  document: CarrierDocument;
  version: Pick<DocumentVersion, "id" | "version" | "fetchedAt">;
  content: TrackingDocument;
}

/** How long a stored document is served before the carrier is asked again (compat, refresh jobs). */
export const FRESHNESS_MS = 12 * 3_600_000;

/**
 * The document store, partitioned per organisation: one row per organisation, carrier and reference,
 * and a new version only when the carrier's answer changed. Not shared between organisations: a
 * shared row showed a first-time tracker another tenant's fetch time, versions, ETA history and
 * failures. Only a carrier call in flight is shared (TrackingService.ask), which nobody can observe.
 * ETA history is ours: carriers only ever tell the current estimate, so each version carries the
 * previous one's history plus any revision.
 */
export class DocumentStore {
  /**
   * Parsed versions by id, newest use last, at most `VERSION_CACHE_SIZE`. A version never changes
   * once stored (a change is a new version with a new id, and which version is newest is read from
   * the document row on every request), so a cached version can never be stale; and since readers
   * get the same object each time, the facts derived from it per document (`perDocument`) are
   * computed once per version instead of on every read.
   */
  private readonly versions = new Map<string, DocumentVersion>();
  /** The keys of `versions` per document: what a read may ask without content, without a scan of all. */
  private readonly heldByDocument = new Map<string, Set<string>>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly sql: PreparedSql,
    private readonly options: { cacheSize?: number; cacheLookups?: CacheLookups } = {},
  ) {
    this.cacheSize = options.cacheSize ?? VERSION_CACHE_SIZE;
  }

  private readonly cacheSize: number;

  private cached(documentId: string, version: number): DocumentVersion | undefined {
    const key = `${documentId}:${version}`;
    const hit = this.versions.get(key);
    if (hit) {
      this.versions.delete(key);
      this.versions.set(key, hit);
      this.options.cacheLookups?.hit();
    } else this.options.cacheLookups?.miss();
    return hit;
  }

  private remember(version: DocumentVersion): DocumentVersion {
    if (this.cacheSize <= 0) return version;
    const key = `${version.documentId}:${version.version}`;
    this.versions.set(key, version);
    const held = this.heldByDocument.get(version.documentId);
    if (held) held.add(key);
    else this.heldByDocument.set(version.documentId, new Set([key]));
    if (this.versions.size > this.cacheSize) {
      const oldest = this.versions.keys().next().value as string;
      this.versions.delete(oldest);
      const documentId = oldest.slice(0, oldest.lastIndexOf(":"));
      const keys = this.heldByDocument.get(documentId);
      keys?.delete(oldest);
      if (keys?.size === 0) this.heldByDocument.delete(documentId);
    }
    return version;
  }

  /** A document's version by number, from the cache or in one prepared statement. */
  private async versionOf(documentId: string, version: number): Promise<DocumentVersion | null> {
    const hit = this.cached(documentId, version);
    if (hit) return hit;
    const [row] = await this.sql.query<RawVersion>(VERSION_BY_NUMBER, [documentId, version]);
    return row ? this.remember(toVersion(row)) : null;
  }

  async find(
    organizationId: string,
    carrierScac: string,
    referenceType: ReferenceKind,
    referenceKey: string,
  ) {
    const [row] = await this.sql.query<RawDocument>(DOCUMENT_BY_REFERENCE, [
      organizationId,
      carrierScac,
      referenceType,
      referenceKey,
    ]);
    return row ? toDocument(row) : null;
  }

  async latest(document: CarrierDocument): Promise<StoredDocument | null> {
    answerReads("TrackingDocument", document.id);
    if (document.latestVersion === 0) return null;
    const version = await this.versionOf(document.id, document.latestVersion);
    return version ? { document, version, content: version.content as unknown as TrackingDocument } : null;
  }

  async version(versionId: string): Promise<StoredDocument | null> {
    const version = await this.prisma.documentVersion.findUnique({
      where: { id: versionId },
      include: { document: true },
    });
    if (!version) return null;
    const { document, ...rest } = version;
    return { document, version: rest, content: rest.content as unknown as TrackingDocument };
  }

  /**
   * Carriers that ever answered for this reference to this organisation, most recent first: the
   * "tracking history" evidence of detection and carrier lookup. Another organisation's tracking is
   * never evidence: it would tell the caller what that organisation tracks. Documents from before
   * the store was split count when the organisation's own shipments point at them.
   */
  async carriersThatAnswered(organizationId: string, referenceKey: string): Promise<string[]> {
    const rows = await this.sql.query<{ scac: string }>(CARRIERS_THAT_ANSWERED, [
      organizationId,
      referenceKey,
    ]);
    return [...new Set(rows.map((r) => r.scac))];
  }

  /**
   * Carriers that answered this organisation for other references starting with `prefix`, most
   * references first (at most 5): the low-confidence evidence for a lessor's box or an unknown bill
   * prefix. Only the organisation's own documents, for the same reason as `carriersThatAnswered`.
   */
  async prefixPopularity(
    organizationId: string,
    prefix: string,
    kinds: readonly ReferenceKind[],
    exceptKey: string,
  ): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ scac: string; n: number }[]>`
      SELECT d.carrier_scac AS scac, count(DISTINCT d.reference_key)::int AS n
        FROM carrier_documents d
       WHERE d.latest_version > 0
         AND d.reference_type::text = ANY(${[...kinds]}::text[])
         AND starts_with(d.reference_key, ${prefix})
         AND d.reference_key <> ${exceptKey}
         AND (d.organization_id = ${organizationId}
              OR (d.organization_id IS NULL
                  AND d.id IN (SELECT s.document_id FROM shipments s
                                WHERE s.organization_id = ${organizationId}
                                  AND s.document_id IS NOT NULL)))
       GROUP BY d.carrier_scac
       ORDER BY n DESC, d.carrier_scac
       LIMIT 5`;
    return rows.map((r) => r.scac);
  }

  /**
   * Stores a carrier answer for an organisation; writes a version only when the content changed. The
   * organisation's partner events for the reference are merged into what is stored (`partner-merge.ts`),
   * so a poll never drops them.
   */
  async record(
    { organizationId, carrierScac, referenceType, referenceKey }: DocumentKey,
    content: TrackingDocument,
  ): Promise<StoredDocument & { changed: boolean; changes: DocumentChange[] }> {
    const now = this.clock.now();
    const result = await this.prisma.$transaction(async (tx) => {
      // Create the row if it is new (atomically: concurrent first answers race here), then lock it so
      // that writers of one document, in any process, take turns.
      await tx.$executeRaw`
        INSERT INTO carrier_documents (id, organization_id, carrier_scac, reference_type, reference_key, latest_version, created_at)
        VALUES (${randomUUID()}, ${organizationId}, ${carrierScac}, ${referenceType}::"ReferenceKind", ${referenceKey}, 0, ${now})
        ON CONFLICT (organization_id, carrier_scac, reference_type, reference_key) DO NOTHING`;
      const [locked] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM carrier_documents
         WHERE organization_id = ${organizationId}
           AND carrier_scac = ${carrierScac} AND reference_type = ${referenceType}::"ReferenceKind"
           AND reference_key = ${referenceKey}
         FOR UPDATE`;
      const head = await tx.carrierDocument.findUniqueOrThrow({ where: { id: locked!.id } });
      return this.writeVersion(tx, head, { carrier: content, now, fromCarrier: true });
    });
    // Remembered once committed: a rolled-back version must never be served.
    if (result.changed) this.remember(result.version);
    await answersChanged({ documents: [result.document.id] });
    return result;
  }

  /**
   * Merges the organisation's partner events into the carrier's latest answer again, after a partner
   * posted: a new version when that changes the document, exactly as a poll's change would be stored.
   * The carrier was not asked, so its sync times stay. Null when the carrier never answered.
   */
  async reapplyPartnerEvents(
    documentId: string,
  ): Promise<(StoredDocument & { changed: boolean; changes: DocumentChange[] }) | null> {
    const now = this.clock.now();
    const result = await this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM carrier_documents WHERE id = ${documentId} FOR UPDATE`;
      const head = await tx.carrierDocument.findUnique({ where: { id: documentId } });
      if (!head || head.latestVersion === 0) return null;
      const base = await tx.carrierAnswer.findUnique({ where: { documentId } });
      const latest = base
        ? null
        : await tx.documentVersion.findUniqueOrThrow({
            where: { documentId_version: { documentId, version: head.latestVersion } },
          });
      // Without a stored carrier answer no partner event was merged yet: the latest version is the carrier's.
      const carrier = (base?.content ?? latest!.content) as unknown as TrackingDocument;
      return this.writeVersion(tx, head, { carrier, now, fromCarrier: false });
    });
    if (!result) return null;
    if (result.changed) this.remember(result.version);
    await answersChanged({ documents: [result.document.id] });
    return result;
  }

  /** The locked document's next version from a carrier answer and the partner events of its reference. */
  private async writeVersion(
    tx: Prisma.TransactionClient,
    head: CarrierDocument,
    /** `fromCarrier`: a carrier's answer (it marks the sync); false: the same answer with new partner events. */
    answer: { carrier: TrackingDocument; now: Date; fromCarrier: boolean },
  ): Promise<StoredDocument & { changed: boolean; changes: DocumentChange[] }> {
    const { carrier, now, fromCarrier } = answer;
    const synced = fromCarrier ? { lastSyncedAt: now, lastAttemptAt: now, lastFailureReason: null } : {};
    const partnerEvents = head.organizationId
      ? await tx.partnerEvent.findMany({
          where: { organizationId: head.organizationId, referenceKey: head.referenceKey },
          orderBy: { receivedAt: "asc" },
        })
      : [];
    if (partnerEvents.length > 0) {
      await tx.carrierAnswer.upsert({
        where: { documentId: head.id },
        create: { documentId: head.id, content: carrier as never, storedAt: now },
        update: fromCarrier ? { content: carrier as never, storedAt: now } : {},
      });
    }
    const content = mergePartnerEvents(
      carrier,
      partnerEvents.map((e) => e.facts as unknown as PartnerEventFacts),
    ).document;
    const hash = contentHash(content);
    const previous =
      head.latestVersion > 0
        ? await tx.documentVersion.findUnique({
            where: { documentId_version: { documentId: head.id, version: head.latestVersion } },
          })
        : null;
    if (previous && previous.contentHash === hash) {
      const updated = fromCarrier
        ? await tx.carrierDocument.update({ where: { id: head.id }, data: synced })
        : head;
      return {
        document: updated,
        version: previous,
        content: previous.content as unknown as TrackingDocument,
        changed: false,
        changes: [],
      };
    }
    const previousContent = (previous?.content ?? null) as unknown as TrackingDocument | null;
    const withHistory: TrackingDocument = {
      ...content,
      etaHistory: mergeEtaHistory(previousContent, content),
    };
    const changes = diffDocuments(previousContent, withHistory);
    const version = await tx.documentVersion.create({
      data: {
        id: randomUUID(),
        documentId: head.id,
        version: head.latestVersion + 1,
        content: withHistory as never,
        contentHash: hash,
        changes: changes as never,
        summary: summaryFactsOf(withHistory) as never,
        fetchedAt: now,
      },
    });
    const updated = await tx.carrierDocument.update({
      where: { id: head.id },
      data: { latestVersion: version.version, ...synced },
    });
    return { document: updated, version, content: withHistory, changed: true, changes };
  }

  /** Remembers that the carrier could not be asked, for `stale_reason` on what is served meanwhile. */
  async recordFailure(
    { organizationId, carrierScac, referenceType, referenceKey }: DocumentKey,
    reason: string,
  ) {
    const now = this.clock.now();
    await this.prisma.$executeRaw`
      INSERT INTO carrier_documents
             (id, organization_id, carrier_scac, reference_type, reference_key, latest_version, last_attempt_at, last_failure_reason, created_at)
      VALUES (${randomUUID()}, ${organizationId}, ${carrierScac}, ${referenceType}::"ReferenceKind", ${referenceKey}, 0, ${now}, ${reason}, ${now})
      ON CONFLICT (organization_id, carrier_scac, reference_type, reference_key)
      DO UPDATE SET last_attempt_at = EXCLUDED.last_attempt_at, last_failure_reason = EXCLUDED.last_failure_reason`;
    await answersChanged({ organizations: [organizationId] });
  }

  /**
   * The newest version of many documents, in the order of `documentIds` (null where a document has
   * none), in one statement whatever their number: a page of shipments reads its documents at once.
   * Only what a reader needs of the version: not its diff.
   */
  async latestOfMany(documentIds: readonly string[]): Promise<(LatestDocument | null)[]> {
    if (documentIds.length === 0) return [];
    const wanted = new Set(documentIds);
    for (const id of wanted) answerReads("TrackingDocument", id);
    // Versions this process holds already come back without their content: one statement either way.
    const held = [...wanted].flatMap((id) => [...(this.heldByDocument.get(id) ?? [])]);
    const rows = await this.sql.query<RawDocument & RawVersion & { version_id: string }>(LATEST_OF_MANY, [
      [...wanted],
      held,
    ]);
    const byId = new Map<string, LatestDocument>();
    for (const row of rows) {
      // A row without content is a version this process holds (counted in `cached`); one with content was not.
      if (row.content !== null) this.options.cacheLookups?.miss();
      const version =
        row.content === null
          ? this.cached(row.id, row.version)
          : this.remember(toVersion({ ...row, id: row.version_id, document_id: row.id }));
      // Evicted between the two steps: read alone (rare; a cache smaller than a page).
      const resolved = version ?? (await this.versionOf(row.id, row.version));
      if (!resolved) continue;
      byId.set(row.id, {
        document: toDocument(row),
        version: resolved,
        content: resolved.content as unknown as TrackingDocument,
      });
    }
    return documentIds.map((id) => byId.get(id) ?? null);
  }
}

/**
 * Parsed versions a process keeps when not told (see `DocumentStore.versions`;
 * QUAYSIDE_DOCUMENT_CACHE_ENTRIES). It was 500: below the benchmark's pool of 1,000 documents, a walk
 * through them in turn found none held (6 hits in 69,408 reads), and each read parsed its document.
 */
export const VERSION_CACHE_SIZE = 5_000;

const DOCUMENT_COLUMNS = `d.id, d.organization_id, d.carrier_scac, d.reference_type::text AS reference_type,
       d.reference_key, d.latest_version, d.last_synced_at AT TIME ZONE 'UTC' AS last_synced_at,
       d.last_attempt_at AT TIME ZONE 'UTC' AS last_attempt_at, d.last_failure_reason,
       d.created_at AT TIME ZONE 'UTC' AS created_at`;

const DOCUMENT_BY_REFERENCE: PreparedStatement = {
  name: "document_by_reference",
  text: `SELECT ${DOCUMENT_COLUMNS} FROM carrier_documents d
 WHERE d.organization_id = $1 AND d.carrier_scac = $2 AND d.reference_type = $3::"ReferenceKind"
   AND d.reference_key = $4`,
};

const VERSION_BY_NUMBER: PreparedStatement = {
  name: "document_version_by_number",
  text: `SELECT v.id, v.document_id, v.version, v.content, v.content_hash, v.changes, v.summary,
       v.fetched_at AT TIME ZONE 'UTC' AS fetched_at
  FROM document_versions v WHERE v.document_id = $1 AND v.version = $2`,
};

/** `$2`: versions the process holds, `<document id>:<version>`, whose content need not travel. */
const LATEST_OF_MANY: PreparedStatement = {
  name: "documents_latest_of_many",
  text: `SELECT ${DOCUMENT_COLUMNS}, v.id AS version_id, v.version, v.content_hash, v.changes, v.summary,
       v.fetched_at AT TIME ZONE 'UTC' AS fetched_at,
       CASE WHEN (d.id || ':' || v.version) = ANY($2::text[]) THEN NULL ELSE v.content END AS content
  FROM carrier_documents d
  JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
 WHERE d.id = ANY($1::text[])`,
};

const CARRIERS_THAT_ANSWERED: PreparedStatement = {
  name: "carriers_that_answered",
  text: `SELECT d.carrier_scac AS scac
  FROM carrier_documents d
 WHERE d.reference_key = $2
   AND d.latest_version > 0
   AND (d.organization_id = $1
        OR (d.organization_id IS NULL
            AND d.id IN (SELECT s.document_id FROM shipments s
                          WHERE s.organization_id = $1 AND s.reference_key = $2)))
 ORDER BY d.last_synced_at DESC NULLS LAST, d.carrier_scac`,
};

interface RawDocument {
  id: string;
  organization_id: string | null;
  carrier_scac: string;
  reference_type: ReferenceKind;
  reference_key: string;
  latest_version: number;
  last_synced_at: Date | null;
  last_attempt_at: Date | null;
  last_failure_reason: string | null;
  created_at: Date;
}

interface RawVersion {
  id: string;
  document_id: string;
  version: number;
  content: unknown;
  content_hash: string;
  changes: unknown;
  summary: unknown;
  fetched_at: Date;
}

function toDocument(r: RawDocument): CarrierDocument {
  return {
    id: r.id,
    organizationId: r.organization_id,
    carrierScac: r.carrier_scac,
    referenceType: r.reference_type,
    referenceKey: r.reference_key,
    latestVersion: r.latest_version,
    lastSyncedAt: r.last_synced_at,
    lastAttemptAt: r.last_attempt_at,
    lastFailureReason: r.last_failure_reason,
    createdAt: r.created_at,
  };
}

function toVersion(r: RawVersion): DocumentVersion {
  return {
    id: r.id,
    documentId: r.document_id,
    version: r.version,
    content: r.content as DocumentVersion["content"],
    contentHash: r.content_hash,
    changes: r.changes as DocumentVersion["changes"],
    summary: r.summary as DocumentVersion["summary"],
    fetchedAt: r.fetched_at,
  };
}

/** Everything but the fetch time and our own ETA history: two fetches of the same facts hash alike. */
function contentHash(doc: TrackingDocument): string {
  const { fetchedAt: _fetchedAt, etaHistory: _etaHistory, ...facts } = doc;
  return createHash("sha256").update(JSON.stringify(facts)).digest("hex");
}

function mergeEtaHistory(previous: TrackingDocument | null, next: TrackingDocument): EtaRevision[] {
  const history = [...(previous?.etaHistory ?? [])];
  const eta = etaOf(next);
  const last = history.at(-1);
  if (
    eta &&
    next.route.pod.localDateTime &&
    (!last || last.eta !== eta || last.actual !== Boolean(next.route.pod.actual))
  ) {
    history.push({
      eta,
      localDateTime: next.route.pod.localDateTime,
      recordedAt: next.fetchedAt,
      actual: Boolean(next.route.pod.actual),
    });
  }
  return history.length > 0 ? history : next.etaHistory;
}
