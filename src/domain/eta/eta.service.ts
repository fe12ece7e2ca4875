import type { Logger } from "pino";
import { claimDue } from "../../db/claim-due";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import { featureAccess } from "../accounts/principal";
import { findPort } from "../ports/port-directory";
import { placeLocations } from "../routes/placed-locations";
import { haversineKm, type SeaRoute, seaRoute } from "../routes/sea-route";
import type { DocumentStore, LatestDocument } from "../tracking/document-store";
import type { TrackedVessel } from "../tracking/model";
import { CALIBRATION } from "./calibration-table";
import {
  type CallAhead,
  type EtaConfidence,
  type EtaFallbackReason,
  type EtaInput,
  type EtaPrediction,
  type EtaSource,
  HOUR_MS,
  type HorizonBucket,
  type MadeGood,
  type PortWaitReading,
  predictEta,
  SERVICE_CARRIER_P50_SHIFT_HOURS,
  SERVICE_CARRIER_SLIP80_HOURS,
  SERVICE_CONNECTION_SLIP80_HOURS,
  SERVICE_MODEL_WEIGHT,
  SERVICE_RECOVERY_SLIP80_HOURS,
  type VesselProgress,
} from "./eta-model";
import { type JourneyProgress, journeyProgress } from "./journey-progress";

/** A vessel's newest position as the position sources give it. */
export interface VesselFix {
  lat: number;
  lng: number;
  /** Speed over ground, knots. */
  speedKnots: number | null;
  /** Course over ground, degrees (absent: unknown). */
  courseDeg?: number | null;
  fixedAt: number;
  /** The report's navigation status says moored (alongside a berth); absent: not reported. */
  moored?: boolean;
  /** The port the report says the vessel last left (UN/LOCODE) and when; absent or null: not reported. */
  lastPort?: { unLocode: string; departedAt: number | null } | null;
  /** The port the report says the vessel is bound for (UN/LOCODE); absent or null: not reported. */
  nextPort?: string | null;
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
  /** Why the vessel's position was not used; null when it was weighed. */
  fallbackReason: EtaFallbackReason | null;
}

/** One cell of the production scorecard: kept snapshots scored against the vessel's arrival. */
export interface EtaScorecardRow {
  bucket: HorizonBucket;
  source: EtaSource;
  predictions: number;
  shipments: number;
  beforeP50: number;
  beforeP80: number;
  maeP50Hours: number;
  /** Null when none of them had a carrier ETA. */
  maeCarrierHours: number | null;
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
      /** Absent on predictions stored before issue 34: read as null. */
      fallbackReason?: EtaFallbackReason | null;
    }
  | { kind: "none"; versionId: string };

/** A shipment still on its way is predicted again every hour (the model's seed is the hour). */
const RECOMPUTE_MS = HOUR_MS;
/** Not arrived but nothing to predict from yet (no route, no carrier ETA): a position may come. */
const RETRY_NONE_MS = 6 * HOUR_MS;
/** A claimed shipment is left alone this long, so that a crashed worker's claim lapses. */
const LEASE_MS = 10 * 60_000;
/** A vessel's fixes are kept this long (the speed made good needs the last day or two). */
export const FIX_HISTORY_MS = 72 * HOUR_MS;
/** Successive fixes measure progress over at most this window before the newest. */
const MADE_GOOD_WINDOW_MS = 36 * HOUR_MS;
/** At most this many kept fixes are read per prediction (each costs a sea route). */
const MADE_GOOD_MAX_FIXES = 12;
/** Snapshots and fix history are pruned at most this often per process. */
const PRUNE_EVERY_MS = HOUR_MS;

function storedPrediction(value: unknown): StoredPrediction | null {
  if (value === null || typeof value !== "object") return null;
  const kind = (value as { kind?: unknown }).kind;
  return kind === "predicted" || kind === "none" ? (value as StoredPrediction) : null;
}

/**
 * The p50 a read projects from for a row's stored prediction, as `forShipments` serves it (ISO): null
 * when the row stores that there is none; undefined when nothing is stored, so a read would predict
 * on the spot (kept D&D schedules are not kept from such a row, kept-dnd.ts).
 */
