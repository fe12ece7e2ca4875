import { builder } from "../../builder";

export const CarrierUnavailableReasonEnum = builder.enumType("CarrierUnavailableReason", {
  description: "Why a named carrier is not asked.",
  values: {
    maintenance: { description: "Under maintenance: retry later, or track without naming it." },
    disabled: { description: "Switched off by the operator of this service." },
    unsupported_type: { description: "It does not resolve this type of reference (e.g. a bare container)." },
  } as const,
});
