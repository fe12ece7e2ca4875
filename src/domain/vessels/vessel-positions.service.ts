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

/**
 * What a caller asks: an IMO number (with the MMSI when known), a vessel name alone, or `vessel`, the
 * vessel as a person writes it (a name or an IMO number), which `readVessel` tells apart.
 */
export interface VesselLookupInput {
  imo?: string | null;
  mmsi?: string | null;
  name?: string | null;
  vessel?: string | null;
}

/** How a vessel was looked up: by its IMO number (with the MMSI when given) or by its name. */
export const VESSEL_MATCHES = ["imo", "name"] as const;
export type VesselMatch = (typeof VESSEL_MATCHES)[number];

/** What was asked, as looked up: the numbers, or the name as given (trimmed) and as compared. */
export type AskedVessel =
  | { imo: string; mmsi: string | null; name: null }
  | { imo: null; mmsi: null; name: string; normalizedName: string };

export type VesselLookupOutcome =
  | {
      kind: "found";
      query: AskedVessel;
      position: VesselPositionReport;
      cached: boolean;
      allowance: AllowanceState | null;
    }
  | { kind: "not_found"; query: AskedVessel; allowance: AllowanceState }
  | { kind: "ambiguous"; query: AskedVessel; candidates: VesselIdentity[]; allowance: AllowanceState }
  | { kind: "limit_exceeded"; allowance: AllowanceState }
  | { kind: "unavailable"; reason: string; allowance: AllowanceState }
  | { kind: "invalid"; param: "imo" | "mmsi" | "name" | "vessel"; message: string };

export const matchOf = (asked: AskedVessel): VesselMatch => (asked.name !== null ? "name" : "imo");

const blank = (text: string | null | undefined) => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
};

/** `9811000`, `IMO 9811000`, `imo:9811000`: an IMO number; anything else is a name. */
const WRITTEN_IMO = /^(?:IMO[\s:#-]*)?(\d{7})$/i;
/** Digits alone (or after `IMO`) that are not 7 of them: a mistyped IMO number or an MMSI, never a name. */
const WRITTEN_NUMBER = /^(?:IMO[\s:#-]*)?\d+$/i;

/**
 * A vessel as a person writes it, read as an IMO number or a name. A number that is not an IMO number
 * is refused rather than looked up as a name: no ship is named 353136000, and an MMSI alone cannot
 * tell the AIS sources which of the ships that ever sent it is meant.
 */
export function readVessel(
  written: string,
): { imo: string } | { name: string } | Extract<VesselLookupOutcome, { kind: "invalid" }> {
  const text = written.trim();
  const imo = WRITTEN_IMO.exec(text)?.[1];
  if (imo !== undefined) return { imo };
  if (WRITTEN_NUMBER.test(text)) {
    return {
      kind: "invalid",
      param: "vessel",
      message:
        "an IMO number has 7 digits, e.g. 9811000 (a 9-digit MMSI is not accepted: give the IMO number or the name)",
    };
  }
  return { name: text };
}

/** The input checked: what to look up, or the parameter at fault. Spends nothing. */
export function askedVessel(
  input: VesselLookupInput,
): AskedVessel | Extract<VesselLookupOutcome, { kind: "invalid" }> {
  const written = blank(input.vessel);
  if (written !== null) {
    if (blank(input.imo) !== null || blank(input.mmsi) !== null || blank(input.name) !== null) {
      return { kind: "invalid", param: "vessel", message: "Give vessel alone, or imo (with mmsi) or name." };
    }
    const read = readVessel(written);
    return "kind" in read ? read : askedVessel(read);
  }
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
    if (hit) return { kind: "found", query: asked, position: hit, cached: true, allowance: null };

    const spend = await this.deps.allowance.spend(principal, "vessel_schedule");
    if (!spend.allowed) return { kind: "limit_exceeded", allowance: spend.state };

    const failures: string[] = [];
    for (const provider of this.deps.providers) {
      const outcome = await provider.locate(query);
      if (outcome.kind === "found") {
        await this.deps.cache.set(cacheKey, outcome.position, VESSEL_POSITION_CACHE_MS);
        return {
          kind: "found",
          query: asked,
          position: outcome.position,
          cached: false,
          allowance: spend.state,
        };
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
