/**
 * A sailing schedule item, the canonical form every surface renders (v1 section 2.7). Times are the
 * local wall-clock time at the place, as carriers publish them, plus the instant.
 */
export interface ScheduleEndpoint {
  /** UN/LOCODE. */
  locode: string | null;
  /** The port or place name. */
  name: string | null;
  countryCode: string | null;
  /** Terminal (facility) name, when the carrier names one. */
  terminal: string | null;
  /** The terminal's SMDG code, when given. */
  terminalCode: string | null;
  /** "YYYY-MM-DD HH:MM:SS", local time at the place. */
  localDateTime: string | null;
  /** UTC instant, ISO 8601. */
  instant: string | null;
}

export interface ScheduleItem {
  /** SCAC of the carrier whose schedule this is. */
  scac: string;
  serviceName: string | null;
  serviceCode: string | null;
  /** Export voyage number of the first vessel leg. */
  voyage: string | null;
  vessel: { name: string | null; imo: string | null } | null;
  origin: ScheduleEndpoint;
  destination: ScheduleEndpoint;
  /** Whole days from departure to arrival (the carrier's transitTime when given). */
  transitDays: number;
  /** Vessel legs of the routing. */
  vesselLegs: number;
  /** Ports where the cargo changes ship. */
  transshipmentPorts: string[];
}

/** How a routing carries the cargo: on one ship, or changing ship on the way. */
export const TRANSIT_TYPES = ["transshipment", "unspecified"] as const;
export type TransitType = (typeof TRANSIT_TYPES)[number];

/**
 * `transshipment` when the routing has more than one vessel leg, else `unspecified`: the two values
 * the v1 specification has seen, so no third one ("direct") is invented.
 */
export function transitTypeOf(item: Pick<ScheduleItem, "vesselLegs">): TransitType {
  return item.vesselLegs > 1 ? "transshipment" : "unspecified";
}
