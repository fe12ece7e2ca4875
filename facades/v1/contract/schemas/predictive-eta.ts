/**
 * Predictive ETA (spec v1 section 2.4, docs/decisions/eta.md).
 */
import { z } from "zod";
import { dateTime, nullable } from "./common";

export const PredictiveEta = z
  .object({
    p50: dateTime.meta({
      description: "Median predicted arrival of the vessel at the final port of discharge.",
    }),
    p80: dateTime.meta({ description: "The arrival comes before this with 80% probability." }),
    source: z.enum(["model", "blend", "carrier"]).meta({
      description:
        "model: the vessel's fresh position and progress; blend: progress and the carrier's bias-corrected ETA; carrier: the carrier's ETA corrected by its measured bias.",
    }),
    confidence: z.enum(["high", "medium", "low"]).meta({
      description:
        "Graded by the position's freshness, the horizon, the port of discharge's data tier and the measured calibration.",
    }),
    computed_at: dateTime,
    fallback_reason: z
      .enum([
        "off_planned_leg",
        "not_making_way",
        "stale_position",
        "no_route",
        "position_unknown",
        "not_sailing",
      ])
      .nullable()
      .meta({
        description:
          "Why the vessel's position was not used and the prediction rests on the carrier's ETA; null when it was weighed. off_planned_leg: the position is not on the leg the voyage plan names; not_making_way: successive positions show no progress toward the next port; stale_position: the newest position is over 12 hours old; no_route: no sea route from the position; position_unknown: no source knows the vessel; these come with source carrier and confidence low. not_sailing: no vessel is sailing with the box yet (before departure, between vessels).",
      }),
  })
  .meta({ id: "PredictiveEta", description: "Spec v1 section 2.4." });

/** Present only when predictive ETA is on for the plan; null once arrived or with nothing to predict from. */
export const predictiveEtaField = nullable(PredictiveEta).optional().meta({
  description:
    "Only when predictive ETA is on for the organisation (plan professional and up): the prediction, or null once the vessel has arrived or with nothing to predict from. Absent otherwise.",
});
