/**
 * Who is at anchor off a port or alongside it now: the port the congestion sampler reads, with the
 * sources behind it in src/upstream (the AIS feed's stored positions in deployment, the carrier
 * simulator's port area in the demo). Expected endings are values; only a caller's abort rejects.
 */
export interface AreaVessel {
  /** MMSI, else IMO: what identifies the vessel from one sighting to the next. */
  key: string;
  name: string | null;
  status: "at-anchor" | "moored";
}

export type PortAreaOutcome =
  | { kind: "seen"; vessels: AreaVessel[]; at: Date }
  | { kind: "unknown-port" }
  | { kind: "unavailable"; reason: string };

export interface PortAreaSource {
  readonly name: string;
  vesselsAt(locode: string, signal?: AbortSignal): Promise<PortAreaOutcome>;
}
