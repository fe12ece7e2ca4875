/**
 * The carrier directory: who can be tracked, under which SCAC, and what identifies them. Pure lookups
 * over an immutable list; operational state (maintenance) is layered on with `withCarrierStatus`
 * instead of being edited into the data.
 */
import {
  CARRIERS,
  type Carrier,
  type CarrierStatus,
  deepFreeze,
  LEASING_PREFIXES,
  LESSORS,
  type Lessor,
} from "../../../reference-data/carriers";

// The facts are shared with the carrier simulator (reference-data/); the lookups are the service's.
export { CARRIERS, type Carrier, type CarrierStatus, LEASING_PREFIXES, LESSORS, type Lessor };

const lessorByPrefix: ReadonlyMap<string, Lessor> = new Map(
  LESSORS.flatMap((lessor) => lessor.ownerPrefixes.map((prefix) => [prefix, lessor] as const)),
);

export function isLeasingPrefix(bicPrefix: string): boolean {
  return LEASING_PREFIXES.has(bicPrefix.trim().toUpperCase());
}

/** The lessor whose owner code a box carries, so a user can be told "this is a Textainer box". */
export function findLessorByPrefix(bicPrefix: string): Lessor | undefined {
  return lessorByPrefix.get(bicPrefix.trim().toUpperCase());
}

/**
 * Whether Quayside tracks with the carrier on this service: every status but `disabled` and
 * `not_connected` (nothing to ask it through on this deployment). A carrier
 * under maintenance is still tracked (its requests answer that it is under maintenance, and the
 * lists keep it), so that a short outage never makes a line look unsupported.
 */
export function isTracked(carrier: Carrier): boolean {
  return carrier.status !== "disabled" && carrier.status !== "not_connected";
}

/** The main SCAC followed by the alternatives: what the compat `scac_codes` lists. */
export function scacCodesOf(carrier: Carrier): string[] {
  return [carrier.scac, ...(carrier.alternativeScacs ?? [])];
}

/**
 * Finds a carrier by its SCAC or one of its alternative SCACs, ignoring case and surrounding spaces.
 * Main SCACs are matched before alternatives, so an alternative can never shadow another carrier.
 */
export function findCarrierByScac(
  scac: string,
  directory: readonly Carrier[] = CARRIERS,
): Carrier | undefined {
  const wanted = scac.trim().toUpperCase();
  if (wanted.length === 0) return undefined;
  return (
    directory.find((carrier) => carrier.scac === wanted) ??
    directory.find((carrier) => carrier.alternativeScacs?.includes(wanted) ?? false)
  );
}

// "Hamburg Süd" must be found by "sud".
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/**
 * Case- and accent-insensitive substring search on SCAC (main or alternative), name and slug. Exact
 * matches of a SCAC or slug come first so `one` finds ONE before anything merely containing "one";
 * the rest follow by popularity. An empty query lists the whole directory.
 */
export function searchCarriers(query: string, directory: readonly Carrier[] = CARRIERS): Carrier[] {
  const needle = fold(query.trim());
  const byPopularity = [...directory].sort((a, b) => a.popularity - b.popularity);
  if (needle.length === 0) return byPopularity;
  const exact: Carrier[] = [];
  const partial: Carrier[] = [];
  for (const carrier of byPopularity) {
    const codes = scacCodesOf(carrier).map(fold);
    const keys = [...codes, fold(carrier.slug)];
    if (keys.includes(needle)) exact.push(carrier);
    else if ([...keys, fold(carrier.name)].some((key) => key.includes(needle))) partial.push(carrier);
  }
  return [...exact, ...partial];
}

/**
 * A copy of the directory with some carriers' status replaced, keyed by SCAC (any case). Used to put a
 * carrier under maintenance from configuration or in a test. An unknown SCAC throws, so a typo in the
 * configuration fails at start-up instead of leaving a broken carrier in rotation.
 */
export function withCarrierStatus(
  overrides: Readonly<Record<string, CarrierStatus>>,
  directory: readonly Carrier[] = CARRIERS,
): readonly Carrier[] {
  const wanted = new Map<string, CarrierStatus>();
  const unknown: string[] = [];
  for (const [scac, status] of Object.entries(overrides)) {
    const carrier = findCarrierByScac(scac, directory);
    if (carrier) wanted.set(carrier.scac, status);
    else unknown.push(scac);
  }
  if (unknown.length > 0) {
    throw new Error(`withCarrierStatus: no carrier with SCAC ${unknown.join(", ")} in the directory`);
  }
  return deepFreeze(
    directory.map((carrier) => {
      const status = wanted.get(carrier.scac);
      return status === undefined || status === carrier.status ? carrier : { ...carrier, status };
    }),
  );
}

/**
 * The directory as this deployment can serve it: a carrier the deployment has no connection to (no
 * adapter, endpoint or credentials; `connected` says) is `not_connected`, so it is reported as not
 * supported instead of as a carrier that does not answer. A status the operator set (maintenance,
 * disabled) stays as it is: it says more about the carrier than the missing connection does.
 */
export function withConnections(
  directory: readonly Carrier[],
  connected: (scac: string) => boolean,
): readonly Carrier[] {
  return deepFreeze(
    directory.map((carrier) =>
      carrier.status !== "active" || connected(carrier.scac)
        ? carrier
        : { ...carrier, status: "not_connected" as const },
    ),
  );
}
