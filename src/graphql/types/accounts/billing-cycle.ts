import { builder } from "../../builder";

export const BillingCycleEnum = builder.enumType("BillingCycle", {
  description: "How often the organisation is billed; shipment slots are counted per cycle.",
  values: {
    monthly: { description: "30 days." },
    yearly: { description: "365 days; the slots of twelve months as one pool." },
  } as const,
});
