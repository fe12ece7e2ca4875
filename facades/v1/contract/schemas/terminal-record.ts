/**
 * The terminal record on a single-shipment read (spec v1 section 2.3; keys in docs/decisions/terminals.md).
 */
import { z } from "zod";
import { dateTime, nullable } from "./common";

const holdType = z.enum(["customs", "freight", "terminal", "usda", "other"]);
const day = z.string().meta({ description: "YYYY-MM-DD at the port.", example: "2026-11-30" });

const terminal = z.object({
  code: z.string().meta({ description: "SMDG terminal code.", example: "ECTDE" }),
  name: z.string(),
  locode: nullable(z.string()),
});

const foundItem = z
  .object({
    container_number: z.string(),
    terminal,
    status: z.literal("found"),
    available_for_pickup: nullable(z.boolean()).meta({ description: "null when the terminal does not say." }),
    ready_for_pickup: z.boolean().meta({ description: "Available and no hold of status `hold`." }),
    holds: z
      .array(
        z.object({
          type: holdType,
          status: z.enum(["hold", "pending"]),
          description: nullable(z.string()).meta({ description: "The source's own words; not for logic." }),
        }),
      )
      .meta({ description: "Active holds only: a lifted hold is absent (there is no released status)." }),
    last_free_day: nullable(day).meta({ description: "The line's when known, else the terminal's." }),
    last_free_day_source: nullable(z.enum(["line", "terminal"])),
    line_last_free_day: nullable(day),
    terminal_last_free_day: nullable(day),
    yard_location: nullable(z.string()),
    discharged_at: nullable(dateTime),
    gate_out_at: nullable(dateTime),
    checked_at: dateTime.meta({ description: "The newest observation behind the facts (within 24 hours)." }),
    events: z.array(
      z.object({
        event: z.enum(["discharged", "hold_placed", "hold_released", "available_for_pickup", "gated_out"]),
        hold_type: nullable(holdType),
        at: dateTime,
        source: z.enum(["terminal", "carrier"]),
      }),
    ),
  })
  .meta({ id: "TerminalRecordFound" });

const findingItem = z
  .object({ container_number: z.string(), terminal, status: z.literal("finding") })
  .meta({ id: "TerminalRecordFinding", description: "Still checking: no facts yet." });

export const TerminalRecord = nullable(z.array(z.union([foundItem, findingItem]))).meta({
  id: "TerminalRecord",
  description:
    "One item per box and terminal: `found` with all current facts (observed in the last 24 hours) and events, or `finding` with none; null when nothing is known for the shipment or it could not be read.",
});