export function storedArrivalP50(value: unknown): string | null | undefined {
  const stored = storedPrediction(value);
  if (!stored) return undefined;
  return stored.kind === "predicted" ? fromStored(stored).p50.toISOString() : null;
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

  private prunedAt = 0;

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
    const keptEtas = await this.keptCarrierEtas(
      pending.map((i, n) => ({ id: shipments[i]!.id, document: documents[n] })),
    );
    const now = this.deps.clock.now().getTime();
    for (const [n, i] of pending.entries()) {
      const document = documents[n];
      const carrierEtas = keptEtas.get(shipments[i]!.id) ?? null;
      const prediction = document
        ? await this.predict(document, now, { carrierEtas, shipmentId: shipments[i]!.id })
        : null;
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
    const keptEtas = await this.keptCarrierEtas(followed.map((r, i) => ({ id: r.id, document: latest[i] })));
    const now = clock.now().getTime();
    for (const [i, row] of followed.entries()) {
      const document = latest[i];
      if (!document) continue;
      let prediction: EtaPrediction | null;
      try {
        const carrierEtas = keptEtas.get(row.id) ?? null;
        prediction = await this.predict(document, now, { keepFix: true, carrierEtas, shipmentId: row.id });
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
      const journey = journeyProgress(document.content);
      const arrived = journey.arrived;
      if (arrived && journey.ata !== null) await this.scoreArrival(row.id, journey.ata, now);
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
    await answersChanged({ shipments: rows.map((r) => ({ id: r.id, organizationId: r.organization.id })) });
  }

  /**
   * The prediction for one stored document (no storage): what the model says now. Seeded by the
   * carrier and reference (with the hour, in the model), not by a row id: the same journey read at the
   * same hour draws the same samples in any database, the sandbox's rebuilt one included.
   */
  async predict(
    document: LatestDocument,
    now: number,
    options: { keepFix?: boolean; carrierEtas?: KeptCarrierEtas | null; shipmentId?: string } = {},
  ): Promise<EtaPrediction | null> {
    const content = document.content;
    const progress = journeyProgress(content);
    if (progress.arrived) return null;
    const lastLeg =
      progress.lastLeg && options.shipmentId
        ? await this.keptLastLeg(options.shipmentId, document.document.id, progress.lastLeg)
        : null;
    const connection = progress.firstConnection
      ? await this.keptConnection(document.document.id, progress.firstConnection, progress.sailedFromPolAt)
      : null;
    const places = new Map(placeLocations(content).map((p) => [p.key, p]));
    const podCode = progress.podLocationKey ? places.get(progress.podLocationKey)?.unLocode : null;
    const pod = podCode ? await this.deps.sources.portWait(podCode) : null;
    let vessel: VesselProgress | null = null;
    let fallback: EtaFallbackReason | null = "not_sailing";
    if (progress.sailing) {
      const fix = await this.deps.sources.vesselFix(progress.sailing.vessel);
      const vesselKey = vesselKeyOf(progress.sailing.vessel);
      // Only the worker keeps fixes (a read never writes).
      if (fix && vesselKey && options.keepFix) await this.keepFix(vesselKey, fix, now);
      // The vessel is seen at the port of discharge (alongside, or gone on after calling there) before
      // the carrier's document says so: it has arrived, and a prediction now would only repeat an ETA
      // already past or wrong (the replay's predictions after the true arrival were 110 h off).
      if (fix && arrivedAtPod(fix, progress.sailing, places)) return null;
      const found = fix
        ? await this.progressFrom(fix, { vesselKey, sailing: progress.sailing, places, now })
        : ({ fault: "position_unknown" } as const);
      if (process.env.ETA_DEBUG && "fault" in found)
        console.error(
          JSON.stringify({
            ref: content.reference,
            now: new Date(now).toISOString(),
            fault: found.fault,
            fix,
            left: progress.sailing.departedFrom,
            ahead: progress.sailing.callsAhead.map((k) => places.get(k)?.unLocode),
          }),
        );
      vessel = "fault" in found ? null : found;
      fallback = "fault" in found ? found.fault : null;
    }
    return predictEta({
      seedKey: `${content.carrierScac}:${content.referenceType}:${content.reference}`,
      now,
      carrierEta: progress.carrierEta,
      carrierBias: CALIBRATION.carrierBias[content.carrierScac] ?? {},
      // Measured on the service path's tuning split (eta-model.ts): the carrier's window, and no
      // share for the model until it is better than the carrier there.
      carrierSlip80Hours: SERVICE_CARRIER_SLIP80_HOURS,
      carrierP50ShiftHours: SERVICE_CARRIER_P50_SHIFT_HOURS,
      modelWeight: SERVICE_MODEL_WEIGHT,
      // A published late departure the ship makes good (eta-model.ts, RECOVERY_*): against the carrier
      // ETAs the service kept for the shipment, before and since the box sailed.
      firstCarrierEta: options.carrierEtas?.first ?? null,
      departure: {
        highestCarrierEtaBeforeSailing: options.carrierEtas?.highestBeforeSailing ?? null,
        polDepartureAt: progress.polDepartureAt,
        sailedAt: progress.sailedFromPolAt,
        transshipment: progress.transshipment,
      },
      recoverySlip80Hours: SERVICE_RECOVERY_SLIP80_HOURS,
      // A transshipped box's last ship published late at the transshipment port (LAST_LEG_RECOVERY).
      lastLeg,
      // A roll to a later connecting sailing the first ship's recovery makes unnecessary (CONNECTION_*).
      connection,
      connectionSlip80Hours: SERVICE_CONNECTION_SLIP80_HOURS,
      vessel,
      pod,
      fallback,
    });
  }

  private async progressFrom(
    fix: VesselFix,
    {
      vesselKey,
      sailing,
      places,
      now,
    }: { vesselKey: string | null; sailing: Sailing; places: Places; now: number },
  ): Promise<VesselProgress | { fault: EtaFallbackReason }> {
    const leg = legOf(sailing, places);
    if (!leg) return { fault: "no_route" };
    const at = { lat: fix.lat, lng: fix.lng };
    const ahead = sailingRoute(at, leg.next);
    if (!onTheLeg(at, ahead.lengthNm, leg) && !reportedOnTheVoyage(fix, sailing, leg))
      return { fault: "off_planned_leg" };
    let from = { lat: fix.lat, lng: fix.lng };
    let remainingNm = 0;
    for (const key of sailing.callsAhead) {
      const place = places.get(key);
      if (place?.lat == null || place.lng == null) return { fault: "no_route" };
      const to = { lat: place.lat, lng: place.lng };
      remainingNm += sailingRoute(from, to).lengthNm;
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
    // Alongside a call of the ship's rotation that the box's plan does not name (its report is moored
    // and bound for another port than the box's next call): a normal stay, not a ship failing to make
    // way, so no progress is measured from it.
    const atOtherCall = fix.moored === true && fix.nextPort != null && fix.nextPort !== leg.nextCode;
    const earlier = vesselKey && !atOtherCall ? await this.earlierFixes(vesselKey, fix, now) : [];
    const madeGood = atOtherCall
      ? null
      : madeGoodFrom(
          [...earlier, fix].filter((f) => {
            // Only fixes of this leg: an earlier one elsewhere is another voyage (or a bad report).
            if (f === fix) return true;
            return onTheLeg(f, sailingRoute({ lat: f.lat, lng: f.lng }, leg.next).lengthNm, leg);
          }),
          leg.next,
        );
    return {
      fixedAt: fix.fixedAt,
      recentSogKnots: [...earlier, fix].flatMap((f) => (f.speedKnots === null ? [] : [f.speedKnots])),
      remainingNm,
      callsAhead,
      madeGood,
      courseOffRouteDeg: atOtherCall ? null : courseOffRoute(fix, ahead.path),
    };
  }

  /**
   * The carrier ETAs kept for each shipment (its snapshots' carrier_eta): the first one, and the highest
   * one kept before the box sailed from its port of loading (all of them while it has not). One
   * statement for the batch; times compared as epoch seconds (timestamp columns hold UTC).
   */
  private async keptCarrierEtas(
    shipments: readonly { id: string; document: LatestDocument | null | undefined }[],
  ): Promise<Map<string, KeptCarrierEtas>> {
    if (shipments.length === 0) return new Map();
    const cutoffs = shipments.map((s) => {
      const sailedAt = s.document ? journeyProgress(s.document.content).sailedFromPolAt : null;
      // Not sailed: every kept ETA is from before (year 5138 in epoch seconds).
      return Prisma.sql`(${s.id}, ${sailedAt === null ? 1e11 : sailedAt / 1000}::float8)`;
    });
    const rows = await this.deps.prisma.$queryRaw<
      { shipment_id: string; first_eta: Date | null; highest_before: Date | null }[]
    >`
      SELECT c.id AS shipment_id,
             (SELECT p.carrier_eta FROM predictive_eta_snapshots p
               WHERE p.shipment_id = c.id AND p.carrier_eta IS NOT NULL
               ORDER BY p.computed_at LIMIT 1) AS first_eta,
             (SELECT max(p.carrier_eta) FROM predictive_eta_snapshots p
               WHERE p.shipment_id = c.id AND extract(epoch from p.computed_at)::float8 < c.cutoff) AS highest_before
        FROM (VALUES ${Prisma.join(cutoffs)}) AS c(id, cutoff)`;
    return new Map(
      rows
        .filter((r) => r.first_eta !== null)
        .map((r) => [
          r.shipment_id,
          { first: r.first_eta!.getTime(), highestBeforeSailing: r.highest_before?.getTime() ?? null },
        ]),
    );
  }

  /**
   * What the service kept of a transshipped box's last leg (LAST_LEG_RECOVERY): the first departure
   * estimate a stored version gave for the voyage now named at that port, and the highest carrier ETA
   * kept from that version's fetch until the ship sailed. Null when no version named that voyage there.
   */
  private async keptLastLeg(
    shipmentId: string,
    documentId: string,
    lastLeg: NonNullable<JourneyProgress["lastLeg"]>,
  ): Promise<NonNullable<EtaInput["lastLeg"]> | null> {
    const { prisma } = this.deps;
    const [first] = await prisma.$queryRaw<{ instant: string; fetched_at: Date }[]>`
      SELECT e->>'instant' AS instant, v.fetched_at
        FROM document_versions v
        CROSS JOIN LATERAL jsonb_array_elements(v.content->'containers') AS c
        CROSS JOIN LATERAL jsonb_array_elements(c->'events') AS e
       WHERE v.document_id = ${documentId}
         AND e->>'eventCode' = 'DEPA' AND e->>'locationKey' = ${lastLeg.locationKey}
         AND e->>'vesselKey' IS NOT NULL AND e->>'instant' IS NOT NULL
         AND (e->>'voyage') IS NOT DISTINCT FROM ${lastLeg.voyage}::text
       ORDER BY v.version, e->>'instant' DESC
       LIMIT 1`;
    const firstDepartureAt = first ? Date.parse(first.instant) : Number.NaN;
    if (!first || !Number.isFinite(firstDepartureAt)) return null;
    // Not sailed: every kept ETA since counts (a far date the database takes).
    const until = new Date(lastLeg.sailedAt ?? Date.UTC(9999, 0, 1));
    const [kept] = await prisma.$queryRaw<{ highest: Date | null }[]>`
      SELECT max(carrier_eta) AS highest FROM predictive_eta_snapshots
       WHERE shipment_id = ${shipmentId} AND computed_at >= ${first.fetched_at} AND computed_at < ${until}`;
    return {
      firstDepartureAt,
      departureAt: lastLeg.departureAt,
      sailedAt: lastLeg.sailedAt,
      highestCarrierEtaBeforeSailing: kept?.highest?.getTime() ?? null,
    };
  }

  /**
   * What the stored versions say of the box's first connection (CONNECTION_*): the first estimates of
   * the first ship's arrival at the transshipment port and of the connecting departure (the booking),
   * and the highest arrival estimate of the versions fetched before the box sailed from its port of
   * loading (all of them while it has not). Null when no version dated both.
   */
  private async keptConnection(
    documentId: string,
    current: NonNullable<JourneyProgress["firstConnection"]>,
    sailedFromPolAt: number | null,
  ): Promise<NonNullable<EtaInput["connection"]> | null> {
    const rows = await this.deps.prisma.$queryRaw<
      { code: string; instant: string; actual: boolean; voyage: string | null; fetched_at: Date }[]
    >`
      SELECT e->>'eventCode' AS code, e->>'instant' AS instant, (e->>'actual')::boolean AS actual,
             e->>'voyage' AS voyage, v.fetched_at
        FROM document_versions v
        CROSS JOIN LATERAL jsonb_array_elements(v.content->'containers') AS c
        CROSS JOIN LATERAL jsonb_array_elements(c->'events') AS e
       WHERE v.document_id = ${documentId} AND e->>'locationKey' = ${current.locationKey}
         AND e->>'eventCode' IN ('ARRI', 'DEPA')
         AND e->>'vesselKey' IS NOT NULL AND e->>'instant' IS NOT NULL
       ORDER BY v.version`;
    const dated = rows.map((r) => ({ ...r, at: Date.parse(r.instant) })).filter((r) => Number.isFinite(r.at));
    const firstArrival = dated.find((r) => r.code === "ARRI");
    const booked = dated.find((r) => r.code === "DEPA");
    if (!firstArrival || !booked) return null;
    const before = dated.filter(
      (r) =>
        r.code === "ARRI" &&
        !r.actual &&
        (sailedFromPolAt === null || r.fetched_at.getTime() < sailedFromPolAt),
    );
    return {
      firstArrivalAt: firstArrival.at,
      arrivalBeforeSailing: before.length > 0 ? Math.max(...before.map((r) => r.at)) : null,
      arrivalAt: current.arrivalAt,
      arrived: current.arrived,
      bookedDepartureAt: booked.at,
      departureAt: current.departureAt,
      // Rolled: the connecting departure now names another voyage than the booking did.
      rolled: booked.voyage !== current.voyage,
      connected: current.connected,
    };
  }

  /** Keeps a fetched fix in the vessel's history and forgets the vessel's fixes past the window. */
  private async keepFix(vesselKey: string, fix: VesselFix, now: number): Promise<void> {
    const { prisma } = this.deps;
    await prisma.vesselFixHistory.createMany({
      data: [
        {
          vesselKey,
          fixedAt: new Date(fix.fixedAt),
          lat: fix.lat,
          lng: fix.lng,
          speedKnots: fix.speedKnots,
          courseDeg: fix.courseDeg ?? null,
        },
      ],
      skipDuplicates: true,
    });
    await prisma.vesselFixHistory.deleteMany({
      where: { vesselKey, fixedAt: { lt: new Date(now - FIX_HISTORY_MS) } },
    });
  }

  /** The vessel's kept fixes before this one within the speed-made-good window, oldest first. */
  private async earlierFixes(vesselKey: string, fix: VesselFix, now: number): Promise<VesselFix[]> {
    const since = Math.max(fix.fixedAt - MADE_GOOD_WINDOW_MS, now - FIX_HISTORY_MS);
    const rows = await this.deps.prisma.vesselFixHistory.findMany({
      where: { vesselKey, fixedAt: { gte: new Date(since), lt: new Date(fix.fixedAt) } },
      orderBy: { fixedAt: "desc" },
      take: MADE_GOOD_MAX_FIXES,
    });
    return rows.reverse().map((r) => ({
      lat: r.lat,
      lng: r.lng,
      speedKnots: r.speedKnots,
      courseDeg: r.courseDeg,
      fixedAt: r.fixedAt.getTime(),
    }));
  }

  /**
   * Scores every kept, unscored snapshot of a shipment whose vessel has arrived at the port of
   * discharge: the absolute error of p50 and of the carrier's ETA then, and whether the arrival came
   * before p50 and p80 (docs/decisions/eta.md, production scoring).
   */
  private async scoreArrival(shipmentId: string, ata: number, now: number): Promise<void> {
    // Compared as epoch seconds (timestamp columns hold UTC): no time zone or operator inference in SQL.
    const seconds = ata / 1000;
    await this.deps.prisma.$executeRaw`
      UPDATE predictive_eta_snapshots
         SET scored_at = ${new Date(now)}, ata = ${new Date(ata)},
             p50_error_hours = abs(extract(epoch from p50)::float8 - ${seconds}::float8) / 3600,
             carrier_error_hours = abs(extract(epoch from carrier_eta)::float8 - ${seconds}::float8) / 3600,
             before_p50 = ${seconds}::float8 <= extract(epoch from p50)::float8,
             before_p80 = ${seconds}::float8 <= extract(epoch from p80)::float8
       WHERE shipment_id = ${shipmentId} AND scored_at IS NULL`;
  }

  /**
   * Deletes snapshots older than the retention (QUAYSIDE_ETA_SNAPSHOT_RETENTION_DAYS, 180 days) and
   * fixes older than the history window; at most once an hour per process, unless forced. Returns how
   * many snapshots and fixes went.
   */
  async pruneKept(
    retentionDays: number,
    force = false,
  ): Promise<{ snapshots: number; fixes: number } | null> {
    const now = this.deps.clock.now().getTime();
    if (!force && this.prunedAt !== 0 && now - this.prunedAt < PRUNE_EVERY_MS) return null;
    this.prunedAt = now;
    const days = retentionDays;
    const snapshots = await this.deps.prisma.predictiveEtaSnapshot.deleteMany({
      where: { computedAt: { lt: new Date(now - days * 24 * HOUR_MS) } },
    });
    const fixes = await this.deps.prisma.vesselFixHistory.deleteMany({
      where: { fixedAt: { lt: new Date(now - FIX_HISTORY_MS) } },
    });
    return { snapshots: snapshots.count, fixes: fixes.count };
  }

  /**
   * The production scorecard: every scored snapshot still kept, by horizon bucket and source; the
   * share of arrivals before p50 and p80 and the mean absolute error of p50 beside the carrier's.
   */
  async scorecard(): Promise<EtaScorecardRow[]> {
    return etaScorecard(this.deps.prisma);
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
        fallbackReason: prediction.fallbackReason,
      },
    });
  }
}

