import { builder } from "../../builder";

export const BillingStateEnum = builder.enumType("BillingState", {
  values: {
    active: { description: "Paid up." },
    overdue: {
      description:
        "An invoice is unpaid; past the grace days new tracking pauses, and what is tracked stays readable.",
    },
  } as const,
});
