import DataLoader from "dataloader";
import { featureAccess } from "../../../domain/accounts/principal";
import type { EtaShipment, PredictiveEta } from "../../../domain/eta/eta.service";
import { wallClock } from "../../../domain/routes/placed-locations";
import { predictArrival } from "../../../domain/routes/predictive-eta";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { principalOf } from "../../principal";
import { ShipmentRef } from "../shipments/shipment";
import type { StoredDocumentView } from "../tracking/in-document";
import { placedOf } from "../tracking/journey-facts";
import { TrackingDocumentRef } from "../tracking/tracking-document";

export const EtaSourceEnum = builder.enumType("PredictiveEtaSource", {
  description: "What the predicted arrival rests on.",
  values: {
    model: { description: "The vessel's fresh position and progress along its sea route." },
    blend: { description: "The vessel's progress and the carrier's bias-corrected ETA together." },
    carrier: { description: "The carrier's ETA corrected by its measured bias (no usable position)." },
  } as const,
});

export const EtaConfidenceEnum = builder.enumType("PredictiveEtaConfidence", {
  description:
    "Graded by the position's freshness, the horizon, the port of discharge's data tier and the measured calibration.",
  values: {
    high: { description: "Fresh position, well-measured port, narrow and calibrated window." },
    medium: { description: "A usable window; one of the conditions of high is missing." },
    low: { description: "A wide window, or the carrier's ETA alone without measured history." },
  } as const,
});

export const EtaFallbackReasonEnum = builder.enumType("PredictiveEtaFallbackReason", {
  description:
    "Why the prediction did not use the vessel's position and rests on the carrier's ETA (docs/decisions/eta.md). Every reason but not_sailing is an input the model does not trust: source carrier, confidence low, a wider window.",
  values: {
    off_planned_leg: {
      description:
        "The vessel's position is not on the leg its voyage plan says it is sailing (another voyage of a ship of that name, or a bad report).",
    },
    not_making_way: {
      description:
        "Successive positions show no progress toward the next port, or the ship's course points away from it.",
    },
    stale_position: { description: "The newest position is more than 12 hours old." },
    no_route: { description: "No sea route could be computed from the position through the calls ahead." },
    position_unknown: { description: "No position source knows the vessel." },
    not_sailing: {
      description:
        "No vessel is sailing with the box (before departure, or between vessels at a transshipment): the carrier's ETA is all there is.",
    },
  } as const,
});

export const PredictiveEtaRef = builder.objectRef<PredictiveEta>("PredictiveEta").implement({
  description:
    "Our prediction of the vessel's arrival at the final port of discharge (the event that sets `ata`): the arrival comes before p50 one time in two and before p80 four times in five, as measured on simulated voyages (docs/eta-calibration.md).",
  fields: (t) => ({
    p50: t.expose("p50", { type: "DateTime", description: "Median predicted arrival." }),
    p80: t.expose("p80", { type: "DateTime", description: "Arrival is before this with 80% probability." }),
    source: t.field({ type: EtaSourceEnum, resolve: (p) => p.source }),
    confidence: t.field({ type: EtaConfidenceEnum, resolve: (p) => p.confidence }),
    computedAt: t.expose("computedAt", { type: "DateTime", description: "When it was computed." }),
    horizonHours: t.exposeFloat("horizonHours", {
      description: "Hours from computedAt to the arrival it predicted, as scored.",
    }),
    fallbackReason: t.field({
      type: EtaFallbackReasonEnum,
      nullable: true,
      description:
        "Why the vessel's position was not used; null when it was weighed (source says how much it moved the prediction).",
      resolve: (p) => p.fallbackReason,
    }),
  }),
});

const loaders = new WeakMap<GraphQLContext, DataLoader<EtaShipment, PredictiveEta | null, string>>();

/**
 * Predictions of the shipments a request reads, together (a page asks once): read from the rows, and
 * computed in memory for those whose new version the worker has not predicted yet. Whatever else needs
 * a shipment's prediction in the same request (the demurrage projection) loads it here.
 */
export function etaLoader(ctx: GraphQLContext): DataLoader<EtaShipment, PredictiveEta | null, string> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((shipments) => ctx.services.eta.forShipments(shipments), {
      cacheKeyFn: (s) => s.id,
    });
    loaders.set(ctx, loader);
  }
  return loader;
}

const enabled = (ctx: GraphQLContext) =>
  ctx.principal !== null && featureAccess(ctx.principal.organization, "predictive_eta") === "on";

