import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import { placeLocations } from "../routes/placed-locations";
import { seaRoute } from "../routes/sea-route";
import type { DocumentStore, LatestDocument } from "../tracking/document-store";
import type { TrackedVessel } from "../tracking/model";
import { CALIBRATION } from "./calibration-table";
import {
  type CallAhead,
  type EtaConfidence,
  type EtaPrediction,
  type EtaSource,
  HOUR_MS,
  type PortWaitReading,
  predictEta,
  type VesselProgress,
} from "./eta-model";
import { journeyProgress } from "./journey-progress";

/** A vessel's newest position as the position sources give it. */
export interface VesselFix {
  lat: number;
  lng: number;
  /** Speed over ground, knots. */
  speedKnots: number | null;
  fixedAt: number;
}

/** What the model reads beyond the document: ports the domain declares, adapters fill. */
export interface EtaSources {
  vesselFix(vessel: TrackedVessel): Promise<VesselFix | null>;
  portWait(unLocode: string): Promise<PortWaitReading | null>;
}

/** A prediction as served and stored. */
export interface PredictiveEta {
  p50: Date;
  p80: Date;
  source: EtaSource;
  confidence: EtaConfidence;
  computedAt: Date;
  horizonHours: number;
}

export interface EtaShipment {
  id: string;
  documentId: string | null;
}

const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);

/**
 * Predictive ETA for shipments (docs/decisions/eta.md). Computed on read and kept: a read serves the
 * newest stored prediction when it was computed in the same hour from the same document version (the
 * model's seed is the shipment and the hour, so recomputing would give the same answer), otherwise it
 * computes a new one and stores it beside the others, so every prediction served can be scored once the
 * vessel has arrived.
 */
