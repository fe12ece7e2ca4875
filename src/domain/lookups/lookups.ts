import type { Logger } from "pino";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Carrier } from "../carriers/carrier-directory";
import type { PortAreaSource } from "../congestion/port-area-source";
import type { FixedWindowLimiter } from "../limits/fixed-window";
import { PortsService } from "../ports/ports.service";
import type { ScheduleSource } from "../schedules/schedule-source";
import { SchedulesService } from "../schedules/schedules.service";
import type { DocumentStore } from "../tracking/document-store";
import type { VesselPositionProvider } from "../vessels/vessel-position-provider";
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

/** Where vessel positions and schedules come from: adapters built by the composition root. */
export interface LookupUpstreams {
  vesselProviders: VesselPositionProvider[];
  scheduleSources: ScheduleSource[];
  /** Who is at anchor off a port or alongside it: the congestion sampler's sources, in order. */
  portAreaSources?: PortAreaSource[];
}

export function createLookupServices(input: {
  /** Shared lookup caches through Redis when set, else this process's memory. */
  redisUrl: string | undefined;
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  limiter: FixedWindowLimiter;
  documents: DocumentStore;
  directory: readonly Carrier[];
  upstreams?: LookupUpstreams;
}): LookupServices {
  let lastWarning = 0;
  const cache = createLookupCache(input.redisUrl, input.clock, (error) => {
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
      adapters: input.upstreams?.scheduleSources ?? [],
      allowance: allowances,
      cache,
    }),
    cache,
    close: () => cache.close(),
  };
}
