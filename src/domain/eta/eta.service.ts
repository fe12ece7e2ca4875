import type { Logger } from "pino";
import { claimDue } from "../../db/claim-due";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import { featureAccess } from "../accounts/principal";
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
  /** The row's `predicted_eta`; absent or null: not computed for the served version yet. */
  predictedEta?: unknown;
}

/** What `shipments.predicted_eta` holds: the served version's prediction, or that there is none. */
type StoredPrediction =
  | {
      kind: "predicted";
      versionId: string;
      p50: string;
      p80: string;
      source: EtaSource;
      confidence: EtaConfidence;
      computedAt: string;
      horizonHours: number;
    }
  | { kind: "none"; versionId: string };

/** A shipment still on its way is predicted again every hour (the model's seed is the hour). */
const RECOMPUTE_MS = HOUR_MS;
/** Not arrived but nothing to predict from yet (no route, no carrier ETA): a position may come. */
const RETRY_NONE_MS = 6 * HOUR_MS;
/** A claimed shipment is left alone this long, so that a crashed worker's claim lapses. */
const LEASE_MS = 10 * 60_000;

function storedPrediction(value: unknown): StoredPrediction | null {
  if (value === null || typeof value !== "object") return null;
  const kind = (value as { kind?: unknown }).kind;
  return kind === "predicted" || kind === "none" ? (value as StoredPrediction) : null;
}

/** The document version a shipment row's prediction was computed from; null when it has none. */
export function predictionVersionOf(value: unknown): string | null {
  return storedPrediction(value)?.versionId ?? null;
}

/**
 * Predictive ETA for shipments (docs/decisions/eta.md). Computed when a document version is stored
 * and every hour after by the `eta` worker, never on the read path: the current prediction is kept on
 * the shipment row (what every read serves) and each one computed is kept beside the others in
 * `predictive_eta_snapshots`, so every prediction served can be scored once the vessel has arrived.
 * Storing a new version clears the row's prediction in the same transaction; until the worker has
 * computed the new one, a read computes it in memory and stores nothing.
 */