/**
 * The production scorecard: every scored snapshot still kept, by horizon bucket and source; the share
 * of arrivals before p50 and p80 and the mean absolute error of p50 beside the carrier's. A function of
 * the database alone, so the operator's `quayside eta scorecard` runs it without the service.
 */
export async function etaScorecard(prisma: PrismaClient): Promise<EtaScorecardRow[]> {
  const rows = await prisma.$queryRaw<
    {
      bucket: string;
      source: string;
      predictions: number;
      shipments: number;
      before_p50: number;
      before_p80: number;
      mae_p50: number;
      mae_carrier: number | null;
    }[]
  >`
      SELECT horizon_bucket AS bucket, source,
             count(*)::int AS predictions, count(DISTINCT shipment_id)::int AS shipments,
             avg(CASE WHEN before_p50 THEN 1 ELSE 0 END)::float8 AS before_p50,
             avg(CASE WHEN before_p80 THEN 1 ELSE 0 END)::float8 AS before_p80,
             avg(p50_error_hours)::float8 AS mae_p50,
             avg(carrier_error_hours)::float8 AS mae_carrier
        FROM predictive_eta_snapshots
       WHERE scored_at IS NOT NULL
       GROUP BY horizon_bucket, source`;
  const order = ["le1d", "1to3d", "3to7d", "7to14d", "gt14d"];
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return rows
    .map((r) => ({
      bucket: r.bucket as HorizonBucket,
      source: r.source as EtaSource,
      predictions: Number(r.predictions),
      shipments: Number(r.shipments),
      beforeP50: round(Number(r.before_p50)),
      beforeP80: round(Number(r.before_p80)),
      maeP50Hours: round(Number(r.mae_p50)),
      maeCarrierHours: r.mae_carrier === null ? null : round(Number(r.mae_carrier)),
    }))
    .sort((a, b) => order.indexOf(a.bucket) - order.indexOf(b.bucket) || a.source.localeCompare(b.source));
}

