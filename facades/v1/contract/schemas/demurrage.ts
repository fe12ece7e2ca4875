/**
 * `demurrage_risk` on shipment summaries (spec v1 section 2.3: only when predictive ETA is enabled for
 * the plan; the spec leaves its shape open, ours is in docs/decisions/demurrage.md). Never on
 * tracking documents (section 2.2).
 */
import { z } from "zod";
import type {
  DayBasis,
  DndChargeType,
  DndConfidence,
  DndStatus,
  DndTermsSource,
  DndUnknownReason,
} from "../../../generated/operations";
import { dateTime, nullable } from "./common";
import { everyValueOf } from "./core-values";

const day = z.string().meta({ description: "YYYY-MM-DD at the port of discharge.", example: "2024-12-02" });

export const DemurrageRisk = z
  .object({
    status: z.enum(
      everyValueOf<DndStatus>()(["within_free_time", "at_risk", "overdue", "closed", "unknown"]),
    ),
    unknown_reason: nullable(
      z.enum(
        everyValueOf<DndUnknownReason>()([
          "no_tracking_facts",
          "stale_tracking_facts",
          "no_port_of_discharge",
          "no_expected_discharge",
          "no_terms",
        ]),
      ),
    ).meta({ description: "Why the status is unknown; null otherwise." }),
    charge_type: z.enum(everyValueOf<DndChargeType>()(["demurrage", "detention", "combined"])).meta({
      description: "The clock shown: demurrage at the port, detention once the box has left it, or combined.",
    }),
    container: nullable(z.string()).meta({ description: "The box whose clock leads (the most urgent)." }),
    containers: z.number().int().meta({ description: "Boxes assessed." }),
    last_free_day: nullable(day).meta({
      description:
        "The box's one last free day: its terminal's when the terminal record gives one, else counted from the tariff (last_free_day_source).",
    }),
    last_free_day_source: nullable(z.enum(["terminal", "tariff"])).meta({
      description:
        "terminal (the terminal record gives the day) or tariff (counted from the terms); null with no day.",
    }),
    free_days: nullable(z.number().int()),
    free_day_basis: nullable(z.enum(everyValueOf<DayBasis>()(["calendar", "working"]))),
    charge_day_basis: nullable(z.enum(everyValueOf<DayBasis>()(["calendar", "working"]))),
    days_remaining: nullable(z.number().int()).meta({
      description:
        "Calendar days from today at the port to the last free day; negative once past; null when closed.",
    }),
    clock_started_at: nullable(dateTime),
    clock_stopped_at: nullable(dateTime),
    overrun_days: nullable(z.number().int()),
    accrued_cost: nullable(z.number()).meta({ description: "Summed over the boxes charged in `currency`." }),
    next_daily_rate: nullable(z.number()),
    currency: nullable(z.string()).meta({ example: "USD" }),
    projected_pickup: nullable(day).meta({
      description: "Expected discharge plus the port's dwell, never before today (demurrage only).",
    }),
    projected_overrun_days: nullable(z.number().int()),
    projected_cost: nullable(z.number()),
    terms_source: nullable(
      z.enum(
        everyValueOf<DndTermsSource>()([
          "contract",
          "carrier_port_tariff",
          "carrier_country_tariff",
          "benchmark",
        ]),
      ),
    ),
    confidence: nullable(z.enum(everyValueOf<DndConfidence>()(["high", "medium", "low"]))),
    is_estimate: nullable(z.boolean()),
    source_url: nullable(z.string()),
  })
  .meta({
    id: "DemurrageRisk",
    description:
      "Demurrage and detention risk of the shipment: the most urgent box's current clock. Only when predictive ETA is enabled for the plan.",
  });