export class EtaService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      documents: DocumentStore;
      sources: EtaSources;
      logger?: Logger;
    },
  ) {}

  /** The current prediction of each shipment, in order; null when arrived or nothing to go on. */
  async forShipments(shipments: readonly EtaShipment[]): Promise<(PredictiveEta | null)[]> {
    const answers: (PredictiveEta | null)[] = shipments.map(() => null);
    const pending: number[] = [];
    shipments.forEach((shipment, i) => {
      const stored = storedPrediction(shipment.predictedEta);
      if (stored?.kind === "predicted") answers[i] = fromStored(stored);
      else if (!stored && shipment.documentId !== null) pending.push(i);
    });
    if (pending.length === 0) return answers;
    const documents = await this.deps.documents.latestOfMany(pending.map((i) => shipments[i]!.documentId!));
    const now = this.deps.clock.now().getTime();
    for (const [n, i] of pending.entries()) {
      const document = documents[n];
      const prediction = document ? await this.predict(document, now) : null;
      answers[i] = prediction ? { ...served(prediction), computedAt: new Date(now) } : null;
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
      select: { id: true, documentId: true, predictedEta: true },
    });
    if (!shipment) return null;
    const [prediction] = await this.forShipments([shipment]);
    return prediction?.p50 ?? null;
  }

  /**
   * Computes the predictions of up to `limit` shipments that are due (a version stored since, or an
   * hour gone by), each claimed first so that two processes never compute one twice; returns how
   * many were claimed.
   */
  async computeDue(limit = 25): Promise<number> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const claimed = await claimDue(
      prisma,
      { table: "shipments", key: "id", due: "eta_due_at" },
      now,
      new Date(now.getTime() + LEASE_MS),
      limit,
    );
    if (claimed.length > 0) await this.compute(claimed);
    return claimed.length;
  }

  /** Computes, keeps and serves from the row the current prediction of each shipment. */
  async compute(shipmentIds: readonly string[]): Promise<void> {
    const { prisma, clock, documents } = this.deps;
    const rows = await prisma.shipment.findMany({
      where: { id: { in: [...shipmentIds] } },
      select: { id: true, documentId: true, deletedAt: true, failedAt: true, organization: true },
    });
    const followed = rows.filter(
      (r) =>
        r.documentId !== null &&
        r.deletedAt === null &&
        r.failedAt === null &&
        featureAccess(r.organization, "predictive_eta") === "on",
    );
    const unfollowed = rows.filter((r) => !followed.includes(r)).map((r) => r.id);
    if (unfollowed.length > 0) {
      // Not predicted for now (a read computes one in memory should the plan change).
      await prisma.shipment.updateMany({
        where: { id: { in: unfollowed } },
        data: { predictedEta: Prisma.DbNull, etaDueAt: null },
      });
    }
    const latest = await documents.latestOfMany(followed.map((r) => r.documentId!));
    const now = clock.now().getTime();
    for (const [i, row] of followed.entries()) {
      const document = latest[i];
      if (!document) continue;
      let prediction: EtaPrediction | null;
      try {
        prediction = await this.predict(document, now);
      } catch (error) {
        // One shipment the model fails on must not hold up its batch: tried again in an hour, and
        // until then its reads compute in memory (and fail the same way, on that field only).
        this.deps.logger?.warn({ err: error, shipmentId: row.id }, "Predictive ETA could not be computed");
        await prisma.shipment.update({
          where: { id: row.id },
          data: { etaDueAt: new Date(now + RECOMPUTE_MS) },
        });
        continue;
      }
      const arrived = journeyProgress(document.content).arrived;
      const stored: StoredPrediction = prediction
        ? { kind: "predicted", versionId: document.version.id, ...storedFields(prediction, now) }
        : { kind: "none", versionId: document.version.id };
      const dueAt = prediction
        ? new Date(now + RECOMPUTE_MS)
        : arrived
          ? null
          : new Date(now + RETRY_NONE_MS);
      // Only while the version it was computed from is still the document's newest: a version stored
      // meanwhile cleared the row and made it due again, and that is what must be served.
      const kept = await prisma.$executeRaw`
        UPDATE shipments SET predicted_eta = ${JSON.stringify(stored)}::jsonb, eta_due_at = ${dueAt}
         WHERE id = ${row.id}
           AND EXISTS (SELECT 1 FROM carrier_documents d
                        WHERE d.id = ${document.document.id} AND d.latest_version = ${document.version.version})`;
      if (kept > 0 && prediction) await this.keepSnapshot(row.id, document, prediction, now);
    }
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

  private async keepSnapshot(
    shipmentId: string,
    document: LatestDocument,
    prediction: EtaPrediction,
    now: number,
  ) {
    const carrierEta = journeyProgress(document.content).carrierEta;
    await this.deps.prisma.predictiveEtaSnapshot.create({
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
        carrierEta: carrierEta === null ? null : new Date(carrierEta),
      },
    });
  }
}

function storedFields(prediction: EtaPrediction, now: number) {
  return {
    p50: new Date(prediction.p50).toISOString(),
    p80: new Date(prediction.p80).toISOString(),
    source: prediction.source,
    confidence: prediction.confidence,
    computedAt: new Date(now).toISOString(),
    horizonHours: prediction.horizonHours,
  };
}

function served(prediction: EtaPrediction): Omit<PredictiveEta, "computedAt"> {
  return {
    p50: new Date(prediction.p50),
    p80: new Date(prediction.p80),
    source: prediction.source,
    confidence: prediction.confidence,
    horizonHours: prediction.horizonHours,
  };
}

function fromStored(stored: Extract<StoredPrediction, { kind: "predicted" }>): PredictiveEta {
  return {
    p50: new Date(stored.p50),
    p80: new Date(stored.p80),
    source: stored.source,
    confidence: stored.confidence,
    computedAt: new Date(stored.computedAt),
    horizonHours: stored.horizonHours,
  };
}