function storedFields(prediction: EtaPrediction, now: number) {
  return {
    p50: new Date(prediction.p50).toISOString(),
    p80: new Date(prediction.p80).toISOString(),
    source: prediction.source,
    confidence: prediction.confidence,
    computedAt: new Date(now).toISOString(),
    horizonHours: prediction.horizonHours,
    fallbackReason: prediction.fallbackReason,
  };
}

function served(prediction: EtaPrediction): Omit<PredictiveEta, "computedAt"> {
  return {
    p50: new Date(prediction.p50),
    p80: new Date(prediction.p80),
    source: prediction.source,
    confidence: prediction.confidence,
    horizonHours: prediction.horizonHours,
    fallbackReason: prediction.fallbackReason,
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
    fallbackReason: stored.fallbackReason ?? null,
  };
}

/** What the service kept of a shipment's carrier ETAs (its snapshots), for a late departure made good. */
interface KeptCarrierEtas {
  first: number;
  highestBeforeSailing: number | null;
}

type Sailing = NonNullable<ReturnType<typeof journeyProgress>["sailing"]>;
type Places = Map<string, { lat: number | null; lng: number | null; unLocode: string | null }>;
interface GeoPoint {
  lat: number;
  lng: number;
}
interface Leg {
  left: GeoPoint;
  next: GeoPoint;
  leftCode: string | null;
  nextCode: string | null;
  lengthNm: number;
}

