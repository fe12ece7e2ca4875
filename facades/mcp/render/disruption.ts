import { z } from "zod";
import { DisruptionCategory, type DisruptionFieldsFragment } from "../../generated/operations";
import { instant } from "./shipment";

/** Shapes of the disruption tools. Every key is always present (null when unknown). */
/** The nine categories, as the schema's enum lists them (one list: the core's). */
export const DISRUPTION_CATEGORY_VALUES = Object.values(DisruptionCategory) as [
  DisruptionCategory,
  ...DisruptionCategory[],
];

export const disruptionSourceShape = z.object({
  publisher: z.string(),
  headline: z.string().describe("The report's own headline: a citation, never its text"),
  link: z.string().nullable(),
  publishedAt: instant,
});

export const disruptionEntitiesShape = z.object({
  ports: z.array(z.string()).describe("UN/LOCODEs"),
  carriers: z.array(z.string()).describe("SCACs"),
  countries: z.array(z.string()).describe("ISO 3166 alpha-2 codes"),
  chokepoints: z.array(z.string()).describe("Chokepoint ids, e.g. suez_canal, bab_el_mandeb, panama_canal"),
});

export const disruptionShape = {
  id: z.string(),
  severity: z.number().int().describe("1 info, 2 moderate, 3 high, 4 critical"),
  category: z.enum(DISRUPTION_CATEGORY_VALUES),
  status: z.enum(["active", "resolved"]),
  headline: z.string().describe("Written by the service from the event's facts"),
  summary: z.string().describe("Written by the service from the event's facts"),
  entities: disruptionEntitiesShape,
  sources: z.array(disruptionSourceShape).describe("Up to four reports, distinct publishers first"),
  firstSeen: instant,
  lastUpdated: instant,
  resolvedAt: instant,
};

export function renderDisruptionFields(d: DisruptionFieldsFragment) {
  return {
    id: d.id,
    severity: d.severity,
    category: d.category,
    status: d.status,
    headline: d.headline,
    summary: d.summary,
    entities: {
      ports: d.entities.ports,
      carriers: d.entities.carriers,
      countries: d.entities.countries,
      chokepoints: d.entities.chokepoints,
    },
    sources: d.sources.map((s) => ({
      publisher: s.publisher,
      headline: s.headline,
      link: s.link,
      publishedAt: s.publishedAt,
    })),
    firstSeen: d.firstSeen,
    lastUpdated: d.lastUpdated,
    resolvedAt: d.resolvedAt,
  };
}

export function disruptionGateMessage(
  gate: { __typename: "PlanRequired"; minPlan: string } | { __typename: "FeatureDisabled" },
): string {
  return gate.__typename === "PlanRequired"
    ? `Disruptions start with the ${gate.minPlan} plan.`
    : "Disruptions are switched off for your organisation.";
}
