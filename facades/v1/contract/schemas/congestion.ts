/**
 * Port congestion (spec v1 section 2.8, rule 9; docs/decisions/congestion.md names the component and
 * history item fields the spec leaves open).
 */
import { z } from "zod";
import { dateTime, nullable, sandboxMode } from "./common";

const bucket = z.enum(["fluid", "normal", "moderate", "high", "critical"]);
const tier = z
  .enum(["A", "B", "C"])
  .meta({ description: "Data sufficiency: A best; C is shrunk toward 50." });

/**
 * A published disruption that raised a reading above its queue's own score (a closure or strike the
 * news reports at the port); the same id, headline, category and severity as GET /disruptions/{id}
 * answers, as they were when the reading was computed.
 */
export const CongestionRaisedBy = z
  .object({
    id: z.string().meta({ description: "The disruption's id (GET /disruptions/{id})." }),
    headline: z.string().meta({ description: "The disruption's headline." }),
    category: z.enum(["port_disruption", "weather", "labor"]),
    severity: z
      .number()
      .int()
      .min(3)
      .max(4)
      .meta({ description: "4 holds the port at critical (90) at least, 3 at high (75)." }),
  })
  .meta({ id: "CongestionRaisedBy" });

const raisedBy = z.array(CongestionRaisedBy).meta({
  description:
    "The reported closures or strikes that raised the score above what the port's queue alone reads (the score is then their floor); empty when the score is the queue's own. The components stay what was measured.",
});

export const CongestionBoardItem = z
  .object({
    locode: z.string(),
    name: z.string(),
    country: z.string(),
    score: z.number().int().min(0).max(100),
    bucket,
    tier,
    trend_7d: z.number().meta({ description: "Points since 7 days before; positive is worse." }),
    vessels_waiting: z.number().int().meta({ description: "Vessels at anchor for more than 3 hours now." }),
    calls_30d: z.number().int().meta({ description: "Deprecated: the same value as `vessels_waiting`." }),
    computed_at: dateTime,
    lat: z.number(),
    lng: z.number(),
    raised_by: raisedBy,
  })
  .meta({ id: "CongestionBoardItem", description: "Spec v1 section 2.8, board item." });

export const CongestionBoardAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int(),
    data: z.array(CongestionBoardItem),
  })
  .meta({ id: "CongestionBoard" });

export const CongestionComponent = z
  .object({
    name: z.enum(["anchorage_wait", "dwell", "eta_slip", "schedule_deviation", "bunching"]),
    raw: z.number().meta({ description: "The value over the component's window, in `unit`." }),
    unit: z.enum(["h", "d", "ratio"]),
    baseline_median: z.number().meta({ description: "Median of the 90 days before the last 7." }),
    baseline_mad: z.number().meta({ description: "Median absolute deviation of that baseline." }),
    z: z.number().meta({ description: "Robust z-score (MAD floored), clipped to [-3, 5]." }),
    weight: z.number(),
    n: z.number().int().meta({ description: "Observations behind `raw`." }),
    window_days: z.number().int(),
  })
  .meta({ id: "CongestionComponent" });

export const CongestionHistoryItem = z
  .object({
    date: z.iso.date(),
    score: z.number().int(),
    bucket,
    tier,
    vessels_waiting: z.number().int(),
    median_anchorage_wait_h: nullable(z.number()),
  })
  .meta({ id: "CongestionHistoryItem" });

export const CongestionReading = z
  .object({
    locode: z.string(),
    name: z.string(),
    country: z.string(),
    score: nullable(z.number().int().min(0).max(100)),
    bucket: nullable(bucket),
    tier: nullable(tier),
    trend_7d: nullable(z.number()),
    vessels_waiting: nullable(z.number().int()),
    median_anchorage_wait_h: nullable(z.number().positive()).meta({
      description: "Hours; null when nobody waited (never 0).",
    }),
    longest_wait_days: nullable(z.number().positive()).meta({ description: "Null when none (never 0)." }),
    computed_at: nullable(dateTime),
    lat: nullable(z.number()),
    lng: nullable(z.number()),
    raised_by: raisedBy,
    components: z.array(CongestionComponent),
    history: z.array(CongestionHistoryItem).max(90),
  })
  .meta({
    id: "CongestionReading",
    description:
      "Spec v1 section 2.8, per-port reading. A port without signal is not scored: score, bucket, tier, trend and computed_at are null and components and history empty.",
  });

export const CongestionReadingAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: CongestionReading })
  .meta({ id: "CongestionReadingAnswer" });
