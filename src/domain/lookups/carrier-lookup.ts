/**
 * Carrier lookup (v1 GET /carriers/lookup, section 2.11): which carrier a reference belongs to, with
 * the evidence. Pure: the two sources that need the database (history, prefix popularity) are passed in
 * as lists, or null when they failed or were too slow.
 *
 * Sources, strongest first; each SCAC is listed once, under its strongest source:
 * - `history` (high): carriers that answered for this very reference before, to the asking
 *   organisation (its own carrier documents; another organisation's tracking is never evidence).
 * - `spec` (high): the bill of lading matches a carrier's whole published number layout, prefix and
 *   body (bl-formats.ts), e.g. MEDU + 2 letters or digits + 6 digits for MSC.
 * - `bl-sealines` (high): the bill of lading starts with one of a line's registered SCAC codes (main or
 *   alternative, as `/info/sealines` lists them), e.g. HLCU, MEDU: US filing rules make a master bill's
 *   number start with the issuing carrier's SCAC.
 * - `bl-prefix` (medium): the bill starts with a prefix the carrier is known to use that is not one of
 *   its SCACs (PABV for PIL, MRKU for Maersk, CCLU for COSCO).
 * - `bic` (medium): the container's owner prefix belongs to the carrier (a lessor's prefix proves
 *   nothing and gives no candidate).
 * - `prefix-popularity` (low): carriers that answered the asking organisation for other references
 *   with the same 4-letter prefix, most references first: the one signal for a leased box (TGHU...) or an
 *   unknown B/L prefix. Without data it gives nothing: a null carrier is a real answer.
 * A combined `<bill-of-lading>/<container>` value is looked up as its bill of lading, the container's
 * owner prefix adding `bic` evidence.
 *
 * Carriers the operator disabled or the deployment has no connection to, and carriers that cannot resolve
 * this type of reference (HMM for a bare container or bill), are never candidates: the answer is meant to
 * be tracked with. A carrier under
 * maintenance stays a candidate (it is still the carrier) and says so in its status.
 */
import { typeAskedOf } from "../carriers/carrier-detection";
import type { Carrier, CarrierStatus } from "../carriers/carrier-directory";
import { isLeasingPrefix, isTracked, scacCodesOf } from "../carriers/carrier-directory";
import type { ParsedReference } from "../references/reference";
import { carriersByLayout } from "./bl-formats";

export type LookupSource = "history" | "spec" | "bl-sealines" | "bl-prefix" | "bic" | "prefix-popularity";
export type LookupConfidence = "high" | "medium" | "low";

export const LOOKUP_CONFIDENCE: Readonly<Record<LookupSource, LookupConfidence>> = {
  history: "high",
  spec: "high",
  "bl-sealines": "high",
  "bl-prefix": "medium",
  bic: "medium",
  "prefix-popularity": "low",
};

/** Sources that read the database and can fail or be slow. */
export type SlowSource = "history" | "prefix-popularity";

export interface LookupCandidate {
  scac: string;
  name: string;
  slug: string;
  status: CarrierStatus;
  confidence: LookupConfidence;
  source: LookupSource;
}

export interface LookupEvidence {
  /** SCACs that answered for this reference, most recent first; null when the source failed. */
  history: readonly string[] | null;
  /** SCACs that answered for references with the same prefix, most first; null when it failed. */
  prefixPopularity: readonly string[] | null;
}

/** The 4-letter prefix the popularity source groups references by, or null when there is none. */
export function popularityPrefix(reference: ParsedReference): string | null {
  if (reference.type === "container") return reference.container.bicPrefix;
  const head = reference.normalized.slice(0, 4);
  return /^[A-Z]{4}$/.test(head) && reference.normalized.length > 4 ? head : null;
}

function usable(carrier: Carrier, reference: ParsedReference): boolean {
  return isTracked(carrier) && carrier.supportedTypes.includes(typeAskedOf(carrier, reference));
}

export function lookupCandidates(
  reference: ParsedReference,
  evidence: LookupEvidence,
  directory: readonly Carrier[],
): LookupCandidate[] {
  const byScac = (scac: string) => directory.find((c) => c.scac === scac.trim().toUpperCase());
  const candidates: LookupCandidate[] = [];
  const seen = new Set<string>();
  const add = (carrier: Carrier | undefined, source: LookupSource) => {
    if (!carrier || seen.has(carrier.scac) || !usable(carrier, reference)) return;
    seen.add(carrier.scac);
    candidates.push({
      scac: carrier.scac,
      name: carrier.name,
      slug: carrier.slug,
      status: carrier.status,
      confidence: LOOKUP_CONFIDENCE[source],
      source,
    });
  };

  for (const scac of evidence.history ?? []) add(byScac(scac), "history");

  if (reference.type !== "container") {
    const document = reference.normalized;
    for (const scac of carriersByLayout(document)) add(byScac(scac), "spec");
    for (const carrier of directory) {
      const codes = scacCodesOf(carrier);
      if (codes.some((code) => document.length > code.length && document.startsWith(code))) {
        add(carrier, "bl-sealines");
      }
    }
    for (const carrier of directory) {
      const codes = scacCodesOf(carrier);
      const other = carrier.blPrefixes.filter((prefix) => !codes.includes(prefix));
      if (other.some((prefix) => document.length > prefix.length && document.startsWith(prefix))) {
        add(carrier, "bl-prefix");
      }
    }
  }

  const owner = reference.container?.bicPrefix;
  if (owner && !isLeasingPrefix(owner)) {
    for (const carrier of directory) if (carrier.ownerPrefixes.includes(owner)) add(carrier, "bic");
  }

  for (const scac of evidence.prefixPopularity ?? []) add(byScac(scac), "prefix-popularity");
  return candidates;
}
