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

/** Issue 41: the predicted arrival at the final destination beyond the port (docs/decisions/final-destination-eta.md). */
export const FinalDestinationEta = z
  .object({
    p50: dateTime.meta({
      description: "Median predicted arrival at the final destination (the place of delivery).",
    }),
    p80: dateTime.meta({ description: "The arrival comes before this with 80% probability." }),
    source: z.enum(["partner_position", "partner_estimate", "inland_default"]).meta({
      description:
        "partner_position: a partner's newest position after the discharge, its straight-line distance to the destination times 1.3 at the leg's speed (truck 55, rail 40, barge 12 km/h); partner_estimate: a partner's own estimated arrival, posted after its newest position; inland_default: the arrival at the port of discharge (actual, else predictive_eta's p50, else the carrier's ETA) plus 72 hours at the port and the transit, or the actual departure inland plus the transit.",
    }),
    confidence: z.enum(["high", "medium", "low"]).meta({
      description:
        "high: a partner's position at most 2 hours old; medium: up to 12 hours old, or a partner's estimate; low: older, or the default.",
    }),
    computed_at: dateTime,
    place: z.string().meta({ description: "The final destination's name (locations_table role postpod)." }),
    remaining_km: z.number().nullable().meta({
      description:
        "Straight-line kilometres from the partner's position (or the port of discharge) to the destination; null without coordinates.",
    }),
    mode: z.enum(["truck", "rail", "barge"]).meta({ description: "The inland leg's mode." }),
  })
  .meta({
    id: "FinalDestinationEta",
    description: "Issue 41: the journey's end beyond the port of discharge.",
  });

/** Only when there is one: absent for a port-to-port or delivered journey, and when predictive ETA is off. */
export const finalDestinationEtaField = FinalDestinationEta.optional().meta({
  description:
    "Only when predictive ETA is on for the organisation (as predictive_eta) and the journey has a place of delivery beyond the port of discharge that the box has not reached: the predicted arrival there. Absent otherwise (a port-to-port journey, arrived, or nothing dates it).",
});
