import { builder } from "../../builder";

export const CarrierUnavailableReasonEnum = builder.enumType("CarrierUnavailableReason", {
  description: "Why a named carrier is not asked.",
  values: {
    maintenance: { description: "Under maintenance: retry later, or track without naming it." },
    disabled: { description: "Switched off by the operator of this service." },
    not_connected: {
      description:
        "This deployment has no endpoint, adapter or credentials for the carrier: not supported here.",
    },
    unsupported_type: { description: "It does not resolve this type of reference (e.g. a bare container)." },
  } as const,
});
