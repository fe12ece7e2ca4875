import type { Logger } from "pino";
import type { AppConfig } from "../../config";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { CarrierRegistry } from "../../upstream/carriers/carrier-registry";
import type { ScheduleAdapter } from "../../upstream/schedules/dcsa-cs.adapter";
import { createScheduleAdapters } from "../../upstream/schedules/schedule-gateway";
import { AisFeedIngester, parseAisFeed } from "../../upstream/vessels/ais-feed.ingester";
import { AisPositionsProvider } from "../../upstream/vessels/ais-positions.provider";
import { SimulatorPositionsAdapter } from "../../upstream/vessels/simulator-positions.adapter";
import type { VesselPositionProvider } from "../../upstream/vessels/vessel-position-provider";
import type { Carrier } from "../carriers/carrier-directory";
import type { FixedWindowLimiter } from "../limits/fixed-window";
import { PortsService } from "../ports/ports.service";
import { SchedulesService } from "../schedules/schedules.service";
import type { DocumentStore } from "../tracking/document-store";
import { VesselPositionsService } from "../vessels/vessel-positions.service";
import { CarrierLookupService, storeEvidenceSources } from "./carrier-lookup.service";
import { LookupAllowanceService } from "./lookup-allowance";
import { createLookupCache, type LookupCache } from "./lookup-cache";

/** The reference-data and lookup half of the core: ports, carrier lookups, vessels, schedules. */
export interface LookupServices {
  ports: PortsService;
  allowances: LookupAllowanceService;
  carrierLookups: CarrierLookupService;
  vesselPositions: VesselPositionsService;
  schedules: SchedulesService;
  cache: LookupCache;
  close(): Promise<void>;
}

/** Where vessel positions and schedules come from, built by the composition root. */
export interface LookupUpstreams {
  vesselProviders: VesselPositionProvider[];
  scheduleAdapters: ScheduleAdapter[];
}

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
  if (config.aisFeed) vesselProviders.push(new AisPositionsProvider(input.prisma));
  if (input.simulatorUrl) {
    vesselProviders.push(
      new SimulatorPositionsAdapter(input.simulatorUrl, {
        clock: input.clock,
        timeoutMs: config.carrierCalls.timeoutMs,
        attempts: config.carrierCalls.attempts,
      }),
    );
  }
  return {
    vesselProviders,
    scheduleAdapters: createScheduleAdapters({
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

export function createLookupServices(input: {
  config: AppConfig;
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  limiter: FixedWindowLimiter;
  documents: DocumentStore;
  directory: readonly Carrier[];
  upstreams?: LookupUpstreams;
}): LookupServices {
  let lastWarning = 0;
  const cache = createLookupCache(input.config.redisUrl, input.clock, (error) => {
    const now = Date.now();
    if (now - lastWarning > 60_000) {
      lastWarning = now;
      input.logger.warn(
        { err: error },
        "Redis unreachable: lookup caches fall back to this process's memory",
      );
    }
  });
  const allowances = new LookupAllowanceService(input.limiter);
  return {
    ports: new PortsService(input.prisma, input.clock),
    allowances,
    carrierLookups: new CarrierLookupService({
      directory: input.directory,
      sources: storeEvidenceSources(input.documents),
      allowance: allowances,
      cache,
    }),
    vesselPositions: new VesselPositionsService({
      providers: input.upstreams?.vesselProviders ?? [],
      allowance: allowances,
      cache,
    }),
    schedules: new SchedulesService({
      adapters: input.upstreams?.scheduleAdapters ?? [],
      allowance: allowances,
      cache,
    }),
    cache,
    close: () => cache.close(),
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
