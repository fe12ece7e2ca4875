import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { TrackingDocument } from "../tracking/model";
import { type DisruptionCategory, isDisruptionCategory, LONGEST_FOLLOW_MS } from "./categories";
import type { Severity } from "./classify";
import type { DisruptionEvent, DisruptionStatus, EventSource } from "./events";
import { resolveIfSilent, silenceWindowMs } from "./events";
import { exposureOf } from "./exposure";
import { type MatchType, matchTypes, type ShipmentExposure } from "./matching";
import type { FeedItem } from "./normalise";
import { normaliseItem } from "./normalise";
import { ingestItem, type PipelineState } from "./pipeline";

/** A published disruption as every surface reads it. */
export interface DisruptionRecord {
  id: string;
  category: DisruptionCategory;
  severity: Severity;
  status: DisruptionStatus;
  entities: { ports: string[]; carriers: string[]; countries: string[]; chokepoints: string[] };
  headline: string;
  summary: string;
  sources: EventSource[];
  firstSeen: Date;
  lastUpdated: Date;
  resolvedAt: Date | null;
}

export interface DisruptionFilter {
  /** Minimum severity, 1 to 4. */
  severity: number;
  category: DisruptionCategory | null;
  port: string | null;
  carrier: string | null;
  country: string | null;
  status: DisruptionStatus;
  /** Only events updated at or after this instant. */
  since: Date | null;
  page: number;
  pageSize: number;
  /** Only disruptions touching a shipment of this organisation (MCP `get_route_news` with `mine`). */
  touchingOrganizationId?: string | null;
}

/** The longest an item may follow an event after its last report (45 days), plus slack. */
const OPEN_EVENT_LOOKBACK_MS = LONGEST_FOLLOW_MS + 86_400_000;
/** How far back a publisher's titles are compared for a re-issued item. */
const DUPLICATE_LOOKBACK_MS = 7 * 86_400_000;
/** At most this many disruptions per shipment (v1 GET /shipments/{id}/disruptions). */
export const MAX_SHIPMENT_DISRUPTIONS = 10;
/** At most this many references in `affected`. */
export const MAX_AFFECTED_REFERENCES = 5;
/** Serialises clustering across processes: two items must not both start the same event. */
const CLUSTERING_LOCK = 20_251_125;

type DisruptionRow = Prisma.DisruptionGetPayload<object>;

function sourcesOf(json: Prisma.JsonValue): EventSource[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((raw) => {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [];
    const s = raw as Record<string, unknown>;
    return [
      {
        publisher: String(s.publisher ?? ""),
        title: String(s.title ?? ""),
        link: typeof s.link === "string" ? s.link : null,
        publishedAt: new Date(String(s.publishedAt)),
        authoritative: s.authoritative === true,
      },
    ];
  });
}

export function recordOf(row: DisruptionRow): DisruptionRecord {
  return {
    id: row.id,
    category: isDisruptionCategory(row.category) ? row.category : "port_disruption",
    severity: Math.min(4, Math.max(1, row.severity)) as Severity,
    status: row.status === "resolved" ? "resolved" : "active",
    entities: {
      ports: row.ports,
      carriers: row.carriers,
      countries: row.countries,
      chokepoints: row.chokepoints,
    },
    headline: row.headline,
    summary: row.summary,
    sources: sourcesOf(row.sources),
    firstSeen: row.firstSeen,
    lastUpdated: row.lastUpdated,
    resolvedAt: row.resolvedAt,
  };
}

/**
 * How a row stored before `resolvedBy` was kept was resolved: the silence rule dates its resolution
 * exactly one silence window (as it scales with the event's span) after the last report.
 */
function resolvedByOf(row: DisruptionRow): "report" | "silence" {
  const category = isDisruptionCategory(row.category) ? row.category : "port_disruption";
  const due =
    row.lastUpdated.getTime() +
    silenceWindowMs({ category, firstSeen: row.firstSeen, lastUpdated: row.lastUpdated });
  return row.resolvedAt?.getTime() === due ? "silence" : "report";
}

