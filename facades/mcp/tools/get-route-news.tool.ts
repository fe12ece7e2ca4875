import { z } from "zod";
import { McpRouteNewsDocument, McpShipmentNewsDocument } from "../../generated/operations";
import {
  DISRUPTION_CATEGORY_VALUES,
  disruptionGateMessage,
  disruptionShape,
  renderDisruptionFields,
} from "../render/disruption";
import { notTracked, referenceArgument } from "../render/shipment";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const MATCH_TYPE_VALUES = ["pol", "pod", "transship", "carrier", "lane_interest", "country"] as const;

const output = z.object({
  scope: z
    .enum(["shipment", "mine", "all"])
    .describe("shipment: one shipment's; mine: touching any of your shipments; all: every active disruption"),
  reference: z.string().nullable().describe("The shipment asked about (scope shipment)"),
  items: z.array(
    z.object({
      ...disruptionShape,
      matchTypes: z
        .array(z.enum(MATCH_TYPE_VALUES))
        .nullable()
        .describe("How it touches the shipment (scope shipment); null otherwise"),
    }),
  ),
  total: z.number().int().describe("Disruptions matching, over all of them (items holds at most 50)"),
});

export const getRouteNews = defineTool({
  name: "get_route_news",
  title: "Disruptions on a route",
  description:
    "Active disruptions (port closures, strikes, storms, chokepoint restrictions, security incidents...) with their severity, what they name and up to four source reports: touching one shipment (reference), touching any of your shipments (mine), or all of them. Headlines and summaries are written by the service; sources are citations. An empty list means no active disruption is known, not that there is no risk.",
  input: z.object({
    reference: referenceArgument.optional(),
    mine: z.boolean().optional().describe("Only disruptions touching at least one of your active shipments"),
    category: z.enum(DISRUPTION_CATEGORY_VALUES).optional().describe("One category, e.g. weather"),
    minSeverity: z.number().int().min(1).max(4).optional().describe("Minimum severity, 1 to 4, e.g. 3"),
  }),
  output,
  async call({ reference, mine, category, minSeverity }, context) {
    if (reference) {
      const result = await context.run(McpShipmentNewsDocument, { reference });
      if (!result.ok) return refusalOf(result);
      const news = result.data.shipmentDisruptions;
      if (news.__typename === "ShipmentNotFound") return refusal("not_found", notTracked(reference));
      if (news.__typename !== "ShipmentDisruptions") {
        return refusal(
          news.__typename === "PlanRequired" ? "plan_required" : "feature_disabled",
          disruptionGateMessage(news),
        );
      }
      const items = news.items
        .filter(
          (i) =>
            (!category || i.disruption.category === category) && i.disruption.severity >= (minSeverity ?? 1),
        )
        .map((i) => ({ ...renderDisruptionFields(i.disruption), matchTypes: i.matchTypes }));
      return answer({ scope: "shipment" as const, reference: news.reference, items, total: items.length });
    }
    const result = await context.run(McpRouteNewsDocument, {
      category,
      severity: minSeverity,
      touchingMyShipments: mine ?? false,
    });
    if (!result.ok) return refusalOf(result);
    const page = result.data.disruptions;
    if (page.__typename === "DisruptionFilterInvalid") return refusal("bad_request", page.message);
    if (page.__typename !== "DisruptionPage") {
      return refusal(
        page.__typename === "PlanRequired" ? "plan_required" : "feature_disabled",
        disruptionGateMessage(page),
      );
    }
    return answer({
      scope: mine ? ("mine" as const) : ("all" as const),
      reference: null,
      items: page.items.map((d) => ({ ...renderDisruptionFields(d), matchTypes: null })),
      total: page.total,
    });
  },
});