/** A great circle is this much shorter than the sea route around the land (used where there is no route). */
const GREAT_CIRCLE_DETOUR = 1.15;

/**
 * Nautical miles to sail between two points: the sea route, or where the network joins no path from a
 * point (a fix in a strait or harbour the network does not reach: Suez, Torres Strait, the Kattegat's
 * ports) the great circle a sixth longer. That the network has no path is no fault of the ship's: it
 * was reported as `no_route`, and such fixes were nearly all ships sailing normally.
 */
function sailingRoute(from: GeoPoint, to: GeoPoint): SeaRoute {
  const route = seaRoute(from, to);
  if (route) return route;
  const lengthNm = (haversineKm(from, to) / 1.852) * GREAT_CIRCLE_DETOUR;
  return {
    path: [
      [from.lat, from.lng],
      [to.lat, to.lng],
    ],
    lengthNm,
  };
}

/** The call the vessel left and the next one, placed; null when either has no coordinates. */
function legOf(sailing: Sailing, places: Places): Leg | null {
  const left = places.get(sailing.departedFrom);
  const next = places.get(sailing.callsAhead[0] ?? "");
  if (left?.lat == null || left.lng == null || next?.lat == null || next.lng == null) return null;
  const from = { lat: left.lat, lng: left.lng };
  const to = { lat: next.lat, lng: next.lng };
  return {
    left: from,
    next: to,
    leftCode: left.unLocode,
    nextCode: next.unLocode,
    lengthNm: sailingRoute(from, to).lengthNm,
  };
}