/** The event's clustering state back from JSON (dates revived). */
function eventOf(row: DisruptionRow): DisruptionEvent {
  const state = (row.state ?? {}) as unknown as Partial<Omit<DisruptionEvent, "expectedUntil">> & {
    candidateSources?: (EventSource & { publishedAt: string })[];
    expectedUntil?: string | null;
  };
  const record = recordOf(row);
  return {
    id: row.id,
    category: record.category,
    severity: record.severity,
    itemSeverity: (state.itemSeverity ?? record.severity) as Severity,
    status: record.status,
    entities: record.entities,
    firstSeen: row.firstSeen,
    lastUpdated: row.lastUpdated,
    resolvedAt: row.resolvedAt,
    resolvedBy: row.status !== "resolved" ? null : (state.resolvedBy ?? resolvedByOf(row)),
    expectedUntil: state.expectedUntil ? new Date(state.expectedUntil) : null,
    headline: row.headline,
    summary: row.summary,
    sources: record.sources,
    publishers: state.publishers ?? [...new Set(record.sources.map((s) => s.publisher))],
    itemCount: state.itemCount ?? record.sources.length,
    categoryCounts: state.categoryCounts ?? { [record.category]: 1 },
    signalCounts: state.signalCounts ?? {},
    terms: state.terms ?? {},
    recentTitles: state.recentTitles ?? [],
    candidateSources: (state.candidateSources ?? []).map((s) => ({
      ...s,
      publishedAt: new Date(s.publishedAt),
    })),
  };
}

function columnsOf(event: DisruptionEvent) {
  const {
    publishers,
    itemCount,
    categoryCounts,
    signalCounts,
    terms,
    recentTitles,
    candidateSources,
    itemSeverity,
    resolvedBy,
    expectedUntil,
  } = event;
  return {
    category: event.category,
    severity: event.severity,
    status: event.status,
    ports: event.entities.ports,
    carriers: event.entities.carriers,
    countries: event.entities.countries,
    chokepoints: event.entities.chokepoints,
    headline: event.headline,
    summary: event.summary,
    sources: event.sources as unknown as Prisma.InputJsonValue,
    firstSeen: event.firstSeen,
    lastUpdated: event.lastUpdated,
    resolvedAt: event.resolvedAt,
    state: {
      publishers,
      itemCount,
      categoryCounts,
      signalCounts,
      terms,
      recentTitles,
      candidateSources,
      itemSeverity,
      resolvedBy,
      expectedUntil: expectedUntil ?? null,
    } as unknown as Prisma.InputJsonValue,
  };
}

export interface IngestReport {
  accepted: number;
  duplicates: number;
  irrelevant: number;
  /** Events created or changed (their matches were recomputed). */
  events: string[];
}

export interface SourceDescriptor {
  id: string;
  publisher: string;
  kind: string;
  authoritative: boolean;
}

/**
 * Disruptions: the stored side of the pipeline. Items go through the pure pipeline against the open
 * events read from the database, one at a time under a lock (so two processes never start the same
 * event twice); events are matched to active shipments and the matches stored, so a shipment's list
 * and a disruption's `affected` are each one query.
 */
export class DisruptionsService {
  private readonly exposures = new Map<string, ShipmentExposure>();

