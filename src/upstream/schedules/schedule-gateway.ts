import { findPortEntry } from "../../domain/ports/port-directory";
import type { ScheduleSource } from "../../domain/schedules/schedule-source";
import type { Clock } from "../../lib/clock";
import type { CarrierRegistry } from "../carriers/carrier-registry";
import { createDcsaCsAdapter } from "./dcsa-cs.adapter";

/**
 * Which carriers' Commercial Schedules APIs a schedule search asks. By default the ten largest lines
 * (QUAYSIDE_SCHEDULE_CARRIERS changes the list). In simulator mode every one of them is at
 * `{simulator}/{SCAC}/v1/point-to-point-routes`; in live mode a carrier is asked only when
 * `QUAYSIDE_CARRIER_<SCAC>_SCHEDULES_URL` names its CS base URL, with the credentials its carrier
 * registry entry uses for Track & Trace (carriers publish both on one API portal).
 */
export const DEFAULT_SCHEDULE_CARRIERS = [
  "MSCU",
  "MAEU",
  "CMDU",
  "COSU",
  "HLCU",
  "ONEY",
  "EGLV",
  "HDMU",
  "YMLU",
  "ZIMU",
] as const;

export function createScheduleSources(input: {
  scacs: readonly string[];
  registry: CarrierRegistry;
  simulatorUrl: string | undefined;
  environment: Readonly<Record<string, string | undefined>>;
  clock: Clock;
  timeoutMs: number;
  attempts: number;
}): ScheduleSource[] {
  const adapters: ScheduleSource[] = [];
  for (const scac of input.scacs) {
    const entry = input.registry.get(scac);
    const simulator = input.simulatorUrl?.replace(/\/+$/, "");
    const baseUrl = simulator
      ? `${simulator}/${scac}`
      : input.environment[`QUAYSIDE_CARRIER_${scac}_SCHEDULES_URL`]?.trim() || undefined;
    if (!baseUrl) continue;
    adapters.push(
      createDcsaCsAdapter({
        scac,
        baseUrl,
        auth: entry?.auth ?? { kind: "none" },
        clock: input.clock,
        timeoutMs: input.timeoutMs,
        retry: { maxAttempts: input.attempts },
        portName: (locode) => findPortEntry(locode)?.name,
      }),
    );
  }
  return adapters;
}
