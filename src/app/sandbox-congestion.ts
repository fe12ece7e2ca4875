/**
 * The sandbox world's congestion (issue 36): its board and per-port readings come from day one's
 * mechanism (day-one.ts `sampleRecentPast`), run on the sandbox's frozen moment, so a sandbox reading
 * has the live shape: all five components and 90 days of history, computed at the sandbox's now.
 *
 * Dwell, ETA slip and schedule deviation come from tracked shipments discharged at the port, and the
 * sandbox organisation's eight discharge elsewhere. So the world also tracks a few of the simulator's
 * shipments per board port for an organisation of its own (no sandbox key reaches it): arrived in the
 * last days (today's components) and spread over the three months before (their baselines), each first
 * tracked a week before its arrival so its ETA slip is measured, as a customer's would be.
 */
import { actualArrivalAtPod, type SimulatedWorld } from "../../simulator/world/world";
import type { Principal } from "../domain/accounts/principal";
import type { ScheduleSource } from "../domain/schedules/schedule-source";
import type { ManualClock } from "../lib/clock";
import type { Logger } from "../observability/logger";
import { type DayOneReport, type DemoShipmentPick, sampleRecentPast, simulatorPastPortArea } from "./day-one";
import type { Services } from "./services";

/** Ports the sandbox world scores (its board). */
export const SANDBOX_CONGESTION_PORTS = ["CNSHA", "SGSIN", "NLRTM"] as const;
/** The organisation whose tracked shipments give the board ports their shipment components. */
export const SANDBOX_PORT_WATCH_ORGANIZATION = "Sandbox port watch";

/**
 * The shipments tracked for the board ports, chosen by day one's own picker with the sandbox's ports
 * (`npx tsx scripts/pick-sandbox-port-shipments.ts` prints them; searching the world takes about ten
 * seconds, too long for every build). Per port: four arrived 1 to 12 days before the frozen moment
 * (spread over those days, so some have left the terminal: today's dwell), three spread over the months before. test/api/sandbox.test.ts checks every reading has all five
 * components, so a change of the world that breaks the choice shows there.
 */
export const SANDBOX_PORT_SHIPMENTS: readonly { scac: string; reference: string }[] = [
  { scac: "EGLV", reference: "000023465998" }, // CNSHA, arrived 1.9 days before
  { scac: "COSU", reference: "0007157652" }, // CNSHA, arrived 2.8 days before
  { scac: "HLCU", reference: "021587833" }, // CNSHA, arrived 7.8 days before
  { scac: "ONEY", reference: "AAAA17538558" }, // CNSHA, arrived 10.1 days before
  { scac: "MAEU", reference: "039991129" }, // CNSHA, arrived 15.9 days before
  { scac: "YMLU", reference: "005020586" }, // CNSHA, arrived 33.9 days before
  { scac: "CMDU", reference: "AAG4963061" }, // CNSHA, arrived 82.9 days before
  { scac: "MSCU", reference: "0061286778" }, // SGSIN, arrived 1.0 days before
  { scac: "ONEY", reference: "AAAA50535277" }, // SGSIN, arrived 1.9 days before
  { scac: "MAEU", reference: "128992308" }, // SGSIN, arrived 4.0 days before
  { scac: "HDMU", reference: "AAAA02324474" }, // SGSIN, arrived 4.2 days before
  { scac: "MAEU", reference: "139991429" }, // SGSIN, arrived 13.1 days before
  { scac: "CMDU", reference: "AAG8975913" }, // SGSIN, arrived 39.0 days before
  { scac: "ZIMU", reference: "AAB5540705" }, // SGSIN, arrived 75.0 days before
  { scac: "MSCU", reference: "0002284313" }, // NLRTM, arrived 3.0 days before
  { scac: "HDMU", reference: "AAAA00325868" }, // NLRTM, arrived 3.0 days before
  { scac: "HLCU", reference: "085591641" }, // NLRTM, arrived 6.4 days before
  { scac: "ONEY", reference: "AAAA31539680" }, // NLRTM, arrived 6.4 days before
  { scac: "MSCU", reference: "0019280556" }, // NLRTM, arrived 12.7 days before
  { scac: "CMDU", reference: "AAG0969589" }, // NLRTM, arrived 31.0 days before
  { scac: "CMDU", reference: "AAD9963486" }, // NLRTM, arrived 79.1 days before
];

/** How long before its arrival an arrived shipment was first tracked (day one's rule). */
const FOLLOWED_BEFORE_ARRIVAL_MS = 7 * 86_400_000;

/** Each chosen shipment with its arrival and first tracking, from the world (a few ms each). */
export function sandboxPortPicks(world: SimulatedWorld, now: Date): DemoShipmentPick[] {
  return SANDBOX_PORT_SHIPMENTS.flatMap(({ scac, reference }) => {
    const shipment = world.shipmentFor(scac, reference, "booking", now);
    if (!shipment) return [];
    const arrival = actualArrivalAtPod(shipment);
    return [
      {
        scac,
        reference,
        portOfDischarge: shipment.portOfDischarge.unLocode,
        arrival,
        followedFrom: Math.max(
          arrival - FOLLOWED_BEFORE_ARRIVAL_MS,
          shipment.bookedAt.getTime() + 6 * 3_600_000,
        ),
      },
    ];
  });
}

/**
 * Tracks the chosen shipments (first a week before each arrival, then at the frozen moment), then
 * samples and scores the board ports' last 111 days with day one's rules, today by the congestion
 * service itself. Leaves the clock at the frozen moment.
 */
export async function watchSandboxCongestion(input: {
  services: Services;
  clock: ManualClock;
  world: SimulatedWorld;
  watcher: Principal;
  scheduleSources: readonly ScheduleSource[];
  logger: Logger;
  /** The server stopping: day one's sampling stops between steps (it throws DayOneStopped). */
  stop?: AbortSignal;
}): Promise<DayOneReport> {
  const { services, clock, watcher, logger } = input;
  const now = clock.now();
  const picks = sandboxPortPicks(input.world, now);
  const track = (pick: DemoShipmentPick) =>
    services.tracking.track(watcher, {
      reference: pick.reference,
      type: "booking",
      carrier: pick.scac,
      freshness: "fetch",
      surface: "v1",
    });
  for (const pick of [...picks]
    .filter((p) => p.arrival < now.getTime())
    .sort((a, b) => a.followedFrom - b.followedFrom)) {
    if (input.stop?.aborted) break;
    clock.set(new Date(pick.followedFrom));
    await track(pick);
  }
  clock.set(now);
  for (const pick of picks) await track(pick);
  return sampleRecentPast({
    services,
    demo: null,
    portArea: simulatorPastPortArea,
    scheduleSources: input.scheduleSources,
    logger,
    carriers: [],
    ports: SANDBOX_CONGESTION_PORTS,
    stop: input.stop,
  });
}
