/**
 * Account.
 */
import { z } from "zod";
import { dateTime, sandboxMode } from "./common";

export const UsageAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    data: z.object({
      plan: z.string(),
      plan_name: z.string(),
      quota: z.number().int(),
      used: z.number().int().meta({ description: "Distinct references this cycle." }),
      slots_held: z.number().int(),
      slots_remaining: z.number().int(),
      cycle: z.enum(["monthly", "yearly"]),
      period_days: z.union([z.literal(30), z.literal(365)]),
      cycle_start: dateTime,
      cycle_end: dateTime,
      rate_limit: z.object({
        limit: z.number().int(),
        remaining: z.number().int(),
        reset: z.number().int().meta({ description: "Unix seconds." }),
      }),
      lookups_per_day: z.number().int(),
      billing: z.object({ state: z.string(), overdue_days: z.number().int(), grace_days: z.number().int() }),
    }),
  })
  .meta({ id: "AccountUsage" });
