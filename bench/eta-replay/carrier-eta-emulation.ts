/**
 * A fast stand-in for the service-path replay when fitting settings that read only the carrier's ETA
 * history (issue 34: a published late departure made good, RECOVERY_* in eta-model.ts): for each
 * voyage of a split (the replay's own selection, voyages.ts), the carrier's ETA at the port of
 * discharge as the world publishes it at each 12-hour step from the moment the reference answers to
 * the arrival (the estimate its events carry: the plan's time plus the shifts the carrier has published
 * by then, to the quarter hour), and the departure from the port of loading (actual once sailed, else
 * the estimate). The committed model is run on those inputs as the service passes them (no position:
 * `not_sailing`) and scored against the world's arrival, by the bucket of its own horizon and source.
 *
 * Not the service's path: no position faults, no stored documents, no workers; the judged figures stay
 * `npm run bench -- --scenarios eta-replay`. It takes a minute where the replay takes tens.
 *
 *   npx tsx bench/eta-replay/carrier-eta-emulation.ts tuning      # fit here
 *   npx tsx bench/eta-replay/carrier-eta-emulation.ts validation  # report only, never fit
 */
import { normalizeReference } from "../../simulator/world/references";
import type { Milestone } from "../../simulator/world/shipment-plan/model";
import {
  actualTime,
  knownDelays,
  knownShifts,
  sailingOf,
  shiftOf,
} from "../../simulator/world/shipment-timeline";
import { SimulatedWorld } from "../../simulator/world/world";
import {
  HORIZON_BUCKETS,
  predictEta,
  SERVICE_CARRIER_P50_SHIFT_HOURS,
  SERVICE_CARRIER_SLIP80_HOURS,
  SERVICE_CONNECTION_SLIP80_HOURS,
  SERVICE_MODEL_WEIGHT,
  SERVICE_RECOVERY_SLIP80_HOURS,
} from "../../src/domain/eta/eta-model";
import { REPLAY_VOYAGES, type ReplaySplit, SPLITS, STEP_HOURS } from "./scenario";
import { selectVoyages } from "./voyages";

const HOUR = 3_600_000;
const ROUNDING = 15 * 60_000;

interface Cell {
  n: number;
  beforeP50: number;
  beforeP80: number;
  errP50: number;
  errCarrier: number;
  farOff: number;
}

/**
 * Why the carrier's ETA at a step is off the arrival (`--breakdown`): what the world had not yet
 * published, on the last vessel leg (the arrival is that leg's sailing's): the box will miss its
 * connection and sail a later sailing than the one the carrier still names; the ship's late departure
 * from the leg's port of loading is not yet announced; the delay at sea is not yet revised (positive:
 * an incident or episode ahead; negative: lateness the ship will make good that the carrier still
 * carries). A row takes the cause with the largest part of its error (`on_time` under 1 h).
 */
export interface BreakdownRow {
  bucket: string;
  source: string;
  transshipped: boolean;
  sailed: boolean;
  cause: string;
  /** Hours: arrival minus the carrier's ETA, and the parts of it by cause. */
  carrierError: number;
  p50Error: number;
  missed: number;
  departure: number;
  sea: number;
  /** How late the last leg's ship really leaves its port of loading, hours (what AIS could show). */
  shipLateAtLoad: number;
  horizonDays: number;
}

