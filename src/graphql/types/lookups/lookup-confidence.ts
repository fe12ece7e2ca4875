import { builder } from "../../builder";

export const LookupConfidenceEnum = builder.enumType("LookupConfidence", {
  values: ["high", "medium", "low"] as const,
});