const ENABLED_DESCRIPTION = "Predictive ETA is on for the organisation's plan.";
const ETA_DESCRIPTION = "Predicted arrival at the port of discharge; null when off, arrived or unknown.";

// Described on the document's fields (the same meaning): a longer Shipment entry would rank its other
// fields lower in the documentation search (MCP `search_api_docs`).
builder.objectFields(ShipmentRef, (t) => ({
  predictiveEtaEnabled: t.boolean({ resolve: (_s, _a, ctx) => enabled(ctx) }),
  predictiveEta: t.field({
    type: PredictiveEtaRef,
    nullable: true,
    resolve: (s, _a, ctx) =>
      enabled(ctx) && s.deletedAt === null
        ? etaLoader(ctx).load({ id: s.id, documentId: s.documentId, predictedEta: s.predictedEta })
        : null,
  }),
}));

/** The prediction of the organisation's shipment that serves a document; null without one. */
async function documentPrediction(d: StoredDocumentView, ctx: GraphQLContext): Promise<PredictiveEta | null> {
  if (!enabled(ctx) || d.document.organizationId !== principalOf(ctx).organization.id) return null;
  const shipment = await ctx.services.db.prisma.shipment.findFirst({
    where: { documentId: d.document.id, organizationId: principalOf(ctx).organization.id, deletedAt: null },
    select: { id: true, documentId: true, predictedEta: true },
  });
  return shipment ? etaLoader(ctx).load(shipment) : null;
}

interface PodPredictedArrival {
  instant: Date;
  localDateTime: string;
  basis: "predictive_eta" | "departure_estimate";
}

const PodArrivalBasisEnum = builder.enumType("PodArrivalBasis", {
  description: "What an arrival estimate at the port of discharge rests on.",
  values: {
    predictive_eta: { description: "The predictive ETA's p50 (the vessel's position and progress)." },
    departure_estimate: {
      description:
        "The last dated departure plus the remaining sea route at 14 knots and a day per call (podArrivalEstimate).",
    },
  } as const,
});

const PodPredictedArrivalRef = builder.objectRef<PodPredictedArrival>("PodPredictedArrival").implement({
  description: "Our arrival estimate at the port of discharge for when the carrier gave none.",
  fields: (t) => ({
    instant: t.expose("instant", { type: "DateTime" }),
    localDateTime: t.exposeString("localDateTime", {
      description: "Wall-clock time at the port of discharge, YYYY-MM-DD HH:MM:SS.",
    }),
    utcOffset: t.string({
      nullable: true,
      description:
        "The clock localDateTime is on: the port's offset from UTC at that moment, e.g. +01:00 (+00:00 when the port's time zone is unknown: the time is then UTC's).",
      resolve: (p) => utcOffsetOf(p.localDateTime, p.instant),
    }),
    basis: t.field({ type: PodArrivalBasisEnum, resolve: (p) => p.basis }),
  }),
});

builder.objectFields(TrackingDocumentRef, (t) => ({
  podPredictedArrival: t.field({
    type: PodPredictedArrivalRef,
    nullable: true,
    description:
      "Only when the carrier gave no arrival date at the port of discharge, and only with predictive ETA on: the predictive ETA's p50 when there is one, else the departure estimate. Compat route.pod.predictive_eta.",
    resolve: async (d, _a, ctx) => {
      const pod = d.content.route.pod;
      if (!enabled(ctx) || pod.localDateTime !== null || pod.instant !== null) return null;
      const places = placedOf(d.content);
      const zone = places.find((p) => p.key === pod.locationKey)?.timeZone ?? "Etc/UTC";
      const prediction = await documentPrediction(d, ctx);
      if (prediction) {
        return {
          instant: prediction.p50,
          localDateTime: wallClock(prediction.p50, zone),
          basis: "predictive_eta" as const,
        };
      }
      const estimate = predictArrival(d.content, places);
      return estimate
        ? {
            instant: new Date(estimate.instant),
            localDateTime: estimate.localDateTime,
            basis: "departure_estimate" as const,
          }
        : null;
    },
  }),
}));

builder.objectFields(TrackingDocumentRef, (t) => ({
  predictiveEtaEnabled: t.boolean({
    description: ENABLED_DESCRIPTION,
    resolve: (_d, _a, ctx) => enabled(ctx),
  }),
  predictiveEta: t.field({
    type: PredictiveEtaRef,
    nullable: true,
    description: ETA_DESCRIPTION,
    resolve: (d, _a, ctx) => documentPrediction(d, ctx),
  }),
}));
