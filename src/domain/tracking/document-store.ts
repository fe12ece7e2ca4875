import { createHash, randomUUID } from "node:crypto";
import type { CarrierDocument, DocumentVersion, PrismaClient } from "../../generated/prisma/client";
import type { ReferenceKind } from "../../generated/prisma/enums";
import type { Clock } from "../../lib/clock";
import { type DocumentChange, diffDocuments, etaOf } from "./document-diff";
import type { EtaRevision, TrackingDocument } from "./model";
import { summaryFactsOf } from "./summary-facts";

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
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async find(
    organizationId: string,
    carrierScac: string,
    referenceType: ReferenceKind,
    referenceKey: string,
  ) {
    return this.prisma.carrierDocument.findFirst({
      where: { organizationId, carrierScac, referenceType, referenceKey },
    });
  }

  async latest(document: CarrierDocument): Promise<StoredDocument | null> {
    if (document.latestVersion === 0) return null;
    const version = await this.prisma.documentVersion.findUnique({
      where: { documentId_version: { documentId: document.id, version: document.latestVersion } },
    });
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
    const rows = await this.prisma.$queryRaw<{ scac: string }[]>`
      SELECT d.carrier_scac AS scac
        FROM carrier_documents d
       WHERE d.reference_key = ${referenceKey}
         AND d.latest_version > 0
         AND (d.organization_id = ${organizationId}
              OR (d.organization_id IS NULL
                  AND d.id IN (SELECT s.document_id FROM shipments s
                                WHERE s.organization_id = ${organizationId}
                                  AND s.reference_key = ${referenceKey})))
       ORDER BY d.last_synced_at DESC NULLS LAST, d.carrier_scac`;
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

  /** Stores a carrier answer for an organisation; writes a version only when the content changed. */
  async record(
    organizationId: string,
    carrierScac: string,
    referenceType: ReferenceKind,
    referenceKey: string,
    content: TrackingDocument,
  ): Promise<StoredDocument & { changed: boolean; changes: DocumentChange[] }> {
    const now = this.clock.now();
    const hash = contentHash(content);
    return this.prisma.$transaction(async (tx) => {
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
      const previous =
        head.latestVersion > 0
          ? await tx.documentVersion.findUnique({
              where: { documentId_version: { documentId: head.id, version: head.latestVersion } },
            })
          : null;
      if (previous && previous.contentHash === hash) {
        const updated = await tx.carrierDocument.update({
          where: { id: head.id },
          data: { lastSyncedAt: now, lastAttemptAt: now, lastFailureReason: null },
        });
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
        data: {
          latestVersion: version.version,
          lastSyncedAt: now,
          lastAttemptAt: now,
          lastFailureReason: null,
        },
      });
      return { document: updated, version, content: withHistory, changed: true, changes };
    });
  }

  /** Remembers that the carrier could not be asked, for `stale_reason` on what is served meanwhile. */
  async recordFailure(
    organizationId: string,
    carrierScac: string,
    referenceType: ReferenceKind,
    referenceKey: string,
    reason: string,
  ) {
    const now = this.clock.now();
    await this.prisma.$executeRaw`
      INSERT INTO carrier_documents
             (id, organization_id, carrier_scac, reference_type, reference_key, latest_version, last_attempt_at, last_failure_reason, created_at)
      VALUES (${randomUUID()}, ${organizationId}, ${carrierScac}, ${referenceType}::"ReferenceKind", ${referenceKey}, 0, ${now}, ${reason}, ${now})
      ON CONFLICT (organization_id, carrier_scac, reference_type, reference_key)
      DO UPDATE SET last_attempt_at = EXCLUDED.last_attempt_at, last_failure_reason = EXCLUDED.last_failure_reason`;
  }

  /**
   * The newest version of many documents, in the order of `documentIds` (null where a document has
   * none), in one statement whatever their number: a page of shipments reads its documents at once.
   * Only what a reader needs of the version: not its diff.
   */
  async latestOfMany(documentIds: readonly string[]): Promise<(LatestDocument | null)[]> {
    const rows = await this.prisma.$queryRaw<
      {
        document_id: string;
        organization_id: string | null;
        carrier_scac: string;
        reference_type: ReferenceKind;
        reference_key: string;
        latest_version: number;
        last_synced_at: Date | null;
        last_attempt_at: Date | null;
        last_failure_reason: string | null;
        created_at: Date;
        version_id: string;
        version: number;
        fetched_at: Date;
        content: TrackingDocument;
      }[]
    >`SELECT d.id AS document_id, d.organization_id, d.carrier_scac, d.reference_type::text AS reference_type, d.reference_key,
             d.latest_version, d.last_synced_at, d.last_attempt_at, d.last_failure_reason, d.created_at,
             v.id AS version_id, v.version, v.fetched_at, v.content
        FROM carrier_documents d
        JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
       WHERE d.id = ANY(${[...documentIds]}::text[])`;
    const byId = new Map(
      rows.map((r): [string, LatestDocument] => [
        r.document_id,
        {
          document: {
            id: r.document_id,
            organizationId: r.organization_id,
            carrierScac: r.carrier_scac,
            referenceType: r.reference_type,
            referenceKey: r.reference_key,
            latestVersion: r.latest_version,
            lastSyncedAt: r.last_synced_at,
            lastAttemptAt: r.last_attempt_at,
            lastFailureReason: r.last_failure_reason,
            createdAt: r.created_at,
          },
          version: { id: r.version_id, version: r.version, fetchedAt: r.fetched_at },
          content: r.content,
        },
      ]),
    );
    return documentIds.map((id) => byId.get(id) ?? null);
  }
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
