import { builder } from "../../builder";

export const CarrierStatusEnum = builder.enumType("CarrierStatus", {
  values: {
    active: { description: "Tracking requests are routed to the carrier." },
    maintenance: {
      description: "Temporarily not asked; requests answer that the carrier is under maintenance.",
    },
    disabled: { description: "Switched off by the operator." },
  } as const,
});