function emulate(split: ReplaySplit, rows?: BreakdownRow[]): Map<string, Cell> {
  const { seed, from, days } = SPLITS[split];
  const selection = selectVoyages({ seed, count: REPLAY_VOYAGES, from: new Date(from), days });
  const world = new SimulatedWorld(64);
  const cells = new Map<string, Cell>();
  const step = STEP_HOURS * HOUR;
  for (const voyage of selection.voyages) {
    const kind = voyage.type === "container" ? "equipment" : "booking";
    const shipment = world.shipmentFor(
      voyage.scac,
      voyage.reference,
      kind,
      new Date(voyage.trackableAt + HOUR),
    );
    if (!shipment) continue;
    const { plan, timeline } = shipment;
    const last = plan.legs.length - 1;
    const vesselMove = (code: string, leg: number) =>
      plan.milestones.find(
        (m) => m.code === code && m.transport?.kind === "vessel" && m.transport.leg === leg,
      );
    const arrival = vesselMove("ARRI", last);
    const departure = vesselMove("DEPA", 0);
    if (!arrival || !departure) continue;
    let first: number | null = null;
    let highestBeforeSailing: number | null = null;
    // The first connection (legs 0 and 1) as the service keeps it from the carrier's events.
    const tsArrival = plan.legs.length > 1 ? vesselMove("ARRI", 0) : undefined;
    const tsDeparture = plan.legs.length > 1 ? vesselMove("DEPA", 1) : undefined;
    let firstTsArrival: number | null = null;
    let bookedTsDeparture: number | null = null;
    let tsArrivalBeforeSailing: number | null = null;
    let bookedSailing: number | null = null;
    // The last leg of a transshipped box, per named sailing (the voyage the carrier's events name).
    const lastDeparture = plan.legs.length > 1 ? vesselMove("DEPA", last) : undefined;
    const firstDepartureOf = new Map<number, number>();
    const highestEtaOf = new Map<number, number>();
    for (let now = Math.ceil(voyage.trackableAt / step) * step; now < voyage.ata; now += step) {
      const known = knownShifts(plan, timeline, now);
      const estimate = (m: Milestone): number =>
        Math.round((timeline.bookedAt + m.rel + shiftOf(m.shift, known)) / ROUNDING) * ROUNDING;
      const carrierEta = estimate(arrival);
      first ??= carrierEta;
      const sailedAt = actualTime(departure, timeline);
      const sailed = now >= sailedAt;
      let connection = null;
      if (tsArrival && tsDeparture && !process.env.EMULATION_NO_CONNECTION) {
        const arrived = now >= actualTime(tsArrival, timeline);
        const arrivalAt = arrived ? actualTime(tsArrival, timeline) : estimate(tsArrival);
        firstTsArrival ??= arrivalAt;
        bookedTsDeparture ??= estimate(tsDeparture);
        bookedSailing ??= known.sailing[1] ?? 0;
        connection = {
          firstArrivalAt: firstTsArrival,
          arrivalBeforeSailing: tsArrivalBeforeSailing,
          arrivalAt,
          arrived,
          bookedDepartureAt: bookedTsDeparture,
          departureAt: estimate(tsDeparture),
          rolled: (known.sailing[1] ?? 0) !== (bookedSailing ?? 0),
          connected: now >= actualTime(tsDeparture, timeline),
        };
        if (!sailed) tsArrivalBeforeSailing = Math.max(tsArrivalBeforeSailing ?? arrivalAt, arrivalAt);
      }
      let lastLeg = null;
      if (lastDeparture) {
        const named = known.sailing[last] ?? 0;
        const lastSailedAt = actualTime(lastDeparture, timeline);
        const lastSailed = now >= lastSailedAt;
        const departureAt = lastSailed ? lastSailedAt : estimate(lastDeparture);
        if (!firstDepartureOf.has(named)) firstDepartureOf.set(named, departureAt);
        lastLeg = {
          firstDepartureAt: firstDepartureOf.get(named)!,
          departureAt,
          sailedAt: lastSailed ? lastSailedAt : null,
          highestCarrierEtaBeforeSailing: highestEtaOf.get(named) ?? null,
        };
        if (!lastSailed) highestEtaOf.set(named, Math.max(highestEtaOf.get(named) ?? carrierEta, carrierEta));
      }
      const prediction = predictEta({
        lastLeg,
        connection,
        connectionSlip80Hours: SERVICE_CONNECTION_SLIP80_HOURS,
        seedKey: `${voyage.scac}:${normalizeReference(voyage.reference)}`,
        now,
        carrierEta,
        carrierBias: {},
        vessel: null,
        pod: null,
        fallback: "not_sailing",
        carrierSlip80Hours: SERVICE_CARRIER_SLIP80_HOURS,
        carrierP50ShiftHours: SERVICE_CARRIER_P50_SHIFT_HOURS,
        modelWeight: SERVICE_MODEL_WEIGHT,
        firstCarrierEta: first,
        departure: {
          highestCarrierEtaBeforeSailing: highestBeforeSailing,
          polDepartureAt: sailed ? sailedAt : estimate(departure),
          sailedAt: sailed ? sailedAt : null,
          transshipment: plan.legs.length > 1,
        },
        recoverySlip80Hours: SERVICE_RECOVERY_SLIP80_HOURS,
      });
      // The service keeps this prediction's carrier ETA after computing it.
      if (!sailed) highestBeforeSailing = Math.max(highestBeforeSailing ?? carrierEta, carrierEta);
      if (!prediction) continue;
      if (rows) {
        const actual = timeline.actual;
        const lastSailing = sailingOf(plan, last, actual)!;
        const missedMs = known.sailing[last] !== actual.sailing[last] ? voyage.ata - carrierEta : 0;
        const depLate = lastSailing.actualDeparture - lastSailing.departure;
        const depKnown = now >= lastSailing.departure - 3 * 24 * HOUR ? depLate : 0;
        const arrTrue = lastSailing.actualArrival - lastSailing.arrival;
        const arrKnown = knownDelays(plan, timeline, now)[last] ?? 0;
        const depMs = missedMs ? 0 : depLate - depKnown;
        const seaMs = missedMs ? 0 : arrTrue - arrKnown - depMs;
        const parts = { missed: missedMs, departure: depMs, sea: seaMs };
        const [top] = Object.entries(parts).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
        const cause =
          Math.abs(voyage.ata - carrierEta) < HOUR
            ? "on_time"
            : top![0] === "sea"
              ? top![1] > 0
                ? "sea_delay_unrevised"
                : "recovery_unpublished"
              : top![0] === "departure"
                ? top![1] > 0
                  ? "late_departure_unpublished"
                  : "early_departure_unpublished"
                : "missed_connection";
        rows.push({
          bucket: prediction.horizonBucket,
          source: prediction.source,
          transshipped: plan.legs.length > 1,
          sailed,
          cause,
          carrierError: (voyage.ata - carrierEta) / HOUR,
          p50Error: (voyage.ata - prediction.p50) / HOUR,
          missed: missedMs / HOUR,
          departure: depMs / HOUR,
          sea: seaMs / HOUR,
          shipLateAtLoad: depLate / HOUR,
          horizonDays: (voyage.ata - now) / (24 * HOUR),
        });
      }
      for (const key of [
        `${prediction.horizonBucket} all`,
        `${prediction.horizonBucket} ${prediction.source}`,
      ]) {
        const cell = cells.get(key) ?? {
          n: 0,
          beforeP50: 0,
          beforeP80: 0,
          errP50: 0,
          errCarrier: 0,
          farOff: 0,
        };
        cell.n++;
        if (voyage.ata <= prediction.p50) cell.beforeP50++;
        if (voyage.ata <= prediction.p80) cell.beforeP80++;
        cell.errP50 += Math.abs(voyage.ata - prediction.p50) / HOUR;
        cell.errCarrier += Math.abs(voyage.ata - carrierEta) / HOUR;
        if (
          Math.abs(voyage.ata - prediction.p50) > 48 * HOUR &&
          Math.abs(voyage.ata - carrierEta) <= 12 * HOUR
        )
          cell.farOff++;
        cells.set(key, cell);
      }
    }
  }
  return cells;
}

