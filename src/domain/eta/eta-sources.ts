import type { Clock } from "../../lib/clock";
import type { CongestionService } from "../congestion/congestion.service";
import type { TrackedVessel } from "../tracking/model";
import type { VesselPositionProvider, VesselQuery } from "../vessels/vessel-position-provider";
import type { EtaSources, VesselFix } from "./eta.service";
import type { DataTier, PortWaitReading } from "./eta-model";

const CACHE_MS = 5 * 60_000;
/** When a reading gives no share of anchored calls, half of them are taken to wait. */
const DEFAULT_ANCHORED_SHARE = 0.5;

/**
 * The model's sources from the service's own parts: vessel positions from the configured position
 * providers (AIS store, the simulator's world; no lookup allowance is spent, the service asks for
 * itself), and port waits from the congestion readings. Both cached five minutes per process.
 */
export function etaSources(deps: {
  providers: readonly VesselPositionProvider[];
  congestion: Pick<CongestionService, "reading">;
  clock: Clock;
}): EtaSources {
  const fixes = new Map<string, { at: number; fix: VesselFix | null }>();
  const waits = new Map<string, { at: number; wait: PortWaitReading | null }>();
  const fresh = (at: number) => deps.clock.now().getTime() - at < CACHE_MS;
  return {
    async vesselFix(vessel: TrackedVessel) {
      const imo = vessel.imo === null ? null : String(vessel.imo).padStart(7, "0");
      const query: VesselQuery | null =
        imo && /^\d{7}$/.test(imo) ? { imo } : vessel.name ? { name: vessel.name } : null;
      if (!query) return null;
      const key = JSON.stringify(query);
      const cached = fixes.get(key);
      if (cached && fresh(cached.at)) return cached.fix;
      let fix: VesselFix | null = null;
      for (const provider of deps.providers) {
        const outcome = await provider.locate(query).catch(() => null);
        if (outcome?.kind !== "found") continue;
        const p = outcome.position;
        fix = {
          lat: p.lat,
          lng: p.lon,
          speedKnots: p.speed,
          courseDeg: p.course,
          fixedAt: Date.parse(p.positionAt),
          // What AIS itself says of the voyage (status, last port, destination): the arrival at the
          // port of discharge and a call of the rotation the box's plan does not name are read from it.
          // The destination's ETA is not read: crews type it, and it is no measurement.
          moored: p.navigationStatus === null ? undefined : /moored/i.test(p.navigationStatus),
          lastPort: p.origin?.locode
            ? { unLocode: p.origin.locode, departedAt: p.origin.at ? Date.parse(p.origin.at) : null }
            : null,
          nextPort: p.destination?.locode ?? null,
        };
        break;
      }
      fixes.set(key, { at: deps.clock.now().getTime(), fix });
      return fix;
    },
    async portWait(unLocode: string) {
      const cached = waits.get(unLocode);
      if (cached && fresh(cached.at)) return cached.wait;
      const outcome = await deps.congestion.reading(unLocode).catch(() => null);
      let wait: PortWaitReading | null = null;
      if (outcome?.kind === "scored" && outcome.reading.medianAnchorageWaitH !== null) {
        const r = outcome.reading;
        wait = {
          medianWaitHours: r.medianAnchorageWaitH!,
          anchoredShare: DEFAULT_ANCHORED_SHARE,
          tier: r.tier as DataTier,
          congested: r.bucket === "high" || r.bucket === "critical",
        };
      }
      waits.set(unLocode, { at: deps.clock.now().getTime(), wait });
      return wait;
    },
  };
}
