import type {
  VesselPositionProvider,
  VesselPositionReport,
  VesselQuery,
} from "../../upstream/vessels/vessel-position-provider";
import type { Principal } from "../accounts/principal";
import type { AllowanceState, LookupAllowanceService } from "../lookups/lookup-allowance";
import type { LookupCache } from "../lookups/lookup-cache";

/** v1 section 8: vessel positions are served again for 5 minutes. */
export const VESSEL_POSITION_CACHE_MS = 5 * 60_000;

export const IMO_PATTERN = /^\d{7}$/;
export const MMSI_PATTERN = /^\d{9}$/;

export type VesselLookupOutcome =
  | { kind: "found"; position: VesselPositionReport; cached: boolean; allowance: AllowanceState | null }
  | { kind: "not_found"; query: VesselQuery; allowance: AllowanceState }
  | { kind: "limit_exceeded"; allowance: AllowanceState }
  | { kind: "unavailable"; reason: string; allowance: AllowanceState }
  | { kind: "invalid"; param: "imo" | "mmsi"; message: string };

/**
 * `/vessel/track` and MCP `track_vessel`: validate, serve from the 5-minute cache (free), else spend
 * one lookup of the key's daily vessel-and-schedule allowance and ask the providers in order; the first
 * that knows the vessel answers. A lookup no provider could serve (all failed) is refunded; "not found"
 * is a real answer and keeps its cost.
 */
export class VesselPositionsService {
  constructor(
    private readonly deps: {
      providers: readonly VesselPositionProvider[];
      allowance: LookupAllowanceService;
      cache: LookupCache;
    },
  ) {}

  get providerNames(): string[] {
    return this.deps.providers.map((p) => p.name);
  }

  async track(principal: Principal, query: VesselQuery): Promise<VesselLookupOutcome> {
    const imo = query.imo.trim();
    const mmsi = query.mmsi.trim();
    if (!IMO_PATTERN.test(imo)) return { kind: "invalid", param: "imo", message: "imo must be 7 digits." };
    if (!MMSI_PATTERN.test(mmsi))
      return { kind: "invalid", param: "mmsi", message: "mmsi must be 9 digits." };
    const cacheKey = `vessel:${imo}:${mmsi}`;
    const hit = await this.deps.cache.get<VesselPositionReport>(cacheKey);
    if (hit) return { kind: "found", position: hit, cached: true, allowance: null };

    const spend = await this.deps.allowance.spend(principal, "vessel_schedule");
    if (!spend.allowed) return { kind: "limit_exceeded", allowance: spend.state };

    const failures: string[] = [];
    for (const provider of this.deps.providers) {
      const outcome = await provider.locate({ imo, mmsi });
      if (outcome.kind === "found") {
        await this.deps.cache.set(cacheKey, outcome.position, VESSEL_POSITION_CACHE_MS);
        return { kind: "found", position: outcome.position, cached: false, allowance: spend.state };
      }
      if (outcome.kind === "unavailable") failures.push(`${provider.name}: ${outcome.reason}`);
    }
    if (failures.length > 0 || this.deps.providers.length === 0) {
      const allowance = await this.deps.allowance.refund(principal, "vessel_schedule");
      return {
        kind: "unavailable",
        reason: failures.join("; ") || "no vessel position source is configured",
        allowance,
      };
    }
    return { kind: "not_found", query: { imo, mmsi }, allowance: spend.state };
  }
}