export class EtaService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      documents: DocumentStore;
      sources: EtaSources;
    },
  ) {}

  /** The current prediction of each shipment, in order; null when arrived or nothing to go on. */
  async forShipments(shipments: readonly EtaShipment[]): Promise<(PredictiveEta | null)[]> {
    const withDocument = shipments.filter((s) => s.documentId !== null);
    if (withDocument.length === 0) return shipments.map(() => null);
    const documents = await this.deps.documents.latestOfMany(withDocument.map((s) => s.documentId!));
    const byDocumentId = new Map(
      documents.filter((d): d is LatestDocument => d !== null).map((d) => [d.document.id, d]),
    );
    const latest = await this.deps.prisma.predictiveEtaSnapshot.findMany({
      where: { shipmentId: { in: withDocument.map((s) => s.id) } },
      orderBy: { computedAt: "desc" },
      distinct: ["shipmentId"],
    });
    const kept = new Map(latest.map((row) => [row.shipmentId, row]));
    const now = this.deps.clock.now().getTime();
    const answers: (PredictiveEta | null)[] = [];
    for (const shipment of shipments) {
      const document = shipment.documentId ? byDocumentId.get(shipment.documentId) : undefined;
      if (!document || journeyProgress(document.content).arrived) {
        answers.push(null);
        continue;
      }
      const row = kept.get(shipment.id);
      if (
        row &&
        row.documentVersionId === document.version.id &&
        hourOf(row.computedAt.getTime()) === hourOf(now)
      ) {
        answers.push(toPredictiveEta(row));
        continue;
      }
      answers.push(await this.computeAndKeep(shipment.id, document, now));
    }
    return answers;
  }

  /**
   * The shipment's current p50 arrival at the final port of discharge, for code that plans around it
   * (the demurrage projection's discharge); null when the organisation has no such shipment, it has
   * arrived, or there is nothing to predict from.
   */
  async podArrivalP50(organizationId: string, shipmentId: string): Promise<Date | null> {
    const shipment = await this.deps.prisma.shipment.findFirst({
      where: { id: shipmentId, organizationId, deletedAt: null },
      select: { id: true, documentId: true },
    });
    if (!shipment) return null;
    const [prediction] = await this.forShipments([shipment]);
    return prediction?.p50 ?? null;
  }

  /**
   * The prediction for one stored document (no storage): what the model says now. Seeded by the
   * carrier and reference (with the hour, in the model), not by a row id: the same journey read at the
   * same hour draws the same samples in any database, the sandbox's rebuilt one included.
   */
  async predict(document: LatestDocument, now: number): Promise<EtaPrediction | null> {
    const content = document.content;
    const progress = journeyProgress(content);
    if (progress.arrived) return null;
    const places = new Map(placeLocations(content).map((p) => [p.key, p]));
    const podCode = progress.podLocationKey ? places.get(progress.podLocationKey)?.unLocode : null;
    const pod = podCode ? await this.deps.sources.portWait(podCode) : null;
    let vessel: VesselProgress | null = null;
    if (progress.sailing) {
      const fix = await this.deps.sources.vesselFix(progress.sailing.vessel);
      vessel = fix ? await this.progressFrom(fix, progress.sailing, places) : null;
    }
    return predictEta({
      seedKey: `${content.carrierScac}:${content.referenceType}:${content.reference}`,
      now,
      carrierEta: progress.carrierEta,
      carrierBias: CALIBRATION.carrierBias[content.carrierScac] ?? {},
      vessel,
      pod,
    });
  }

  private async progressFrom(
    fix: VesselFix,
    sailing: NonNullable<ReturnType<typeof journeyProgress>["sailing"]>,
    places: Map<string, { lat: number | null; lng: number | null; unLocode: string | null }>,
  ): Promise<VesselProgress | null> {
    if (!(await this.onTheLeg(fix, sailing, places))) return null;
    let from = { lat: fix.lat, lng: fix.lng };
    let remainingNm = 0;
    for (const key of sailing.callsAhead) {
      const place = places.get(key);
      if (place?.lat == null || place.lng == null) return null;
      const to = { lat: place.lat, lng: place.lng };
      const route = seaRoute(from, to);
      if (!route) return null;
      remainingNm += route.lengthNm;
      from = to;
    }
    const callsAhead: CallAhead[] = [];
    for (const key of sailing.callsAhead.slice(0, -1)) {
      const code = places.get(key)?.unLocode;
      callsAhead.push({
        transshipment: sailing.transshipments.has(key),
        wait: code ? await this.deps.sources.portWait(code) : null,
      });
    }
    // One stored fix per vessel: its speed alone is fewer than the six fixes the vessel's own speed
    // needs, so the lane prior speaks until a position history is kept.
    return {
      fixedAt: fix.fixedAt,
      recentSogKnots: fix.speedKnots === null ? [] : [fix.speedKnots],
      remainingNm,
      callsAhead,
    };
  }

  /**
   * Whether a fix can be this sailing's: sailing from the call the vessel left to the next one through
   * the fix is at most a third longer than the leg itself (plus 300 nm for a fix near either port).
   * A fix far off the leg belongs to another voyage of a ship of that name, or to a wrong position
   * report; its distance to go would move the prediction by days, so the prediction goes without it.
   */
  private async onTheLeg(
    fix: VesselFix,
    sailing: NonNullable<ReturnType<typeof journeyProgress>["sailing"]>,
    places: Map<string, { lat: number | null; lng: number | null; unLocode: string | null }>,
  ): Promise<boolean> {
    const left = places.get(sailing.departedFrom);
    const next = places.get(sailing.callsAhead[0] ?? "");
    if (left?.lat == null || left.lng == null || next?.lat == null || next.lng == null) return true;
    const at = { lat: fix.lat, lng: fix.lng };
    const leg = seaRoute({ lat: left.lat, lng: left.lng }, { lat: next.lat, lng: next.lng });
    const sailed = seaRoute({ lat: left.lat, lng: left.lng }, at);
    const ahead = seaRoute(at, { lat: next.lat, lng: next.lng });
    if (!leg || !sailed || !ahead) return true;
    return sailed.lengthNm + ahead.lengthNm <= leg.lengthNm * (4 / 3) + 300;
  }

  private async computeAndKeep(shipmentId: string, document: LatestDocument, now: number) {
    const prediction = await this.predict(document, now);
    if (!prediction) return null;
    const row = await this.deps.prisma.predictiveEtaSnapshot.create({
      data: {
        shipmentId,
        documentVersionId: document.version.id,
        computedAt: new Date(now),
        p50: new Date(prediction.p50),
        p80: new Date(prediction.p80),
        source: prediction.source,
        confidence: prediction.confidence,
        horizonHours: prediction.horizonHours,
        horizonBucket: prediction.horizonBucket,
        carrierEta: (() => {
          const eta = journeyProgress(document.content).carrierEta;
          return eta === null ? null : new Date(eta);
        })(),
      },
    });
    return toPredictiveEta(row);
  }
}

function toPredictiveEta(row: {
  p50: Date;
  p80: Date;
  source: string;
  confidence: string;
  computedAt: Date;
  horizonHours: number;
}): PredictiveEta {
  return {
    p50: row.p50,
    p80: row.p80,
    source: row.source as EtaSource,
    confidence: row.confidence as EtaConfidence,
    computedAt: row.computedAt,
    horizonHours: row.horizonHours,
  };
}