const split = (process.argv[2] ?? "tuning") as ReplaySplit;
if (!(split in SPLITS)) throw new Error(`split: tuning or validation, not ${split}`);
const breakdown = process.argv.includes("--breakdown") ? ([] as BreakdownRow[]) : undefined;
const cells = emulate(split, breakdown);
console.log(`Carrier-ETA emulation, split ${split} (${SPLITS[split].seed}), ${REPLAY_VOYAGES} voyages\n`);
console.log(
  "| horizon | source | predictions | before p50 | before p80 | MAE p50 (h) | MAE carrier (h) | ratio | > 48 h off, carrier <= 12 h |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const bucket of HORIZON_BUCKETS) {
  for (const source of ["all", "blend", "carrier", "model"]) {
    const c = cells.get(`${bucket} ${source}`);
    if (!c) continue;
    const f = (v: number, d: number) => v.toFixed(d);
    console.log(
      `| ${source === "all" ? `**${bucket}**` : ""} | ${source} | ${c.n} | ${f(c.beforeP50 / c.n, 3)} | ${f(c.beforeP80 / c.n, 3)} | ${f(c.errP50 / c.n, 1)} | ${f(c.errCarrier / c.n, 1)} | ${f(c.errP50 / c.errCarrier, 3)} | ${c.farOff} |`,
    );
  }
}

if (breakdown) {
  // The >14 d rows' error by cause: how much of the summed absolute error of the carrier (and of p50)
  // each cause carries, split by transshipment and by whether the box had sailed.
  const gt = breakdown.filter((r) => r.bucket === "gt14d");
  const total = gt.reduce((s, r) => s + Math.abs(r.carrierError), 0);
  const totalP50 = gt.reduce((s, r) => s + Math.abs(r.p50Error), 0);
  console.log(
    `\n> 14 d: ${gt.length} predictions, summed |carrier error| ${total.toFixed(0)} h, |p50 error| ${totalP50.toFixed(0)} h\n`,
  );
  console.log(
    "| cause | transshipped | sailed | source | rows | share of carrier error | share of p50 error | mean carrier error (h) | mean p50 error (h) |",
  );
  console.log("|---|---|---|---|---:|---:|---:|---:|---:|");
  const groups = new Map<string, BreakdownRow[]>();
  for (const r of gt) {
    const key = `${r.cause} | ${r.transshipped ? "yes" : "no"} | ${r.sailed ? "yes" : "no"} | ${r.source}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const sorted = [...groups.entries()].sort(
    (a, b) =>
      b[1].reduce((s, r) => s + Math.abs(r.p50Error), 0) - a[1].reduce((s, r) => s + Math.abs(r.p50Error), 0),
  );
  for (const [key, rs] of sorted) {
    const c = rs.reduce((s, r) => s + Math.abs(r.carrierError), 0);
    const p = rs.reduce((s, r) => s + Math.abs(r.p50Error), 0);
    console.log(
      `| ${key} | ${rs.length} | ${(c / total).toFixed(3)} | ${(p / totalP50).toFixed(3)} | ${(rs.reduce((s, r) => s + r.carrierError, 0) / rs.length).toFixed(1)} | ${(rs.reduce((s, r) => s + r.p50Error, 0) / rs.length).toFixed(1)} |`,
    );
  }
  if (process.env.EMULATION_ROWS) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(process.env.EMULATION_ROWS, JSON.stringify(breakdown));
  }
}
