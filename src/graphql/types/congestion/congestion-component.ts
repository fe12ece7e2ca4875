import type { ComponentReading } from "../../../domain/congestion/scoring";
import { builder } from "../../builder";

export const CongestionComponentRef = builder.objectRef<ComponentReading>("CongestionComponent").implement({
  description:
    "One signal of a port's congestion score: today's raw value over its window against its baseline (the 90 days before the last 7).",
  fields: (t) => ({
    name: t.exposeString("name", {
      description: "anchorage_wait, dwell, eta_slip, schedule_deviation or bunching.",
    }),
    raw: t.exposeFloat("raw", { description: "The value over the component's window, in `unit`." }),
    unit: t.exposeString("unit", { description: "h (hours), d (days) or ratio." }),
    baselineMedian: t.exposeFloat("baseline_median", {
      description: "Median of the daily values of the baseline.",
    }),
    baselineMad: t.exposeFloat("baseline_mad", { description: "Median absolute deviation of the baseline." }),
    z: t.exposeFloat("z", { description: "Robust z-score, MAD floored, clipped to [-3, 5]." }),
    weight: t.exposeFloat("weight", {
      description: "Weight in the composite (renormalised over those present).",
    }),
    n: t.exposeInt("n", { description: "Observations behind the raw value." }),
    windowDays: t.exposeInt("window_days", { description: "Days the raw value covers." }),
  }),
});