/** A container ship sails this fast at most: a position it could not have reached since is not its voyage. */
const FASTEST_KNOTS = 26;
/** The ship's own report of when it left a port and the box's departure event agree within this. */
const SAME_DEPARTURE_MS = 48 * HOUR_MS;
/** Within this of the port's catalogue position a moored ship is alongside there (terminals lie miles off). */
const ALONGSIDE_NM = 30;

/**
 * The ship's own AIS report puts it on the box's voyage even where the position lies off the direct
 * leg. Either it says it left the box's call at the box's departure (and has called nowhere since: a
 * ship sailing around the Cape where the network's route is Suez), and the position is one it could
 * have reached since (at most FASTEST_KNOTS); or it has called, since the box's departure, at ports of
 * its rotation the plan does not name (Singapore and Laem Chabang between Port Klang and Yantian) that
 * lie on the way, as do the port it is bound for and the position (sailing by each is at most half as
 * long again as the leg, plus 300 nm). Such positions were reported `off_planned_leg` though nothing was
 * wrong. A ship of that name elsewhere names ports off the way, and the leg's own check judges it.
 */
function reportedOnTheVoyage(fix: VesselFix, sailing: Sailing, leg: Leg): boolean {
  const last = fix.lastPort;
  if (!last || last.departedAt === null || sailing.departedAt === null) return false;
  const departedAt = sailing.departedAt;
  const at = { lat: fix.lat, lng: fix.lng };
  if (last.unLocode === leg.leftCode && Math.abs(last.departedAt - departedAt) <= SAME_DEPARTURE_MS) {
    const hours = Math.max(0, fix.fixedAt - departedAt) / HOUR_MS;
    return haversineKm(leg.left, at) / 1.852 <= hours * FASTEST_KNOTS + ALONGSIDE_NM;
  }
  if (last.departedAt < departedAt - HOUR_MS) return false;
  const onTheWay = (p: GeoPoint | null) =>
    p !== null &&
    sailingRoute(leg.left, p).lengthNm + sailingRoute(p, leg.next).lengthNm <= leg.lengthNm * 1.5 + 300;
  const bound = fix.nextPort == null || fix.nextPort === leg.nextCode ? leg.next : portAt(fix.nextPort);
  return onTheWay(portAt(last.unLocode)) && onTheWay(bound) && onTheWay(at);
}

