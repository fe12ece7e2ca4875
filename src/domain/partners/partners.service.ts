import { randomUUID } from "node:crypto";
import { type PartnerSource, Prisma, type PrismaClient } from "../../generated/prisma/client";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import { featureAccess } from "../accounts/principal";
import { predictionVersionOf } from "../eta/eta.service";
import { shipmentIdWhere, shipmentName } from "../shipments/shipment-id";
import type { DocumentStore } from "../tracking/document-store";
import { nextRefreshAt } from "../tracking/shipment-facts";
import { summaryFactsOf } from "../tracking/summary-facts";
import { shipmentEvents } from "../webhooks/events";
import type { WebhooksService } from "../webhooks/webhooks.service";
import { checkPartnerEvent, type PartnerEventFacts, type PartnerEventInput } from "./partner-event";
import { checkPartnerSignature, generatePartnerSecret } from "./partner-signature";

/** At most this many events in one post: a batch is one transaction per document it touches. */
export const MAX_PARTNER_EVENTS = 100;
export const MAX_SOURCE_NAME = 80;
/** Sources an organisation may keep at once. */
export const MAX_PARTNER_SOURCES = 50;

/**
 * What happened to one posted event:
 * - `applied`: on the shipment's timeline now;
 * - `superseded`: kept, but the carrier reported this milestone itself, and a carrier's event wins
 *   (docs/decisions/partner-events.md);
 * - `duplicate`: this source sent this event id before (a replay): nothing changed;
 * - `invalid`: refused, with the reason; nothing of it was kept.
 */
export type PartnerEventOutcome = "applied" | "superseded" | "duplicate" | "invalid";

export interface PartnerEventResult {
  index: number;
  eventId: string | null;
  outcome: PartnerEventOutcome;
  /** The shipment the event is about (`SHP-12`); null when it could not be found. */
  shipmentId: string | null;
  /** Why, for `invalid`, `duplicate` and `superseded`; null when applied. */
  message: string | null;
}

export type SignedIngestion =
  | { kind: "accepted"; results: PartnerEventResult[] }
  | {
      kind: "refused";
      reason: "unknown_source" | "stale" | "forged" | "malformed" | "bad_body";
      message: string;
    };

export interface PartnersDeps {
  prisma: PrismaClient;
  clock: Clock;
  documents: DocumentStore;
  webhooks: WebhooksService;
  /** Seals the signing secrets at rest (docs/decisions/secrets-at-rest.md). */
  secrets: SecretBox;
}

/**
 * Partner sources and the events they post (issue 41). An event is validated on its own, stored once
 * per (source, sender's id), and merged into the shipment's document as a new version, exactly as a
 * poll's change is stored: same diff, same domain events and webhooks, same cache invalidation.
 */
export class PartnersService {
  constructor(private readonly deps: PartnersDeps) {}

  list(organizationId: string): Promise<PartnerSource[]> {
    return this.deps.prisma.partnerSource.findMany({
      where: { organizationId, removedAt: null },
      orderBy: { createdAt: "asc" },
    });
  }

  find(organizationId: string, id: string): Promise<PartnerSource | null> {
    return this.deps.prisma.partnerSource.findFirst({ where: { id, organizationId, removedAt: null } });
  }

