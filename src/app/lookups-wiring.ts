/**
 * The lookups' wiring: which upstream adapters answer vessel positions and schedules, and the work the
 * lookups start with the process (the port catalogue, the AIS feed).
 */
import type { Logger } from "pino";
import type { AppConfig } from "../config";
import type { PortAreaSource } from "../domain/congestion/port-area-source";
import type { LookupServices, LookupUpstreams } from "../domain/lookups/lookups";
import type { VesselPositionProvider } from "../domain/vessels/vessel-position-provider";
import type { PrismaClient } from "../generated/prisma/client";
import type { Clock } from "../lib/clock";
import type { CarrierRegistry } from "../upstream/carriers/carrier-registry";
import { createScheduleSources } from "../upstream/schedules/schedule-gateway";
import { AisFeedIngester, parseAisFeed } from "../upstream/vessels/ais-feed.ingester";
import { AisPortAreaProvider } from "../upstream/vessels/ais-port-area.provider";
import { AisPositionsProvider } from "../upstream/vessels/ais-positions.provider";
import { SimulatorPortAreaAdapter } from "../upstream/vessels/simulator-port-area.adapter";
import { SimulatorPositionsAdapter } from "../upstream/vessels/simulator-positions.adapter";

/**
 * Vessel positions: the AIS feed's stored positions when `QUAYSIDE_AIS_FEED` is set, then the carrier
 * simulator's world when it runs embedded; the first that knows the vessel answers. Schedules: the
 * configured carriers' DCSA Commercial Schedules APIs (the simulator's in embedded mode).
 */
export function createLookupUpstreams(input: {
  config: AppConfig;
  prisma: PrismaClient;
  registry: CarrierRegistry;
  simulatorUrl: string | undefined;
  clock: Clock;
}): LookupUpstreams {
  const { config } = input;
  const vesselProviders: VesselPositionProvider[] = [];
  const portAreaSources: PortAreaSource[] = [];
  if (config.aisFeed) {
    vesselProviders.push(new AisPositionsProvider(input.prisma));
    portAreaSources.push(new AisPortAreaProvider(input.prisma, input.clock));
  }
  if (input.simulatorUrl) {
    vesselProviders.push(
      new SimulatorPositionsAdapter(input.simulatorUrl, {
        clock: input.clock,
        timeoutMs: config.carrierCalls.timeoutMs,
        attempts: config.carrierCalls.attempts,
      }),
    );
    portAreaSources.push(
      new SimulatorPortAreaAdapter(input.simulatorUrl, {
        clock: input.clock,
        timeoutMs: config.carrierCalls.timeoutMs,
        attempts: config.carrierCalls.attempts,
      }),
    );
  }
  return {
    vesselProviders,
    portAreaSources,
    scheduleSources: createScheduleSources({
      scacs: config.scheduleCarriers,
      registry: input.registry,
      simulatorUrl: input.simulatorUrl,
      environment: config.environment,
      clock: input.clock,
      timeoutMs: config.carrierCalls.timeoutMs,
      attempts: config.carrierCalls.attempts,
    }),
  };
}

/** Start-up work of the lookups: the port catalogue, and the AIS feed when one is configured. */
export async function startLookupWork(input: {
  config: AppConfig;
  lookups: LookupServices;
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
}): Promise<{ ingester: AisFeedIngester | null; stop(): Promise<void> }> {
  await input.lookups.ports.refresh();
  let ingester: AisFeedIngester | null = null;
  if (input.config.aisFeed) {
    ingester = new AisFeedIngester({
      source: parseAisFeed(input.config.aisFeed),
      prisma: input.prisma,
      clock: input.clock,
      logger: input.logger,
    });
    await ingester.start();
  }
  return {
    ingester,
    stop: async () => {
      await ingester?.stop();
    },
  };
}
