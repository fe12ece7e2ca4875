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
import { actualTime, knownShifts, shiftOf } from "../../simulator/world/shipment-timeline";
import { SimulatedWorld } from "../../simulator/world/world";
import {
  HORIZON_BUCKETS,
  predictEta,
  SERVICE_CARRIER_P50_SHIFT_HOURS,
  SERVICE_CARRIER_SLIP80_HOURS,
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

function emulate(split: ReplaySplit): Map<string, Cell> {
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
    for (let now = Math.ceil(voyage.trackableAt / step) * step; now < voyage.ata; now += step) {
      const known = knownShifts(plan, timeline, now);
      const estimate = (m: Milestone): number =>
        Math.round((timeline.bookedAt + m.rel + shiftOf(m.shift, known)) / ROUNDING) * ROUNDING;
      const carrierEta = estimate(arrival);
      first ??= carrierEta;
      const sailedAt = actualTime(departure, timeline);
      const sailed = now >= sailedAt;
      const prediction = predictEta({
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
const cells = emulate(split);
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