/** A port's position from the port directory; null when it has none. */
function portAt(unLocode: string): GeoPoint | null {
  const port = findPort(unLocode);
  return port?.lat == null || port.lng == null ? null : { lat: port.lat, lng: port.lng };
}

/**
 * The box's ship has reached the port of discharge, the box being on its last leg: its report is moored
 * (or, without a status, stopped) within ALONGSIDE_NM of the port, or says it last left that port after
 * the box's departure. The carrier's document says so later: hours to days in the replay.
 */
export function arrivedAtPod(fix: VesselFix, sailing: Sailing, places: Places): boolean {
  if (sailing.callsAhead.length !== 1) return false;
  const pod = places.get(sailing.callsAhead[0]!);
  if (pod?.lat == null || pod.lng == null) return false;
  if (sailing.departedAt !== null && fix.fixedAt <= sailing.departedAt) return false;
  // Moored and bound for the port (AIS names the port a ship is alongside as its destination), or
  // stopped near it: a port's terminals lie up to 30 nm from its catalogue position (Maasvlakte).
  if (fix.moored === true && pod.unLocode !== null && fix.nextPort === pod.unLocode) return true;
  const stopped = fix.moored ?? (fix.speedKnots !== null && fix.speedKnots < 0.5);
  const alongside =
    stopped &&
    haversineKm({ lat: pod.lat, lng: pod.lng }, { lat: fix.lat, lng: fix.lng }) / 1.852 <= ALONGSIDE_NM;
  const calledThere =
    pod.unLocode !== null &&
    fix.lastPort?.unLocode === pod.unLocode &&
    fix.lastPort.departedAt !== null &&
    sailing.departedAt !== null &&
    fix.lastPort.departedAt > sailing.departedAt;
  return alongside || calledThere;
}

