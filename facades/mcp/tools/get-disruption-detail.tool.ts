import { z } from "zod";
import { McpDisruptionDetailDocument } from "../../generated/operations";
import { disruptionGateMessage, disruptionShape, renderDisruptionFields } from "../render/disruption";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const output = z.object({
  ...disruptionShape,
  affected: z
    .object({
      count: z.number().int().describe("Your active shipments it touches"),
      references: z.array(z.string()).describe("Up to five of them, the most exposed first"),
    })
    .nullable()
    .describe("Null on a plan that does not include it"),
});

export const getDisruptionDetail = defineTool({
  name: "get_disruption_detail",
  title: "Disruption detail",
  description:
    "One disruption by id (from get_route_news): severity, category, status, what it names, up to four source reports, and how many of your shipments it touches.",
  input: z.object({
    id: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe("A disruption id, e.g. 00000000-0000-4000-8000-000000000001"),
  }),
  output,
  async call({ id }, context) {
    const result = await context.run(McpDisruptionDetailDocument, { id });
    if (!result.ok) return refusalOf(result);
    const found = result.data.disruption;
    if (found.__typename === "DisruptionNotFound")
      return refusal("disruption_not_found", `No published disruption has the id ${id}.`);
    if (found.__typename !== "Disruption") {
      return refusal(
        found.__typename === "PlanRequired" ? "plan_required" : "feature_disabled",
        disruptionGateMessage(found),
      );
    }
    return answer({
      ...renderDisruptionFields(found),
      affected: found.affected
        ? { count: found.affected.count, references: found.affected.references }
        : null,
    });
  },
});
