/**
 * The world's container terminals: `GET /terminals/<SMDG code>/containers/<box>?line=<SCAC>`, in the
 * shape of a terminal operating system's public container inquiry (there is no DCSA standard for it).
 * A terminal knows a box from its manifest (two days before the box is discharged there) on; it answers where the box is, whether it may be picked up, the holds on it, and the last free
 * days, all from the shipment the world plans for the box and the simulator's clock.
 *
 * Holds, deterministic per box [unsourced defaults, as wave2-anchors section 4.2 proposes]:
 * - about 8% of boxes are selected for a customs inspection: held from discharge for 1 to 3 days;
 * - about 15% carry a freight hold until the consignee pays the line: from the manifest until 4 to 48
 *   hours after discharge, `Pending` for its last 2 hours (paid, the release not yet sent);
 * every hold is lifted at least 3 hours before the box's gate-out, so a box never leaves held.
 * Holds not on a box are listed with a blank status, as terminal inquiry pages show them; a blank hold
 * is no hold. The box is available for pickup once grounded in the yard (2 to 6 hours after discharge)
 * with no hold on it, until it gates out. The terminal's last free day is 4 days after the discharge
 * day (port's time zone); the line publishes its own (5 days) for about 60% of boxes.
 */
import { CARRIERS } from "../reference-data/carriers";
import { containerPrefixesOf } from "./world/carrier-profiles";
import { unitHash } from "./world/hash";
import { toLocalIso, toUtcIso } from "./world/local-time";
import { findSimulatedCarrier, normalizeReference } from "./world/references";
import type { Milestone, Site } from "./world/shipment-plan";
import { actualTime } from "./world/shipment-timeline";
import type { Shipment, SimulatedWorld } from "./world/world";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MANIFEST_LEAD = 2 * DAY;
export const CUSTOMS_INSPECTION_SHARE = 0.08;
export const FREIGHT_HOLD_SHARE = 0.15;
const LINE_LFD_SHARE = 0.6;
const TERMINAL_FREE_DAYS = 4;
const LINE_FREE_DAYS = 5;
const RELEASE_BEFORE_GATE_OUT = 3 * HOUR;
const PENDING_BEFORE_RELEASE = 2 * HOUR;

export type TerminalAnswer = { status: 200; body: object } | { status: 400 | 404; body: { error: string } };

interface PlannedHold {
  name: "Customs" | "Freight";
  placedAt: number;
  releasedAt: number;
  description: string;
}

/** The box's times at the terminal, from the world's plan of its shipment. */
export interface BoxAtTerminal {
  shipment: Shipment;
  site: Site;
  dischargeAt: number;
  gateOutAt: number;
  groundedAt: number;
  holds: PlannedHold[];
  lastFreeDayTerminal: string;
  lastFreeDayLine: string | null;
  yardLocation: string;
}

