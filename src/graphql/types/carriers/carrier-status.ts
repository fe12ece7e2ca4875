import { builder } from "../../builder";

export const CarrierStatusEnum = builder.enumType("CarrierStatus", {
  values: {
    active: { description: "Tracking requests are routed to the carrier." },
    maintenance: {
      description: "Temporarily not asked; requests answer that the carrier is under maintenance.",
    },
    disabled: { description: "Switched off by the operator." },
    not_connected: {
      description:
        "This deployment has no endpoint, adapter or credentials for the carrier: it is not supported here.",
    },
  } as const,
});