  async create(
    organizationId: string,
    name: string,
  ): Promise<{ source: PartnerSource; signingSecret: string } | { kind: "invalid"; reason: string }> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_SOURCE_NAME)
      return {
        kind: "invalid",
        reason: `The name is 1 to ${MAX_SOURCE_NAME} characters, e.g. "Rotterdam Drayage BV".`,
      };
    const count = await this.deps.prisma.partnerSource.count({ where: { organizationId, removedAt: null } });
    if (count >= MAX_PARTNER_SOURCES)
      return {
        kind: "invalid",
        reason: `An organisation keeps at most ${MAX_PARTNER_SOURCES} partner sources.`,
      };
    const signingSecret = generatePartnerSecret();
    const source = await this.deps.prisma.partnerSource.create({
      data: {
        id: randomUUID(),
        organizationId,
        name: trimmed,
        signingSecret: this.deps.secrets.seal(signingSecret),
        createdAt: this.deps.clock.now(),
      },
    });
    await answersChanged({ organizations: [organizationId] });
    return { source, signingSecret };
  }

  async rotateSecret(organizationId: string, id: string) {
    const source = await this.find(organizationId, id);
    if (!source) return null;
    const signingSecret = generatePartnerSecret();
    const updated = await this.deps.prisma.partnerSource.update({
      where: { id },
      data: { signingSecret: this.deps.secrets.seal(signingSecret) },
    });
    await answersChanged({ organizations: [organizationId] });
    return { source: updated, signingSecret };
  }

  /** The source stops being able to post; the events it already sent stay on the timelines. */
  async remove(organizationId: string, id: string): Promise<PartnerSource | null> {
    const source = await this.find(organizationId, id);
    if (!source) return null;
    const removed = await this.deps.prisma.partnerSource.update({
      where: { id },
      data: { removedAt: this.deps.clock.now() },
    });
    await answersChanged({ organizations: [organizationId] });
    return removed;
  }

  /**
   * The signed inbound webhook: no key, the source's secret is the credential. The body is checked
   * byte for byte as it came, then read as `{ "events": [...] }` with the v1 field names.
   */
  async receiveSigned(
    sourceId: string,
    timestamp: string | undefined,
    signature: string | undefined,
    body: string,
  ): Promise<SignedIngestion> {
    const source = /^[0-9a-f-]{36}$/i.test(sourceId)
      ? await this.deps.prisma.partnerSource.findFirst({ where: { id: sourceId, removedAt: null } })
      : null;
    if (!source)
      return {
        kind: "refused",
        reason: "unknown_source",
        message: "There is no partner source with this id.",
      };
    const nowSeconds = Math.floor(this.deps.clock.now().getTime() / 1000);
    const check = checkPartnerSignature(this.deps.secrets.open(source.signingSecret), {
      timestamp,
      signature,
      body,
      nowSeconds,
    });
    if (!check.ok) {
      const message = {
        malformed:
          'Sign the request: X-Quayside-Timestamp (Unix seconds) and X-Quayside-Signature (v1=<hex HMAC-SHA256 of "<timestamp>.<body>">).',
        stale:
          "X-Quayside-Timestamp is more than 5 minutes from our clock: sign the request when you send it.",
        forged: "X-Quayside-Signature does not match the body signed with this source's secret.",
      }[check.reason];
      return { kind: "refused", reason: check.reason, message };
    }
    const events = wireEvents(body);
    if (!events) {
      return {
        kind: "refused",
        reason: "bad_body",
        message: `The body must be JSON: {"events": [...]} with 1 to ${MAX_PARTNER_EVENTS} events.`,
      };
    }
    return { kind: "accepted", results: (await this.ingest(source.organizationId, source.id, events)) ?? [] };
  }

  /**
   * Takes a batch of one source's events: each one validated on its own, a replayed id changes
   * nothing, and every document touched gets one new version with all of them.
   */
  async ingest(organizationId: string, sourceId: string, inputs: readonly PartnerEventInput[]) {
    const { prisma, clock, documents } = this.deps;
    const source = await this.find(organizationId, sourceId);
    if (!source) return null;
    const now = clock.now();
    const results: PartnerEventResult[] = [];
    const seen = new Set<string>();
    const touched = new Map<string, { shipmentId: string; documentId: string }>();
    const accepted: { index: number; facts: PartnerEventFacts; documentId: string }[] = [];

    for (const [index, input] of inputs.entries()) {
      const refuse = (message: string, shipmentId: string | null = null) =>
        results.push({ index, eventId: input.eventId ?? null, outcome: "invalid", shipmentId, message });
      const check = checkPartnerEvent(input, now);
      if (!check.ok) {
        refuse(check.message);
        continue;
      }
      const { shipment: named, ...rest } = check.facts;
      const shipment = await prisma.shipment.findFirst({ where: shipmentIdWhere(organizationId, named) });
      if (!shipment) {
        refuse(
          `shipment: ${named} is not tracked by your organisation (a shipment id such as SHP-12, or the tracked reference).`,
        );
        continue;
      }
      const name = shipmentName(shipment.number);
      if (shipment.failedAt || !shipment.documentId) {
        refuse(`shipment: ${name} has no carrier answer yet; partner events join a tracked journey.`, name);
        continue;
      }
      const document = await prisma.carrierDocument.findUnique({ where: { id: shipment.documentId } });
      const stored = document ? await documents.latest(document) : null;
      if (!stored) {
        refuse(`shipment: ${name} has no carrier answer yet; partner events join a tracked journey.`, name);
        continue;
      }
      const boxes = stored.content.containers.map((c) => c.number);
      if (rest.containerNumber !== null && !boxes.includes(rest.containerNumber)) {
        refuse(
          `equipment_reference: ${rest.containerNumber} is not on ${name} (${boxes.join(", ") || "no containers yet"}).`,
          name,
        );
        continue;
      }
      if (rest.containerNumber === null && boxes.length !== 1) {
        refuse(
          `equipment_reference is required: ${name} has ${boxes.length} containers (${boxes.join(", ")}).`,
          name,
        );
        continue;
      }
      if (seen.has(rest.senderEventId)) {
        results.push({
          index,
          eventId: rest.senderEventId,
          outcome: "duplicate",
          shipmentId: name,
          message: "The same event_id appears earlier in this batch.",
        });
        continue;
      }
      seen.add(rest.senderEventId);
      const facts: PartnerEventFacts = { ...rest, sourceId: source.id, sourceName: source.name };
      // The sender's id is the identity: a replay (or a retry after a lost answer) inserts nothing.
      const inserted = await prisma.$executeRaw`
        INSERT INTO partner_events (id, organization_id, source_id, sender_event_id, shipment_id, reference_key, facts, received_at)
        VALUES (${randomUUID()}, ${organizationId}, ${source.id}, ${facts.senderEventId}, ${shipment.id}, ${shipment.referenceKey}, ${JSON.stringify(facts)}::jsonb, ${now})
        ON CONFLICT (source_id, sender_event_id) DO NOTHING`;
      if (inserted === 0) {
        results.push({
          index,
          eventId: facts.senderEventId,
          outcome: "duplicate",
          shipmentId: name,
          message: "This source sent this event_id before: a replay changes nothing.",
        });
        continue;
      }
      accepted.push({ index, facts, documentId: shipment.documentId });
      touched.set(shipment.documentId, { shipmentId: shipment.id, documentId: shipment.documentId });
      results.push({
        index,
        eventId: facts.senderEventId,
        outcome: "applied",
        shipmentId: name,
        message: null,
      });
    }

    const contents = new Map<string, PartnerStored>();
    for (const { shipmentId, documentId } of touched.values()) {
      const stored = await documents.reapplyPartnerEvents(documentId);
      if (!stored) continue;
      contents.set(documentId, stored);
      if (stored.changed) await this.settleShipment(shipmentId, stored);
    }
    // An event the merge left out is on record, but the carrier's own report of that milestone wins.
    for (const { index, facts, documentId } of accepted) {
      const content = contents.get(documentId)?.content;
      const shown =
        facts.kind === "POSITION" ||
        content?.containers.some((c) =>
          c.events.some(
            (e) => e.source?.sourceId === facts.sourceId && e.source.eventId === facts.senderEventId,
          ),
        );
      if (!shown) {
        const result = results.find((r) => r.index === index)!;
        result.outcome = "superseded";
        result.message =
          "The carrier reported this milestone itself: its event stands, this one is kept on record.";
      }
    }
    if (accepted.length > 0) {
      await prisma.partnerSource.update({ where: { id: source.id }, data: { lastEventAt: now } });
      await answersChanged({ organizations: [organizationId] });
    }
    return results;
  }

  /** The shipment row follows its document's new version as after a poll: facts, events, webhooks. */
  private async settleShipment(shipmentId: string, stored: PartnerStored): Promise<void> {
    const { prisma, clock, webhooks } = this.deps;
    const now = clock.now();
    const content = stored.content;
    const shipment = await prisma.$transaction(async (tx) => {
      const before = await tx.shipment.findUniqueOrThrow({
        where: { id: shipmentId },
        include: { organization: true },
      });
      const status = content.status;
      const eta = content.route.pod.instant ? new Date(content.route.pod.instant) : null;
      const updated = await tx.shipment.update({
        where: { id: shipmentId },
        data: {
          status,
          eta,
          ata: content.ata ? new Date(content.ata) : null,
          summary: summaryFactsOf(content) as unknown as Prisma.InputJsonObject,
          updatedAt: now,
          nextRefreshAt: nextRefreshAt({ shipmentId, status, lastSyncedAt: before.lastSyncedAt, eta, now }),
          // A prediction belongs to the version it was computed from (docs/decisions/eta.md).
          ...(predictionVersionOf(before.predictedEta) === stored.version.id
            ? {}
            : {
                predictedEta: Prisma.DbNull,
                etaDueAt: featureAccess(before.organization, "predictive_eta") === "on" ? now : null,
              }),
        },
      });
      await webhooks.enqueue(tx, before.organizationId, shipmentEvents(before, content, updated));
      return updated;
    });
    await answersChanged({ shipments: [shipment] });
  }

  /**
   * The partner events of shipments in one statement (a list's rows read them once, not per row),
   * each shipment's newest first.
   */
  async eventsOfMany(shipments: readonly { id: string; organizationId: string }[]) {
    if (shipments.length === 0) return [];
    const rows = await this.deps.prisma.partnerEvent.findMany({
      where: {
        organizationId: { in: [...new Set(shipments.map((s) => s.organizationId))] },
        shipmentId: { in: shipments.map((s) => s.id) },
      },
      orderBy: { receivedAt: "desc" },
    });
    const byShipment = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.organizationId}:${row.shipmentId}`;
      byShipment.set(key, [...(byShipment.get(key) ?? []), row]);
    }
    return shipments.map((s) => byShipment.get(`${s.organizationId}:${s.id}`) ?? []);
  }
}

type PartnerStored = NonNullable<Awaited<ReturnType<DocumentStore["reapplyPartnerEvents"]>>>;

const text = (v: unknown) => (typeof v === "string" ? v : v == null ? null : String(v));
const number = (v: unknown) => (typeof v === "number" ? v : v == null ? null : Number.NaN);

/** The signed webhook's body: `{ "events": [...] }` in the v1 (snake_case) field names. */
function wireEvents(body: string): PartnerEventInput[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const events = (parsed as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_PARTNER_EVENTS) return null;
  return events.map((raw) => fromWire(raw));
}

/** One event in the v1 spelling, as the v1 route and the signed webhook take it. */
export function fromWire(raw: unknown): PartnerEventInput {
  const e = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const location = (typeof e.location === "object" && e.location !== null ? e.location : {}) as Record<
    string,
    unknown
  >;
  return {
    eventId: text(e.event_id),
    eventType: text(e.event_type),
    eventCode: text(e.event_code),
    eventClassifierCode: text(e.event_classifier_code),
    eventDateTime: text(e.event_date_time),
    shipment: text(e.shipment_id ?? e.reference),
    equipmentReference: text(e.equipment_reference),
    emptyIndicatorCode: text(e.empty_indicator_code),
    modeOfTransport: text(e.mode_of_transport),
    facilityTypeCode: text(e.facility_type_code),
    locationName: text(location.name),
    unLocationCode: text(location.un_location_code),
    latitude: number(location.latitude),
    longitude: number(location.longitude),
  };
}
