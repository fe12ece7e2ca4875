import type { Principal } from "../accounts/principal";
import type { AllowanceState, LookupAllowanceService } from "../lookups/lookup-allowance";
import type { LookupCache } from "../lookups/lookup-cache";
import {
  normalizeVesselName,
  type VesselIdentity,
  type VesselPositionProvider,
  type VesselPositionReport,
  type VesselQuery,
} from "./vessel-position-provider";

/** v1 section 8: vessel positions are served again for 5 minutes. */
export const VESSEL_POSITION_CACHE_MS = 5 * 60_000;

export const IMO_PATTERN = /^\d{7}$/;
export const MMSI_PATTERN = /^\d{9}$/;
/** Longest vessel name asked (IMO registered names run to about 50 characters; AIS sends 20). */
export const MAX_VESSEL_NAME = 100;

/** What a caller asks: an IMO number (with the MMSI when known), or a vessel name alone. */
export interface VesselLookupInput {
  imo?: string | null;
  mmsi?: string | null;
  name?: string | null;
}

/** What was asked, as looked up: the numbers, or the name as given (trimmed) and as compared. */
export type AskedVessel =
  | { imo: string; mmsi: string | null; name: null }
  | { imo: null; mmsi: null; name: string; normalizedName: string };

export type VesselLookupOutcome =
  | { kind: "found"; position: VesselPositionReport; cached: boolean; allowance: AllowanceState | null }
  | { kind: "not_found"; query: AskedVessel; allowance: AllowanceState }
  | { kind: "ambiguous"; query: AskedVessel; candidates: VesselIdentity[]; allowance: AllowanceState }
  | { kind: "limit_exceeded"; allowance: AllowanceState }
  | { kind: "unavailable"; reason: string; allowance: AllowanceState }
  | { kind: "invalid"; param: "imo" | "mmsi" | "name"; message: string };

const blank = (text: string | null | undefined) => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
};

/** The input checked: what to look up, or the parameter at fault. Spends nothing. */
export function askedVessel(
  input: VesselLookupInput,
): AskedVessel | Extract<VesselLookupOutcome, { kind: "invalid" }> {
  const imo = blank(input.imo);
  const mmsi = blank(input.mmsi);
  const name = blank(input.name);
  if (name !== null) {
    if (imo !== null || mmsi !== null) {
      return { kind: "invalid", param: "name", message: "Give a vessel name or an IMO number, not both." };
    }
    const normalizedName = normalizeVesselName(name);
    if (name.length > MAX_VESSEL_NAME || normalizedName.replace(/ /g, "").length < 2) {
      return {
        kind: "invalid",
        param: "name",
        message: `name must hold 2 to ${MAX_VESSEL_NAME} characters, at least 2 of them letters or digits.`,
      };
    }
    return { imo: null, mmsi: null, name, normalizedName };
  }
  if (imo === null) {
    return { kind: "invalid", param: "imo", message: "imo is required (7 digits), or a vessel name." };
  }
  if (!IMO_PATTERN.test(imo)) return { kind: "invalid", param: "imo", message: "imo must be 7 digits." };
  if (mmsi !== null && !MMSI_PATTERN.test(mmsi))
    return { kind: "invalid", param: "mmsi", message: "mmsi must be 9 digits." };
  return { imo, mmsi, name: null };
}

/**
 * `/vessel/track` and MCP `track_vessel`: validate, serve from the 5-minute cache (free), else spend
 * one lookup of the key's daily vessel-and-schedule allowance and ask the providers in order; the first
 * that knows the vessel answers. A lookup no provider could serve (all failed) is refunded; "not found"
 * and "several vessels bear this name" (`ambiguous`, listing them) are real answers and keep their cost.
 * The cache key is what was asked: IMO and MMSI, IMO alone, or the normalised name, each cached apart.
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

  async track(principal: Principal, input: VesselLookupInput): Promise<VesselLookupOutcome> {
    const asked = askedVessel(input);
    if ("kind" in asked) return asked;
    const query: VesselQuery =
      asked.name !== null
        ? { name: asked.name }
        : asked.mmsi !== null
          ? { imo: asked.imo, mmsi: asked.mmsi }
          : { imo: asked.imo };
    // Per organisation: a shared entry would answer `cached: true` (and free) to an organisation
    // because another one asked about the vessel minutes ago, telling it who watches which ship.
    const org = principal.organization.id;
    const cacheKey =
      asked.name !== null
        ? `vessel-name:${org}:${asked.normalizedName}`
        : `vessel:${org}:${asked.imo}:${asked.mmsi ?? ""}`;
    const hit = await this.deps.cache.get<VesselPositionReport>(cacheKey);
    if (hit) return { kind: "found", position: hit, cached: true, allowance: null };

    const spend = await this.deps.allowance.spend(principal, "vessel_schedule");
    if (!spend.allowed) return { kind: "limit_exceeded", allowance: spend.state };

    const failures: string[] = [];
    for (const provider of this.deps.providers) {
      const outcome = await provider.locate(query);
      if (outcome.kind === "found") {
        await this.deps.cache.set(cacheKey, outcome.position, VESSEL_POSITION_CACHE_MS);
        return { kind: "found", position: outcome.position, cached: false, allowance: spend.state };
      }
      if (outcome.kind === "ambiguous") {
        return { kind: "ambiguous", query: asked, candidates: outcome.candidates, allowance: spend.state };
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
    return { kind: "not_found", query: asked, allowance: spend.state };
  }
}
