/**
 * Where a vessel is: the port the vessel-position lookup needs, several sources behind it in
 * src/upstream (an AIS feed Quayside ingests itself, the carrier simulator's world). Expected endings
 * are values; only a caller's abort rejects.
 */
/**
 * What is asked: an IMO number (7 digits), with the MMSI (9 digits) when the caller knows it, or a
 * vessel's name. A name is matched whole, ignoring case, accents, punctuation and spacing
 * (`normalizeVesselName`); a source that knows several vessels of that name answers `ambiguous`.
 */
export type VesselQuery = { imo: string; mmsi?: string } | { name: string };

/** A vessel as a source knows it, without a position: what an ambiguous name lists. */
export interface VesselIdentity {
  imo: string | null;
  mmsi: string | null;
  name: string | null;
}

/**
 * A vessel name as compared: upper case, accents dropped, every run of other characters than letters
 * and digits one space ("Maersk Mc-Kinney Møller" and "MAERSK MC KINNEY MOLLER" are the same name).
 */
export function normalizeVesselName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[Øø]/g, "O")
    .replace(/[Ææ]/g, "AE")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

export interface PortCallReport {
  locode: string | null;
  /** The port's name, or the free text the source gave (AIS destinations are typed by the crew). */
  name: string | null;
  /** UTC instant, ISO 8601. */
  at: string | null;
}

export interface VesselPositionReport {
  imo: string | null;
  mmsi: string | null;
  name: string | null;
  lat: number;
  lon: number;
  /** Speed over ground, knots. */
  speed: number | null;
  /** Course over ground, degrees. */
  course: number | null;
  /** True heading, degrees. */
  heading: number | null;
  /** Metres. */
  draught: number | null;
  navigationStatus: string | null;
  /** When the position was reported, UTC ISO 8601. */
  positionAt: string;
  /** The last port left and when (ATD). */
  origin: PortCallReport | null;
  /** The port the vessel is bound for and its ETA. */
  destination: PortCallReport | null;
  source: "ais" | "simulator";
}

export type VesselPositionOutcome =
  | { kind: "found"; position: VesselPositionReport }
  | { kind: "not-found" }
  /** Only for a name: the source knows several vessels of that name (at most 10 listed). */
  | { kind: "ambiguous"; candidates: VesselIdentity[] }
  | { kind: "unavailable"; reason: string };

export interface VesselPositionProvider {
  readonly name: string;
  locate(query: VesselQuery, signal?: AbortSignal): Promise<VesselPositionOutcome>;
}
