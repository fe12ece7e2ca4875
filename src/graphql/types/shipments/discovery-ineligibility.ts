import { builder } from "../../builder";

export const DiscoveryIneligibilityEnum = builder.enumType("DiscoveryIneligibility", {
  description: "Why carrier discovery does not run.",
  values: {
    plan: { description: "The plan does not include carrier discovery." },
    disabled: { description: "The organisation switched carrier discovery off." },
    invalid_reference: { description: "The reference cannot be tracked at all." },
    no_candidates: { description: "No other carrier is a candidate for the reference." },
  } as const,
});
