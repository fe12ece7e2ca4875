import { z } from "zod";
import { outcomeOf } from "../../../src/http/outcomes";
import type { DndClockFieldsFragment } from "../../generated/operations";
import { McpDndStatusDocument } from "../../generated/operations";
import { instant, notTracked, referenceArgument } from "../render/shipment";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const day = z.string().nullable().describe("YYYY-MM-DD at the port of discharge (its time zone)");

const clock = z.object({
  chargeType: z
    .enum(["demurrage", "detention", "combined"])
    .describe(
      "demurrage: discharge to gate-out; detention: gate-out to empty return; combined: discharge to empty return",
    ),
  status: z
    .enum(["within_free_time", "at_risk", "overdue", "closed", "unknown"])
    .describe(
      "at_risk: 3 days or fewer left, or the projected pickup falls after the last free day; unknown: see unknownReason (cannot assess, never 'no risk')",
    ),
  unknownReason: z
    .string()
    .nullable()
    .describe(
      "no_tracking_facts, stale_tracking_facts, no_port_of_discharge, no_expected_discharge or no_terms; null unless unknown",
    ),
  freeDays: z.number().int().nullable().describe("Free days the terms grant"),
  freeDayBasis: z
    .string()
    .nullable()
    .describe("calendar or working (weekends and the port region's public holidays excluded)"),
  chargeDayBasis: z.string().nullable().describe("How overrun days are charged: calendar or working"),
  lastFreeDay: day,
  lastFreeDaySource: z
    .string()
    .nullable()
    .describe(
      "terminal (the terminal record gives the day) or tariff (counted from the terms); one day per box",
    ),
  daysRemaining: z
    .number()
    .int()
    .nullable()
    .describe(
      "Free days left: calendar days from today at the port to the last free day, negative once past; null when closed",
    ),
  clockStartedAt: instant.describe("Actual start (discharge, or gate-out for detention); null before it"),
  clockStoppedAt: instant.describe("Actual stop (gate-out, or empty return); null while running"),
  overrunDays: z.number().int().nullable().describe("Chargeable days after the last free day so far"),
  accruedCost: z
    .number()
    .nullable()
    .describe("Overrun cost so far in currency; null when the rates are not known"),
  nextDailyRate: z.number().nullable().describe("Rate of the next chargeable day; null once closed"),
  currency: z.string().nullable().describe("ISO 4217, e.g. USD"),
  projectedPickup: day.describe(
    "Demurrage only: expected discharge plus the port's dwell, never before today",
  ),
  projectedOverrunDays: z.number().int().nullable(),
  projectedCost: z.number().nullable().describe("Overrun cost if picked up on projectedPickup"),
  termsSource: z
    .string()
    .nullable()
    .describe("contract, carrier_port_tariff, carrier_country_tariff or benchmark (the resolution order)"),
  confidence: z
    .string()
    .nullable()
    .describe("high (contract), medium (published tariff), low (benchmark or estimate)"),
  isEstimate: z
    .boolean()
    .nullable()
    .describe("True when the terms are derived from the nearest published figures"),
  sourceUrl: z.string().nullable().describe("Where the published figures come from"),
});

const output = z.object({
  shipmentId: z.string(),
  reference: z.string(),
  carrier: z.string().nullable().describe("SCAC"),
  containers: z.array(
    z.object({
      container: z.string(),
      equipment: z.string().describe("Tariff class, e.g. dry40, hc40, reefer20, any"),
      demurrage: clock.describe(
        "Discharge to gate-out (or the combined clock where the tariff combines them)",
      ),
      detention: clock
        .nullable()
        .describe("Gate-out to empty return; null while the box is at the port, and under a combined tariff"),
    }),
  ),
  summary: clock
    .extend({ container: z.string().nullable().describe("The box whose clock leads") })
    .describe("The most urgent box's current clock; costs summed over the boxes charged in its currency"),
});

const render = (c: DndClockFieldsFragment): z.input<typeof clock> => ({
  chargeType: c.chargeType,
  status: c.status,
  unknownReason: c.unknownReason,
  freeDays: c.freeDays,
  freeDayBasis: c.freeDayBasis,
  chargeDayBasis: c.chargeDayBasis,
  lastFreeDay: c.lastFreeDay,
  lastFreeDaySource: c.lastFreeDaySource ?? null,
  daysRemaining: c.daysRemaining,
  clockStartedAt: c.clockStartedAt,
  clockStoppedAt: c.clockStoppedAt,
  overrunDays: c.overrunDays,
  accruedCost: c.accruedCost,
  nextDailyRate: c.nextDailyRate,
  currency: c.currency,
  projectedPickup: c.projectedPickup,
  projectedOverrunDays: c.projectedOverrunDays,
  projectedCost: c.projectedCost,
  termsSource: c.termsSource,
  confidence: c.confidence,
  isEstimate: c.isEstimate,
  sourceUrl: c.sourceUrl,
});

export const getDndStatus = defineTool({
  name: "get_dnd_status",
  title: "Demurrage and detention",
  description:
    "Demurrage and detention of one of your organisation's shipments, per box: free days left, the last free day (counted in the port's own days and public holidays), overrun cost so far and projected, and detention once the box has left the port (null while it is at the port). Terms come from your contract, else the carrier's published tariff, else a benchmark (termsSource, confidence). Needs the predictive ETA feature of the plan.",
  input: z.object({ reference: referenceArgument }),
  output,
  async call({ reference }, context) {
    const result = await context.run(McpDndStatusDocument, { reference });
    if (!result.ok) return refusalOf(result);
    const dnd = result.data.shipmentDnd;
    switch (dnd.__typename) {
      case "ShipmentNotFound":
        return refusal("not_found", notTracked(reference));
      case "PlanRequired":
        return refusal(
          outcomeOf("ShipmentDndOutcome", dnd),
          `Demurrage and detention come with predictive ETA, from the ${dnd.minPlan} plan.`,
        );
      case "FeatureDisabled":
        return refusal(
          outcomeOf("ShipmentDndOutcome", dnd),
          "Predictive ETA (with demurrage and detention) is switched off for the organisation.",
        );
      case "ShipmentDnd":
        return answer({
          shipmentId: dnd.shipmentId,
          reference: dnd.reference,
          carrier: dnd.carrierScac,
          containers: dnd.containers.map((b) => ({
            container: b.container,
            equipment: b.equipment,
            demurrage: render(b.demurrage),
            detention: b.detention ? render(b.detention) : null,
          })),
          summary: { ...render(dnd.risk), container: dnd.risk.container },
        });
      default:
        return refusal("unexpected");
    }
  },
});