/** The key a vessel's fixes are kept under: its IMO number, else its name; null with neither. */
export function vesselKeyOf(vessel: TrackedVessel): string | null {
  const imo = vessel.imo === null ? null : String(vessel.imo).padStart(7, "0");
  if (imo && /^\d{7}$/.test(imo)) return `imo:${imo}`;
  return vessel.name ? `name:${vessel.name.trim().toUpperCase()}` : null;
}

/**
 * Whether a fix can be this leg's: sailing from the call the vessel left to the next one through the
 * fix is at most a third longer than the leg itself (plus 300 nm for a fix near either port). A fix
 * far off the leg belongs to another voyage of a ship of that name, or to a wrong position report.
 */
function onTheLeg(at: GeoPoint, aheadNm: number, leg: Leg): boolean {
  return sailingRoute(leg.left, at).lengthNm + aheadNm <= leg.lengthNm * (4 / 3) + 300;
}

/**
 * The speed made good toward the next call over successive fixes (oldest first): the fall of the
 * sea-route distance to go per hour between the oldest and the newest, and whether the older and the
 * newer half of the window agree (within 30%, or 1.5 kn). Null with fewer than two fixes an hour apart.
 */
export function madeGoodFrom(fixes: readonly VesselFix[], next: GeoPoint): MadeGood | null {
  if (fixes.length < 2) return null;
  const togo = fixes.map((f) => ({
    at: f.fixedAt,
    nm: sailingRoute({ lat: f.lat, lng: f.lng }, next).lengthNm as number | null,
  }));
  const known = togo.filter((t): t is { at: number; nm: number } => t.nm !== null);
  if (known.length < 2) return null;
  const first = known[0]!;
  const last = known[known.length - 1]!;
  const spanHours = (last.at - first.at) / HOUR_MS;
  if (spanHours < 1) return null;
  const rate = (a: { at: number; nm: number }, b: { at: number; nm: number }) =>
    (a.nm - b.nm) / Math.max((b.at - a.at) / HOUR_MS, 1 / 60);
  const knots = rate(first, last);
  const middle = known[Math.floor((known.length - 1) / 2)]!;
  let consistent = known.length >= 3;
  if (consistent && middle !== first && middle !== last) {
    const older = rate(first, middle);
    const newer = rate(middle, last);
    const gap = Math.abs(older - newer);
    consistent = gap <= 1.5 || gap <= 0.3 * Math.max(Math.abs(older), Math.abs(newer));
  }
  return { knots, fixes: known.length, spanHours, consistent };
}

/** Degrees between a fix's course and the route's first bearing; null when unknown or not under way. */
function courseOffRoute(fix: VesselFix, path: readonly (readonly [number, number])[]): number | null {
  if (fix.courseDeg == null || fix.speedKnots === null || fix.speedKnots < 5) return null;
  // A route point some 200 nm on: the path starts at the fix and then snaps to the network's nearest
  // node, which may lie behind the ship; the bearing to a point further on is the way it must go.
  const target = path.find(
    ([lat, lng]) => Math.hypot(lat - fix.lat, (lng - fix.lng) * Math.cos((fix.lat * Math.PI) / 180)) > 3.3,
  );
  if (!target) return null;
  const rad = Math.PI / 180;
  const [lat2, lng2] = target;
  const y = Math.sin((lng2 - fix.lng) * rad) * Math.cos(lat2 * rad);
  const x =
    Math.cos(fix.lat * rad) * Math.sin(lat2 * rad) -
    Math.sin(fix.lat * rad) * Math.cos(lat2 * rad) * Math.cos((lng2 - fix.lng) * rad);
  const bearing = (Math.atan2(y, x) / rad + 360) % 360;
  const off = Math.abs(bearing - fix.courseDeg) % 360;
  return off > 180 ? 360 - off : off;
}
