import { z } from "zod";
import { outcomeOf } from "../../../src/http/outcomes";
import type { Member } from "../../facade";
import {
  McpPortConditionsDocument,
  type McpPortConditionsQuery,
  McpPortSearchDocument,
} from "../../generated/operations";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const output = z.object({
  locode: z.string().describe("UN/LOCODE of the port, e.g. CNSHA"),
  name: z.string(),
  country: z.string(),
  scored: z
    .boolean()
    .describe("false when Quayside holds no congestion signal for the port (never a score of 0)"),
  congestion: z
    .object({
      score: z.number().int().describe("0 (fluid) to 100 (critical), against the port's own normal"),
      bucket: z.string().describe("fluid, normal, moderate, high or critical"),
      tier: z.string().describe("Data sufficiency: A, B or C"),
      trend_7d: z.number().describe("Points since 7 days before; positive is worse"),
      vessels_waiting: z.number().int().describe("Vessels at anchor for more than 3 hours for the port now"),
      median_anchorage_wait_h: z
        .number()
        .nullable()
        .describe("Median wait in hours, last 7 days; null when nobody waited"),
      longest_wait_days: z
        .number()
        .nullable()
        .describe("Longest wait running now, else of the last 7 days; null when none"),
      computed_at: z.string().describe("When the reading was computed, ISO 8601 instant in UTC"),
      raised_by: z
        .array(
          z.object({
            id: z.string().describe("The disruption's id (get_disruption_detail)"),
            headline: z.string(),
            category: z.string().describe("port_disruption, weather or labor"),
            severity: z.number().int().describe("4 holds the port at critical (90) at least, 3 at high (75)"),
          }),
        )
        .describe(
          "The reported closures or strikes that raised the score above what the port's queue alone reads; empty when the score is the queue's own",
        ),
    })
    .nullable()
    .describe("The newest reading; null when the port is not scored"),
  components: z
    .array(
      z.object({
        name: z.string().describe("anchorage_wait, dwell, eta_slip, schedule_deviation or bunching"),
        raw: z.number(),
        unit: z.string().describe("h, d or ratio"),
        baseline_median: z.number().describe("The port's normal: median of the 90 days before the last 7"),
        z: z.number(),
        words: z.string().describe("The component in a sentence"),
      }),
    )
    .describe("The signals behind the score, each against the port's normal"),
  summary: z.string().describe("The reading in a sentence"),
});

type Scored = Member<McpPortConditionsQuery["portCongestion"], "PortCongestion">;

const LABELS: Record<string, string> = {
  anchorage_wait: "anchorage wait",
  dwell: "import dwell",
  eta_slip: "ETA slip",
  schedule_deviation: "schedule deviation",
  bunching: "arrival bunching",
};

const UNITS: Record<string, string> = { h: "hours", d: "days", ratio: "" };

function words(c: Scored["components"][number]): string {
  const unit = UNITS[c.unit] ?? c.unit;
  const against = Math.abs(c.z) < 1 ? "about its normal" : c.z > 0 ? "above its normal" : "below its normal";
  return `${LABELS[c.name] ?? c.name}: ${c.raw}${unit ? ` ${unit}` : ""} over ${c.windowDays === 1 ? "1 day" : `${c.windowDays} days`}, ${against} of ${c.baselineMedian}${unit ? ` ${unit}` : ""} (z ${c.z.toFixed(1)}, ${c.n} observations)`;
}

/** Why the score is above the queue's own, in a sentence; nothing when it is not. */
function raisedWords(raisedBy: Scored["raisedBy"]): string {
  if (raisedBy.length === 0) return "";
  const events = raisedBy.map((d) => `"${d.headline}" (severity ${d.severity}, disruption ${d.id})`);
  return ` Raised by the news of a closure or strike: ${events.join("; ")}; the queue alone reads lower.`;
}

export const getPortConditions = defineTool({
  name: "get_port_conditions",
  title: "Port conditions",
  description:
    "How congested a port is now, by UN/LOCODE (e.g. CNSHA) or port name: the congestion score (0-100) and bucket against the port's own normal, its 7-day trend, vessels waiting at anchor, the median and longest anchorage waits, and the signals behind it in words, with when it was computed. Readings are computed ahead of time from Quayside's own signals; no carrier or provider is called. Needs the port-congestion feature of the plan.",
  input: z.object({
    port: z
      .string()
      .trim()
      .min(2, "a UN/LOCODE or port name of at least 2 characters")
      .max(100, "a UN/LOCODE or port name of at most 100 characters")
      .describe("UN/LOCODE (e.g. CNSHA) or port name (e.g. Shanghai)"),
  }),
  output,
  async call({ port }, context) {
    let locode = port.toUpperCase();
    if (!/^[A-Z]{2}[A-Z0-9]{3}$/.test(locode)) {
      const search = await context.run(McpPortSearchDocument, { search: port });
      if (!search.ok) return refusalOf(search);
      const first = search.data.ports?.items[0]?.locode;
      if (!first)
        return refusal("port_not_found", `No port matches "${port}". Try its UN/LOCODE, e.g. CNSHA.`);
      locode = first;
    }
    const result = await context.run(McpPortConditionsDocument, { locode });
    if (!result.ok) return refusalOf(result);
    const found = result.data.portCongestion;
    switch (found?.__typename) {
      case "PortNotFound":
        return refusal(outcomeOf("PortCongestionOutcome", found), `No port has the code ${found.locode}.`);
      case "PlanRequired":
        return refusal(
          outcomeOf("PortCongestionOutcome", found),
          `Port congestion starts with the ${found.minPlan} plan.`,
        );
      case "FeatureDisabled":
        return refusal(
          outcomeOf("PortCongestionOutcome", found),
          "Port congestion is switched off for the organisation.",
        );
      case "PortNotScored":
        return answer({
          locode: found.locode,
          name: found.name,
          country: found.country,
          scored: false,
          congestion: null,
          components: [],
          summary: `${found.name} is not scored: Quayside holds no congestion signal for it yet.`,
        });
      case "PortCongestion": {
        const trend =
          found.trend7d > 0
            ? `up ${found.trend7d}`
            : found.trend7d < 0
              ? `down ${-found.trend7d}`
              : "unchanged";
        return answer({
          locode: found.locode,
          name: found.name,
          country: found.country,
          scored: true,
          congestion: {
            score: found.score,
            bucket: found.bucket,
            tier: found.tier,
            trend_7d: found.trend7d,
            vessels_waiting: found.vesselsWaiting,
            median_anchorage_wait_h: found.medianAnchorageWaitH,
            longest_wait_days: found.longestWaitDays,
            computed_at: found.computedAt,
            raised_by: found.raisedBy.map((d) => ({
              id: d.id,
              headline: d.headline,
              category: d.category,
              severity: d.severity,
            })),
          },
          components: found.components.map((c) => ({
            name: c.name,
            raw: c.raw,
            unit: c.unit,
            baseline_median: c.baselineMedian,
            z: c.z,
            words: words(c),
          })),
          summary: `${found.name}: ${found.bucket} (${found.score}/100, tier ${found.tier}), ${trend} points in 7 days; ${found.vesselsWaiting} vessels waiting at anchor${found.medianAnchorageWaitH === null ? "" : `, median wait ${found.medianAnchorageWaitH} h`}.${raisedWords(found.raisedBy)} Computed ${found.computedAt}.`,
        });
      }
      default:
        return refusal("unexpected");
    }
  },
});