  private readonly newId: () => string;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    /** Ids of new events; random unless a world needs them fixed (the sandbox). */
    options: { newId?: () => string } = {},
  ) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Items of one source through the pipeline, in publication order; events touched are rematched. */
  async ingest(source: SourceDescriptor, items: readonly FeedItem[]): Promise<IngestReport> {
    const report: IngestReport = { accepted: 0, duplicates: 0, irrelevant: 0, events: [] };
    const ordered = [...items]
      .sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime())
      .map(
        (raw): FeedItem => ({
          ...raw,
          sourceId: source.id,
          publisher: raw.publisher || source.publisher,
          authoritative: raw.authoritative ?? source.authoritative,
          categoryPrior:
            raw.categoryPrior ?? (source.kind === "gdacs" || source.kind === "nhc" ? "weather" : null),
        }),
      );
    // A feed lists its recent items at every fetch: those stored already (the same identity, a
    // duplicate whatever else the pipeline knows) are counted in one statement, not each put through
    // a transaction under the clustering lock.
    const identities = ordered.map((item) => normaliseItem(item).identity);
    const stored = await this.prisma.disruptionItem.findMany({
      where: { identity: { in: identities } },
      select: { identity: true },
    });
    const known = new Set(stored.map((row) => row.identity));
    // Events an item resolved without joining them (by silence, or a report of several ends): their
    // matches go, as the silence sweep's do.
    const resolved = new Set<string>();
    for (const [at, item] of ordered.entries()) {
      if (known.has(identities[at]!)) {
        report.duplicates++;
        continue;
      }
      const kind = await this.ingestOne(item);
      if (kind.kind === "duplicate") report.duplicates++;
      else if (kind.kind === "irrelevant") report.irrelevant++;
      else report.accepted++;
      if (kind.eventId && !report.events.includes(kind.eventId)) report.events.push(kind.eventId);
      for (const id of kind.resolved ?? []) resolved.add(id);
    }
    for (const id of report.events) await this.matchEvent(id);
    for (const id of resolved) if (!report.events.includes(id)) await this.matchEvent(id);
    return report;
  }

  private async ingestOne(
    raw: FeedItem,
  ): Promise<{ kind: string; eventId: string | null; resolved?: readonly string[] }> {
    const normalised = normaliseItem(raw);
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(${CLUSTERING_LOCK}::bigint)::text AS locked`;
      const seenRows = await tx.disruptionItem.findMany({
        where: {
          OR: [
            { identity: normalised.identity },
            ...(normalised.canonicalLink ? [{ canonicalLink: normalised.canonicalLink }] : []),
            {
              publisher: normalised.publisher,
              publishedAt: {
                gte: new Date(normalised.publishedAt.getTime() - DUPLICATE_LOOKBACK_MS),
                lte: new Date(normalised.publishedAt.getTime() + DUPLICATE_LOOKBACK_MS),
              },
            },
          ],
        },
        select: { identity: true, canonicalLink: true, publisher: true, foldedTitle: true },
      });
      const openRows = await tx.disruption.findMany({
        where: { lastUpdated: { gte: new Date(normalised.publishedAt.getTime() - OPEN_EVENT_LOOKBACK_MS) } },
      });
      const state: PipelineState = { events: openRows.map(eventOf), seen: seenRows };
      const step = ingestItem(state, raw, this.newId);
      const { outcome } = step;
      if (outcome.kind === "duplicate") return { kind: "duplicate", eventId: null };
      let eventId: string | null = null;
      if (outcome.kind === "created") {
        await tx.disruption.create({ data: { id: outcome.event.id, ...columnsOf(outcome.event) } });
        eventId = outcome.event.id;
      } else if (outcome.kind === "joined") {
        await tx.disruption.update({ where: { id: outcome.event.id }, data: columnsOf(outcome.event) });
        eventId = outcome.event.id;
        // Fragments the item tied to the event are that event now: their items move to it and the
        // fragment goes (its shipment matches with it; the event's are recomputed after ingestion).
        for (const fragment of outcome.absorbed) await this.absorb(tx, fragment, outcome.event.id);
      }
      // Events the new item's time resolved by silence, and those it reported the end of besides the
      // one it joined, are written back too; their shipment matches are recomputed after ingestion.
      const ended = outcome.kind === "joined" ? outcome.ended : [];
      const resolved: string[] = [];
      for (const event of step.state.events) {
        const before = openRows.find((r) => r.id === event.id);
        if (before && event.id !== eventId && (before.status !== event.status || ended.includes(event.id))) {
          await tx.disruption.update({ where: { id: event.id }, data: columnsOf(event) });
          resolved.push(event.id);
        }
      }
      await tx.disruptionItem.create({
        data: {
          sourceId: raw.sourceId,
          identity: outcome.item.identity,
          canonicalLink: outcome.item.canonicalLink,
          publisher: outcome.item.publisher,
          title: outcome.item.title.slice(0, 500),
          foldedTitle: outcome.item.foldedTitle.slice(0, 500),
          publishedAt: outcome.item.publishedAt,
          disruptionId: eventId,
        },
      });
      return { kind: outcome.kind, eventId, resolved };
    });
  }

  /**
   * One fragment merged into the event it is part of. Its id stays an alias of the event (and the ids
   * merged into it before, so a chain of merges ends at the survivor): a client that stored it, or a
   * mail that named it, still finds the event. Who was told of the fragment about which shipment was
   * told of the event: those notices move to it, so the merge never mails the same news again.
   */
  private async absorb(tx: Prisma.TransactionClient, fragment: string, into: string): Promise<void> {
    await tx.disruptionItem.updateMany({ where: { disruptionId: fragment }, data: { disruptionId: into } });
    await tx.disruptionAlias.updateMany({ where: { disruptionId: fragment }, data: { disruptionId: into } });
    await tx.disruptionAlias.create({
      data: { id: fragment, disruptionId: into, mergedAt: this.clock.now() },
    });
    await tx.$executeRaw`
      INSERT INTO disruption_notices (user_id, disruption_id, shipment_id, mailed_at)
      SELECT user_id, ${into}, shipment_id, mailed_at FROM disruption_notices WHERE disruption_id = ${fragment}
      ON CONFLICT DO NOTHING`;
    await tx.disruptionNotice.deleteMany({ where: { disruptionId: fragment } });
    await tx.disruption.delete({ where: { id: fragment } });
  }

  /** Resolves events silent for their category's window; their matches go. Returns how many. */
  async resolveSilent(): Promise<number> {
    const now = this.clock.now();
    const active = await this.prisma.disruption.findMany({ where: { status: "active" } });
    let resolved = 0;
    for (const row of active) {
      const event = resolveIfSilent(eventOf(row), now);
      if (event.status === "active") continue;
      await this.prisma.disruption.update({ where: { id: row.id }, data: columnsOf(event) });
      await this.prisma.shipmentDisruption.deleteMany({ where: { disruptionId: row.id } });
      resolved++;
    }
    return resolved;
  }

  private async activeShipments(where: Prisma.ShipmentWhereInput = {}) {
    return this.prisma.shipment.findMany({
      where: {
        ...where,
        deletedAt: null,
        status: { notIn: ["DELIVERED", "CANCELLED"] },
        documentId: { not: null },
      },
      select: {
        id: true,
        organizationId: true,
        carrierScac: true,
        document: { select: { id: true, latestVersion: true } },
      },
    });
  }

  /** The exposure of a shipment's current document version (cached per version: routes are costly). */
  private async exposure(shipment: {
    carrierScac: string | null;
    document: { id: string; latestVersion: number } | null;
  }): Promise<ShipmentExposure | null> {
    if (!shipment.document || shipment.document.latestVersion === 0) return null;
    const key = `${shipment.document.id}:${shipment.document.latestVersion}:${shipment.carrierScac ?? ""}`;
    const cached = this.exposures.get(key);
    if (cached) return cached;
    const version = await this.prisma.documentVersion.findUnique({
      where: {
        documentId_version: { documentId: shipment.document.id, version: shipment.document.latestVersion },
      },
      select: { content: true },
    });
    if (!version) return null;
    const exposure = exposureOf(version.content as unknown as TrackingDocument, shipment.carrierScac);
    if (this.exposures.size > 5_000) this.exposures.delete(this.exposures.keys().next().value!);
    this.exposures.set(key, exposure);
    return exposure;
  }

  /** Recomputes the matches of one event against every active shipment. */
  async matchEvent(disruptionId: string): Promise<number> {
    const row = await this.prisma.disruption.findUnique({ where: { id: disruptionId } });
    if (!row) return 0;
    const record = recordOf(row);
    const now = this.clock.now();
    const matches: Prisma.ShipmentDisruptionCreateManyInput[] = [];
    if (record.status === "active") {
      for (const shipment of await this.activeShipments()) {
        const exposure = await this.exposure(shipment);
        const types = exposure ? matchTypes(exposure, record.entities) : [];
        if (types.length === 0) continue;
        matches.push({
          shipmentId: shipment.id,
          disruptionId,
          organizationId: shipment.organizationId,
          matchTypes: types,
          computedAt: now,
        });
      }
    }
    await this.prisma.$transaction([
      this.prisma.shipmentDisruption.deleteMany({ where: { disruptionId } }),
      this.prisma.shipmentDisruption.createMany({ data: matches }),
    ]);
    return matches.length;
  }

  /** Recomputes one shipment's matches against every active event (its document changed). */
  async matchShipment(shipmentId: string): Promise<number> {
    const [shipment] = await this.activeShipments({ id: shipmentId });
    const now = this.clock.now();
    const matches: Prisma.ShipmentDisruptionCreateManyInput[] = [];
    const exposure = shipment ? await this.exposure(shipment) : null;
    if (shipment && exposure) {
      for (const row of await this.prisma.disruption.findMany({ where: { status: "active" } })) {
        const types = matchTypes(exposure, recordOf(row).entities);
        if (types.length > 0) {
          matches.push({
            shipmentId,
            disruptionId: row.id,
            organizationId: shipment.organizationId,
            matchTypes: types,
            computedAt: now,
          });
        }
      }
    }
    await this.prisma.$transaction([
      this.prisma.shipmentDisruption.deleteMany({ where: { shipmentId } }),
      this.prisma.shipmentDisruption.createMany({ data: matches }),
      this.prisma.shipment.updateMany({ where: { id: shipmentId }, data: { disruptionsMatchedAt: now } }),
    ]);
    return matches.length;
  }

  /**
   * Shipments whose document changed since their matches were computed (a refresh, a new shipment):
   * rematched, at most `limit` per call. Delivered or deleted ones lose their matches.
   */
  async rematchChangedShipments(limit: number): Promise<number> {
    const stale = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT id FROM shipments
      WHERE deleted_at IS NULL AND status NOT IN ('DELIVERED', 'CANCELLED') AND document_id IS NOT NULL
        AND (disruptions_matched_at IS NULL OR updated_at > disruptions_matched_at)
      ORDER BY updated_at
      LIMIT ${limit}`;
    for (const { id } of stale) await this.matchShipment(id);
    await this.prisma.$executeRaw`
      DELETE FROM shipment_disruptions m USING shipments s
      WHERE m.shipment_id = s.id AND (s.deleted_at IS NOT NULL OR s.status IN ('DELIVERED', 'CANCELLED'))`;
    return stale.length;
  }

  /** v1 GET /disruptions: most severe first, then most recently updated; filters combine with AND. */
  async list(filter: DisruptionFilter): Promise<{ total: number; items: DisruptionRecord[] }> {
    const where: Prisma.DisruptionWhereInput = {
      status: filter.status,
      severity: { gte: filter.severity },
      ...(filter.category ? { category: filter.category } : {}),
      ...(filter.port ? { ports: { has: filter.port } } : {}),
      ...(filter.carrier ? { carriers: { has: filter.carrier } } : {}),
      ...(filter.country ? { countries: { has: filter.country } } : {}),
      ...(filter.since ? { lastUpdated: { gte: filter.since } } : {}),
      ...(filter.touchingOrganizationId
        ? { matches: { some: { organizationId: filter.touchingOrganizationId } } }
        : {}),
    };
    const [total, rows] = await Promise.all([
      this.prisma.disruption.count({ where }),
      this.prisma.disruption.findMany({
        where,
        orderBy: [{ severity: "desc" }, { lastUpdated: "desc" }, { id: "asc" }],
        skip: (filter.page - 1) * filter.pageSize,
        take: filter.pageSize,
      }),
    ]);
    return { total, items: rows.map(recordOf) };
  }

  /** One disruption by id; the id of a fragment merged into another answers that other one. */
  async get(id: string): Promise<DisruptionRecord | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const key = id.toLowerCase();
    // A fragment merged into another disruption answers as that one (with that one's id).
    const row =
      (await this.prisma.disruption.findUnique({ where: { id: key } })) ??
      (await this.prisma.disruptionAlias.findUnique({ where: { id: key }, include: { disruption: true } }))
        ?.disruption;
    return row ? recordOf(row) : null;
  }

  /** Active disruptions touching one shipment, most severe first, at most ten, with how. */
  async forShipment(
    shipmentId: string,
  ): Promise<{ disruption: DisruptionRecord; matchTypes: MatchType[] }[]> {
    const rows = await this.prisma.shipmentDisruption.findMany({
      where: { shipmentId, disruption: { status: "active" } },
      include: { disruption: true },
      orderBy: [{ disruption: { severity: "desc" } }, { disruption: { lastUpdated: "desc" } }],
      take: MAX_SHIPMENT_DISRUPTIONS,
    });
    return rows.map((r) => ({ disruption: recordOf(r.disruption), matchTypes: r.matchTypes as MatchType[] }));
  }

  /**
   * The caller's shipments a disruption touches: how many, and up to five references (the most
   * severe match first: a port of discharge before a country, then the soonest arrival).
   */
  async affected(
    organizationId: string,
    disruptionId: string,
  ): Promise<{ count: number; references: string[] }> {
    const rows = await this.prisma.shipmentDisruption.findMany({
      where: { organizationId, disruptionId, shipment: { deletedAt: null } },
      select: { matchTypes: true, shipment: { select: { reference: true, eta: true } } },
    });
    const rank = (types: string[]) => Math.min(...types.map((t) => MATCH_RANK[t] ?? 9));
    const ordered = [...rows].sort(
      (a, b) =>
        rank(a.matchTypes) - rank(b.matchTypes) ||
        (a.shipment.eta?.getTime() ?? Number.POSITIVE_INFINITY) -
          (b.shipment.eta?.getTime() ?? Number.POSITIVE_INFINITY) ||
        a.shipment.reference.localeCompare(b.shipment.reference),
    );
    return {
      count: rows.length,
      references: ordered.slice(0, MAX_AFFECTED_REFERENCES).map((r) => r.shipment.reference),
    };
  }

  /** Operators: every configured source and its health. */
  async sources() {
    return this.prisma.disruptionSource.findMany({ orderBy: { id: "asc" } });
  }
}

/** Which match says most about a shipment's risk: its own ports first, a whole country last. */
const MATCH_RANK: Readonly<Record<string, number>> = {
  pod: 0,
  transship: 1,
  pol: 2,
  lane_interest: 3,
  carrier: 4,
  country: 5,
};
