/**
 * Which carriers to ask about a reference when the user did not name one. Pure: the tracking history
 * and the directory (with any maintenance overrides) are passed in.
 *
 * Tiers, strongest first, each SCAC listed once under its strongest tier:
 * 1. history (high): carriers that answered for this reference before.
 * 2. bic (medium): the carrier whose owner prefix the container carries. A lessor's prefix (TEXU,
 *    TGHU, CAIU...) proves nothing and gives no candidate.
 * 3. bl-prefix (medium): the carrier whose B/L prefix the document number starts with.
 * 4. prefix-popularity (low): the largest carriers not yet listed, as a last resort; never for a
 *    lessor's box, which any line may be operating: without history it has no candidate, and the
 *    caller is asked to name the carrier (compat AUTO_CANT_DETECT_SEALINE), as SeaRates asks for leased
 *    boxes, instead of billing guesses at the three largest lines.
 * For a combined `<bill-of-lading>/<container>` value the B/L prefix is ranked above the container's
 * owner: the lookup is for the document, and boxes travel on other lines' bills under slot and vessel
 * sharing agreements, while a B/L prefix names the line that issued it.
 *
 * Carriers that cannot be asked (maintenance, disabled, or not resolving this reference type) are never
 * candidates; `explainCarrierDetection` reports the ones that matched anyway, so the tracking service
 * can say "the carrier of this container is under maintenance" instead of a bare not-found.
 */
import type { ParsedReference, ReferenceType } from "../references/reference";
import { CARRIERS, type Carrier, findCarrierByScac, LEASING_PREFIXES } from "./carrier-directory";

export type CandidateSource = "history" | "bic" | "bl-prefix" | "prefix-popularity";
export type Confidence = "high" | "medium" | "low";

export interface CarrierCandidate {
  scac: string;
  name: string;
  confidence: Confidence;
  source: CandidateSource;
}

export type UnavailableReason = "maintenance" | "disabled" | "not_connected" | "unsupported_type";

export interface ExcludedCarrier {
  scac: string;
  name: string;
  /** The tier that would have listed the carrier. */
  source: CandidateSource;
  reason: UnavailableReason;
}

export interface DetectCarriersOptions {
  /** SCACs that answered for this normalized reference before, most recent first. */
  history?: readonly string[];
  directory?: readonly Carrier[];
  /** How many low-confidence guesses to add at most. */
  popularityLimit?: number;
}

export interface CarrierDetection {
  candidates: CarrierCandidate[];
  excluded: ExcludedCarrier[];
}

export type CarrierAvailability = { available: true } | { available: false; reason: UnavailableReason };

export const CONFIDENCE_BY_SOURCE: Readonly<Record<CandidateSource, Confidence>> = {
  history: "high",
  bic: "medium",
  "bl-prefix": "medium",
  "prefix-popularity": "low",
};

/** Up to five guesses: the tracking service tries at most three carriers, the lookup shows a few more. */
export const DEFAULT_POPULARITY_LIMIT = 5;

/**
 * The type a carrier is asked with. The document part of a combined `<document>/<container>` value is
 * a booking for a carrier that resolves bookings but not bills of lading (HMM, whose API takes the
 * booking and the box together), whatever the caller typed it as: compat's `BK` goes the bill-of-lading
 * way, and a combined value is the only way to name HMM's pair.
 */
export function typeAskedOf(carrier: Carrier, reference: ParsedReference): ReferenceType {
  if (
    reference.type === "bl" &&
    reference.container !== null &&
    !carrier.supportedTypes.includes("bl") &&
    carrier.supportedTypes.includes("booking")
  ) {
    return "booking";
  }
  return reference.type;
}

/** Whether a carrier can be asked about a reference of this type right now, and if not, why not. */
export function carrierAvailability(carrier: Carrier, type: ReferenceType): CarrierAvailability {
  if (carrier.status === "disabled") return { available: false, reason: "disabled" };
  if (carrier.status === "not_connected") return { available: false, reason: "not_connected" };
  if (carrier.status === "maintenance") return { available: false, reason: "maintenance" };
  if (!carrier.supportedTypes.includes(type)) return { available: false, reason: "unsupported_type" };
  return { available: true };
}

function bicMatches(reference: ParsedReference, directory: readonly Carrier[]): Carrier[] {
  const prefix = reference.container?.bicPrefix;
  if (prefix === undefined || LEASING_PREFIXES.has(prefix)) return [];
  return directory.filter((carrier) => carrier.ownerPrefixes.includes(prefix));
}

/** A container (alone, not the box of a combined value) whose owner code is a lessor's. */
function isLeasedBox(reference: ParsedReference): boolean {
  return reference.type === "container" && LEASING_PREFIXES.has(reference.container.bicPrefix);
}

function blPrefixMatches(reference: ParsedReference, directory: readonly Carrier[]): Carrier[] {
  if (reference.type === "container") return [];
  const document = reference.normalized;
  // A bare "MEDU" is a prefix with no number behind it, not an MSC bill.
  return directory.filter((carrier) =>
    carrier.blPrefixes.some((prefix) => document.length > prefix.length && document.startsWith(prefix)),
  );
}

function historyMatches(history: readonly string[], directory: readonly Carrier[]): Carrier[] {
  return history.flatMap((scac) => findCarrierByScac(scac, directory) ?? []);
}

export function explainCarrierDetection(
  reference: ParsedReference,
  options: DetectCarriersOptions = {},
): CarrierDetection {
  const directory = options.directory ?? CARRIERS;
  const popularityLimit = options.popularityLimit ?? DEFAULT_POPULARITY_LIMIT;
  const candidates: CarrierCandidate[] = [];
  const excluded: ExcludedCarrier[] = [];
  const seen = new Set<string>();

  const consider = (carrier: Carrier, source: CandidateSource): boolean => {
    if (seen.has(carrier.scac)) return false;
    seen.add(carrier.scac);
    const availability = carrierAvailability(carrier, typeAskedOf(carrier, reference));
    if (!availability.available) {
      excluded.push({ scac: carrier.scac, name: carrier.name, source, reason: availability.reason });
      return false;
    }
    candidates.push({
      scac: carrier.scac,
      name: carrier.name,
      confidence: CONFIDENCE_BY_SOURCE[source],
      source,
    });
    return true;
  };

  for (const carrier of historyMatches(options.history ?? [], directory)) consider(carrier, "history");
  const evidence: [CandidateSource, Carrier[]][] =
    reference.type === "container"
      ? [["bic", bicMatches(reference, directory)]]
      : [
          ["bl-prefix", blPrefixMatches(reference, directory)],
          ["bic", bicMatches(reference, directory)],
        ];
  for (const [source, carriers] of evidence) {
    for (const carrier of carriers) consider(carrier, source);
  }

  // Guesses are not evidence: a carrier skipped here is not worth reporting as excluded.
  if (isLeasedBox(reference)) return { candidates, excluded };
  const byPopularity = [...directory].sort((a, b) => a.popularity - b.popularity);
  let guesses = 0;
  for (const carrier of byPopularity) {
    if (guesses >= popularityLimit) break;
    if (seen.has(carrier.scac) || !carrierAvailability(carrier, reference.type).available) continue;
    consider(carrier, "prefix-popularity");
    guesses++;
  }

  return { candidates, excluded };
}

/** Candidate carriers for a reference, strongest first. See `explainCarrierDetection` for the why-nots. */
export function detectCarriers(
  reference: ParsedReference,
  options?: DetectCarriersOptions,
): CarrierCandidate[] {
  return explainCarrierDetection(reference, options).candidates;
}