function addDays(localDate: string, days: number): string {
  const at = new Date(`${localDate}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

function linesFor(box: string, line: string | null): string[] {
  if (line) {
    const carrier = findSimulatedCarrier(line);
    return carrier ? [carrier.scac] : [];
  }
  const owner = box.slice(0, 4);
  return CARRIERS.filter((c) => containerPrefixesOf(c).includes(owner)).map((c) => c.scac);
}

/** Where and when a box is at a terminal, or undefined when the terminal never has it. */
export function boxAtTerminal(
  world: SimulatedWorld,
  {
    terminalCode,
    box,
    line,
    nowMs,
  }: { terminalCode: string; box: string; line: string | null; nowMs: number },
): BoxAtTerminal | undefined {
  for (const scac of linesFor(box, line)) {
    const shipment = world.shipmentFor(scac, box, "equipment", new Date(nowMs));
    if (!shipment || shipment.cancelled) continue;
    const plan = shipment.plan;
    const index = plan.containers.findIndex((c) => c.equipmentReference === box);
    const last = plan.legs.length - 1;
    const discharge = plan.milestones.find((m) => m.key === `C${index}-DISC-L${last}`);
    const site = discharge?.site;
    if (!discharge || !site || site.smdgCode !== terminalCode) continue;
    const dischargeAt = actualTime(discharge, shipment.timeline);
    const leaving = plan.milestones
      .filter(
        (m): m is Milestone & { site: Site } =>
          m.container === index &&
          (m.code === "GTOT" || m.code === "LOAD") &&
          m.site?.unLocode === site.unLocode &&
          actualTime(m, shipment.timeline) > dischargeAt,
      )
      .map((m) => actualTime(m, shipment.timeline))
      .sort((a, b) => a - b)[0];
    const gateOutAt = leaving ?? dischargeAt + 5 * DAY;
    const seed = `${shipment.key}|${box}|terminal`;
    const latestRelease = Math.max(dischargeAt + HOUR, gateOutAt - RELEASE_BEFORE_GATE_OUT);
    const holds: PlannedHold[] = [];
    if (unitHash(seed, "customs") < CUSTOMS_INSPECTION_SHARE) {
      const days = 1 + unitHash(seed, "customs-days") * 2;
      holds.push({
        name: "Customs",
        placedAt: dischargeAt,
        releasedAt: Math.min(dischargeAt + days * DAY, latestRelease),
        description: "Selected for customs examination",
      });
    }
    if (unitHash(seed, "freight") < FREIGHT_HOLD_SHARE) {
      const hours = 4 + unitHash(seed, "freight-hours") * 44;
      holds.push({
        name: "Freight",
        placedAt: dischargeAt - MANIFEST_LEAD,
        releasedAt: Math.min(dischargeAt + hours * HOUR, latestRelease),
        description: "Freight charges unpaid",
      });
    }
    const dischargeDay = toLocalIso(dischargeAt, site.timeZone).slice(0, 10);
    const block = String.fromCharCode(65 + Math.floor(unitHash(seed, "block") * 8));
    const row = String(1 + Math.floor(unitHash(seed, "row") * 40)).padStart(2, "0");
    const tier = 1 + Math.floor(unitHash(seed, "tier") * 5);
    return {
      shipment,
      site,
      dischargeAt,
      gateOutAt,
      groundedAt: dischargeAt + (2 + unitHash(seed, "grounding") * 4) * HOUR,
      holds,
      lastFreeDayTerminal: addDays(dischargeDay, TERMINAL_FREE_DAYS),
      lastFreeDayLine:
        unitHash(seed, "line-lfd") < LINE_LFD_SHARE ? addDays(dischargeDay, LINE_FREE_DAYS) : null,
      yardLocation: `${block}${row}-${String(1 + Math.floor(unitHash(seed, "bay") * 30)).padStart(2, "0")}-${tier}`,
    };
  }
  return undefined;
}

const CONTAINER_NUMBER = /^[A-Z]{4}\d{7}$/;

/** The answer of a terminal's container inquiry at `nowMs`. */
export function terminalAnswer(
  world: SimulatedWorld,
  {
    terminalCode,
    containerNumber,
    params,
    nowMs,
  }: { terminalCode: string; containerNumber: string; params: URLSearchParams; nowMs: number },
): TerminalAnswer {
  const code = terminalCode.trim().toUpperCase();
  const box = normalizeReference(containerNumber);
  if (!/^[A-Z0-9]{3,6}$/.test(code))
    return { status: 400, body: { error: "terminal code is 3 to 6 letters or digits" } };
  if (!CONTAINER_NUMBER.test(box))
    return { status: 400, body: { error: "container number is 4 letters and 7 digits" } };
  const line = params.get("line")?.trim().toUpperCase() || null;
  const at = boxAtTerminal(world, { terminalCode: code, box, line, nowMs });
  if (!at || nowMs < at.dischargeAt - MANIFEST_LEAD) {
    return { status: 404, body: { error: `Container ${box} is not known at terminal ${code}.` } };
  }
  const discharged = nowMs >= at.dischargeAt;
  const gatedOut = nowMs >= at.gateOutAt;
  const stamp = (ms: number) => toUtcIso(ms);
  const activeHolds = at.holds.filter((h) => nowMs >= h.placedAt && nowMs < h.releasedAt);
  const heldNow = activeHolds.some(
    (h) => nowMs < h.releasedAt - PENDING_BEFORE_RELEASE || h.name === "Customs",
  );
  const available = discharged && !gatedOut && nowMs >= at.groundedAt && !heldNow;
  // When the box first became available: grounded and every hold lifted (or pending).
  const availableFrom = Math.max(
    at.groundedAt,
    ...at.holds.map((h) => (h.name === "Freight" ? h.releasedAt - PENDING_BEFORE_RELEASE : h.releasedAt)),
  );
  const events: { type: string; hold?: string; at: string }[] = [];
  const happened = (ms: number) => ms <= nowMs;
  for (const hold of at.holds) {
    if (happened(hold.placedAt)) events.push({ type: "HOLD", hold: hold.name, at: stamp(hold.placedAt) });
    if (happened(hold.releasedAt))
      events.push({ type: "RELEASE", hold: hold.name, at: stamp(hold.releasedAt) });
  }
  if (discharged) events.push({ type: "DISCHARGED", at: stamp(at.dischargeAt) });
  if (happened(availableFrom) && availableFrom < at.gateOutAt) {
    events.push({ type: "AVAILABLE", at: stamp(availableFrom) });
  }
  if (gatedOut) events.push({ type: "GATE_OUT", at: stamp(at.gateOutAt) });
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const holdRows = (["Customs", "Freight", "USDA", "TMF", "Other"] as const).map((name) => {
    const hold = activeHolds.find((h) => h.name === name);
    if (!hold) return { name, status: "", description: "" };
    const pending = hold.name === "Freight" && nowMs >= hold.releasedAt - PENDING_BEFORE_RELEASE;
    return { name, status: pending ? "Pending" : "Hold", description: hold.description };
  });
  return {
    status: 200,
    body: {
      terminal: { code, name: at.site.locationName, locode: at.site.unLocode },
      container: box,
      line: at.shipment.scac,
      checkedAt: stamp(nowMs),
      state: gatedOut ? "GATED_OUT" : discharged ? "IN_YARD" : "ON_VESSEL",
      available,
      holds: holdRows,
      lastFreeDay: {
        line: discharged ? at.lastFreeDayLine : null,
        terminal: discharged ? at.lastFreeDayTerminal : null,
      },
      yardLocation: discharged && !gatedOut ? at.yardLocation : null,
      dischargedAt: discharged ? stamp(at.dischargeAt) : null,
      gateOutAt: gatedOut ? stamp(at.gateOutAt) : null,
      events,
    },
  };
}
