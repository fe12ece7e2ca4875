import DataLoader from "dataloader";
import { featureAccess } from "../../../domain/accounts/principal";
import {
  aheadBeyondPort,
  type FinalDestinationEta,
  finalDestinationEta,
  type InlandLeg,
  inlandLegs,
  type StoredPartnerFacts,
} from "../../../domain/eta/final-destination";
import type { PartnerEventFacts } from "../../../domain/partners/partner-event";
import { wallClock } from "../../../domain/routes/placed-locations";
import type { TrackingDocument } from "../../../domain/tracking/model";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { ShipmentRef } from "../shipments/shipment";
import { GeoPointRef } from "../tracking/geo-point";
import type { StoredDocumentView } from "../tracking/in-document";
import { latestDocuments } from "../tracking/latest-documents";
import { TrackingDocumentRef } from "../tracking/tracking-document";
import { EtaConfidenceEnum, etaLoader } from "./predictive-eta";

/** The journey after the port (issue 41, docs/decisions/final-destination-eta.md). */

const FinalDestinationEtaSourceEnum = builder.enumType("FinalDestinationEtaSource", {
  description: "What the predicted arrival at the final destination rests on.",
  values: {
    partner_position: {
      description:
        "A partner's newest position after the discharge: its distance to the destination times 1.3 at the inland leg's speed (truck 55, rail 40, barge 12 km/h).",
    },
    partner_estimate: {
      description: "A partner's own estimated arrival at the destination, posted after its newest position.",
    },
    inland_default: {
      description:
        "No partner position: the arrival at the port of discharge (actual, else its predictive ETA, else the carrier's) plus 72 hours at the port and the transit, or the actual departure inland plus the transit.",
    },
  } as const,
});

const InlandModeEnum = builder.enumType("InlandMode", {
  description: "How a box travels after (or before) the sea.",
  values: ["TRUCK", "RAIL", "BARGE"] as const,
});

const FinalDestinationEtaRef = builder.objectRef<FinalDestinationEta>("FinalDestinationEta").implement({
  description:
    "Our predicted arrival at the final destination (the place of delivery beyond the port of discharge): the port's predicted arrival plus the inland leg, or the inland leg from a partner's position or estimate.",
  fields: (t) => ({
    p50: t.expose("p50", {
      type: "DateTime",
      description: "Median predicted arrival at the final destination.",
    }),
    p80: t.expose("p80", { type: "DateTime", description: "Arrival is before this with 80% probability." }),
    source: t.field({ type: FinalDestinationEtaSourceEnum, resolve: (p) => p.source }),
    confidence: t.field({
      type: EtaConfidenceEnum,
      description:
        "high: a partner's position at most 2 hours old; medium: up to 12 hours old, or a partner's estimate; low: older, or the default.",
      resolve: (p) => p.confidence,
    }),
    computedAt: t.expose("computedAt", { type: "DateTime", description: "When it was computed." }),
    place: t.exposeString("place", { description: "The final destination's name." }),
    localDateTime: t.string({
      description:
        "p50 as the wall-clock time at the final destination, YYYY-MM-DD HH:MM:SS (compat route.postpod.predictive_eta).",
      resolve: (p) => wallClock(p.p50, p.timeZone),
    }),
    remainingKm: t.exposeInt("remainingKm", {
      nullable: true,
      description:
        "Straight-line kilometres from the partner's position (or the port of discharge) to the destination; null without coordinates.",
    }),
    mode: t.field({ type: InlandModeEnum, description: "The inland leg's mode.", resolve: (p) => p.mode }),
  }),
});

export const InlandLegRef = builder.objectRef<InlandLeg>("InlandLeg").implement({
  description:
    "A road, rail or barge leg drawn from a partner's positions: after the discharge it starts at the port of discharge.",
  fields: (t) => ({
    mode: t.field({ type: InlandModeEnum, resolve: (l) => l.mode }),
    path: t.field({
      type: [GeoPointRef],
      extensions: { listSize: 200 },
      description: "The points in time order.",
      resolve: (l) => l.path,
    }),
    from: t.expose("from", { type: "DateTime", description: "The leg's first position's time." }),
    to: t.expose("to", { type: "DateTime", description: "The leg's newest position's time." }),
  }),
});

const enabled = (ctx: GraphQLContext) =>
  ctx.principal !== null && featureAccess(ctx.principal.organization, "predictive_eta") === "on";

interface OwnShipment {
  id: string;
  organizationId: string;
  documentId: string | null;
  predictedEta: unknown;
}

