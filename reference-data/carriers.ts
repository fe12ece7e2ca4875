/**
 * Carrier facts, shared by the two programs of this repository: the service (its carrier directory,
 * src/domain/carriers) and the carrier simulator (simulator/, whose world issues these carriers'
 * numbers). Data only, and what is derived from it once; each program writes its own lookups over it,
 * so neither depends on the other's code.
 */
import { CARRIER_DATA, LESSORS, type Lessor } from "./carrier-data";

/** The kinds of number a carrier can be asked about. */
export type ReferenceType = "container" | "bl" | "booking";

/**
 * `not_connected`: the deployment has no way to ask the carrier (live mode without an endpoint, adapter
 * or credentials for it); it is set by the service from its carrier registry, never in the data.
 */
export type CarrierStatus = "active" | "maintenance" | "disabled" | "not_connected";

export interface Carrier {
  /** The SCAC tracking requests are routed by: 4 characters, uppercase. */
  scac: string;
  /**
   * Other codes the same carrier is known by (MSC's MEDU, CMA CGM's CMAU...). Accepted wherever a SCAC
   * is, and listed with the main one in the compat `scac_codes`.
   */
  alternativeScacs?: readonly string[];
  name: string;
  slug: string;
  /** 4-letter BIC prefixes (owner code + `U`) of boxes the carrier operates, such as MSCU. */
  ownerPrefixes: readonly string[];
  /** Prefixes the carrier's bill-of-lading numbers are quoted with (MEDU for MSC). */
  blPrefixes: readonly string[];
  /** Whether a booking number resolves at this carrier; always the same as `supportedTypes` says. */
  resolvesBookings: boolean;
  status: CarrierStatus;
  /** Reference types the carrier can be asked about. */
  supportedTypes: readonly ReferenceType[];
  /** Alphaliner rank (1 = largest): orders the low-confidence guesses. Lower is more popular. */
  popularity: number;
  /** Publishes a DCSA Track & Trace API. */
  dcsa: boolean;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Every carrier, most popular first. Frozen: the service derives a changed copy with `withCarrierStatus`. */
export const CARRIERS: readonly Carrier[] = deepFreeze(
  [...CARRIER_DATA].sort((a, b) => a.popularity - b.popularity),
);

export { LESSORS, type Lessor };

/** Owner prefixes of leasing companies: a box carrying one does not identify its carrier. */
export const LEASING_PREFIXES: ReadonlySet<string> = new Set(
  LESSORS.flatMap((lessor) => lessor.ownerPrefixes),
);
