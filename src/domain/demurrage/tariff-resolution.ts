import type { ChargeType, Confidence, Direction, EquipmentClass, Tariff, TermsSource } from "./model";

/** What the terms are looked up for: one box at one port. */
export interface TermsQuery {
  organizationId: string;
  carrierScac: string | null;
  portLocode: string | null;
  countryCode: string | null;
  direction: Direction;
  chargeTypes: readonly ChargeType[];
  equipment: EquipmentClass;
  /** Port-local `YYYY-MM-DD`: the tariff in force that day applies (the clock's start). */
  onDate: string;
}

export interface ResolvedTerms {
  tariff: Tariff;
  termsSource: TermsSource;
  confidence: Confidence;
}

/** The classes a box's own class falls back to, most specific first. */
export function equipmentFallbacks(equipment: EquipmentClass): EquipmentClass[] {
  switch (equipment) {
    case "hc40":
      return ["hc40", "dry40", "dry", "any"];
    case "dry20":
    case "dry40":
      return [equipment, "dry", "any"];
    case "reefer20":
    case "reefer40":
      return [equipment, "reefer", "any"];
    case "special20":
    case "special40":
      return [equipment, "special", "any"];
    case "dry":
    case "reefer":
    case "special":
      return [equipment, "any"];
    case "any":
      return ["any"];
  }
}

/**
 * Which kind of source a row is for this query, or null when it does not apply at all. The order is
 * contract > the carrier's tariff for the port > the carrier's tariff for the country > benchmark.
 */
function sourceOf(t: Tariff, q: TermsQuery): { source: TermsSource; placeRank: number } | null {
  const atPort = t.portLocode !== null && t.portLocode === q.portLocode;
  const inCountry = t.portLocode === null && t.countryCode !== null && t.countryCode === q.countryCode;
  const everywhere = t.portLocode === null && t.countryCode === null;
  if (!atPort && !inCountry && !everywhere) return null;
  // Within a kind, a port row beats a country row beats an everywhere row.
  const placeRank = atPort ? 0 : inCountry ? 1 : 2;
  if (t.organizationId !== null) {
    if (t.organizationId !== q.organizationId) return null;
    if (t.carrierScac !== null && t.carrierScac !== q.carrierScac) return null;
    return { source: "contract", placeRank: placeRank * 2 + (t.carrierScac === null ? 1 : 0) };
  }
  if (t.carrierScac !== null) {
    if (t.carrierScac !== q.carrierScac) return null;
    if (atPort) return { source: "carrier_port_tariff", placeRank: 0 };
    if (inCountry) return { source: "carrier_country_tariff", placeRank: 0 };
    return null;
  }
  return { source: "benchmark", placeRank };
}

function inForce(t: Tariff, onDate: string): boolean {
  return t.effectiveFrom <= onDate && (t.effectiveTo === null || onDate <= t.effectiveTo);
}

export function confidenceOf(source: TermsSource, isEstimate: boolean): Confidence {
  if (source === "contract") return "high";
  if (source === "benchmark" || isEstimate) return "low";
  return "medium";
}

/**
 * The terms that apply, or null when none do. Rows are ranked by source kind, then place (port over
 * country over everywhere), then how closely the equipment class fits, then the newest in force.
 */
export function resolveTerms(tariffs: readonly Tariff[], q: TermsQuery): ResolvedTerms | null {
  const fallbacks = equipmentFallbacks(q.equipment);
  let best: { t: Tariff; key: number[]; source: TermsSource } | null = null;
  for (const t of tariffs) {
    if (t.direction !== q.direction || !q.chargeTypes.includes(t.chargeType)) continue;
    const fit = fallbacks.indexOf(t.equipment);
    if (fit < 0 || !inForce(t, q.onDate)) continue;
    const kind = sourceOf(t, q);
    if (!kind) continue;
    const key = [
      ["contract", "carrier_port_tariff", "carrier_country_tariff", "benchmark"].indexOf(kind.source),
      kind.placeRank,
      fit,
      -Date.parse(t.effectiveFrom),
    ];
    if (!best || lexicallyBefore(key, best.key)) best = { t, key, source: kind.source };
  }
  return best
    ? { tariff: best.t, termsSource: best.source, confidence: confidenceOf(best.source, best.t.isEstimate) }
    : null;
}

function lexicallyBefore(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