interface PartnerReads {
  facts: DataLoader<{ id: string; organizationId: string }, StoredPartnerFacts[], string>;
  own: DataLoader<string, OwnShipment | null, string>;
}
/**
 * Per request: a tracking document's ETA and legs read its shipment and partner events once, and a
 * list's rows read their documents and partner events in one statement each (not one per row).
 */
const reads = new WeakMap<GraphQLContext, PartnerReads>();

function readsOf(ctx: GraphQLContext): PartnerReads {
  let found = reads.get(ctx);
  if (!found) {
    found = {
      facts: new DataLoader(
        async (shipments) =>
          (await ctx.services.partners.eventsOfMany(shipments)).map((rows) =>
            rows.map((r) => ({ facts: r.facts as unknown as PartnerEventFacts, receivedAt: r.receivedAt })),
          ),
        { cacheKeyFn: (s) => s.id },
      ),
      own: new DataLoader((documentIds) =>
        Promise.all(
          documentIds.map((documentId) =>
            ctx.services.db.prisma.shipment.findFirst({
              where: { documentId, organizationId: ctx.principal?.organization.id ?? "", deletedAt: null },
              select: { id: true, organizationId: true, documentId: true, predictedEta: true },
            }),
          ),
        ),
      ),
    };
    reads.set(ctx, found);
  }
  return found;
}

/** A shipment's partner events as the domain reads them. */
export function partnerFactsOf(
  ctx: GraphQLContext,
  shipment: { id: string; organizationId: string },
): Promise<StoredPartnerFacts[]> {
  return readsOf(ctx).facts.load({ id: shipment.id, organizationId: shipment.organizationId });
}

/** The organisation's live shipment that a document serves; null for another organisation's. */
async function ownShipment(d: StoredDocumentView, ctx: GraphQLContext): Promise<OwnShipment | null> {
  if (!ctx.principal || d.document.organizationId !== ctx.principal.organization.id) return null;
  return readsOf(ctx).own.load(d.document.id);
}

async function predict(
  ctx: GraphQLContext,
  shipment: OwnShipment,
  doc: TrackingDocument,
): Promise<FinalDestinationEta | null> {
  if (!aheadBeyondPort(doc)) return null;
  const podPrediction = shipment.documentId
    ? await etaLoader(ctx).load({
        id: shipment.id,
        documentId: shipment.documentId,
        predictedEta: shipment.predictedEta,
      })
    : null;
  const eta = finalDestinationEta({
    doc,
    events: await partnerFactsOf(ctx, shipment),
    podPrediction,
    now: ctx.services.clock.now(),
  });
  // The clock read above: a kept answer (MCP status, the v1 document) holds until the prediction
  // would change by time alone; a partner's event or a new version drops it as any write does.
  answerValidUntil(eta ? eta.changesAt : null);
  return eta;
}

const ETA_DESCRIPTION =
  "Predicted arrival at the final destination (the place of delivery beyond the port of discharge); null when predictive ETA is off, the journey ends at the port, the box has arrived, or nothing dates the journey.";
const LEGS_DESCRIPTION =
  "Road, rail and barge legs drawn from the organisation's partner positions; empty without them.";

builder.objectFields(TrackingDocumentRef, (t) => ({
  finalDestinationEta: t.field({
    type: FinalDestinationEtaRef,
    nullable: true,
    description: ETA_DESCRIPTION,
    resolve: async (d, _a, ctx) => {
      if (!enabled(ctx)) return null;
      const shipment = await ownShipment(d, ctx);
      return shipment ? predict(ctx, shipment, d.content) : null;
    },
  }),
  inlandLegs: t.field({
    type: [InlandLegRef],
    description: LEGS_DESCRIPTION,
    extensions: { listSize: 6 },
    resolve: async (d, _a, ctx) => {
      const shipment = await ownShipment(d, ctx);
      return shipment ? inlandLegs(d.content, await partnerFactsOf(ctx, shipment)) : [];
    },
  }),
}));

builder.objectFields(ShipmentRef, (t) => ({
  finalDestinationEta: t.field({
    type: FinalDestinationEtaRef,
    nullable: true,
    description: ETA_DESCRIPTION,
    resolve: async (s, _a, ctx) => {
      if (!enabled(ctx) || s.deletedAt !== null || !s.documentId) return null;
      const latest = await latestDocuments(ctx).load(s.documentId);
      return latest ? predict(ctx, s, latest.content) : null;
    },
  }),
}));
