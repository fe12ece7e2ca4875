import { builder } from "../../builder";

export const LookupAllowanceKindEnum = builder.enumType("LookupAllowanceKind", {
  values: {
    VESSEL_SCHEDULE: {
      description: "Vessel positions and sailing schedules: one daily allowance per key by plan.",
    },
    CARRIER: { description: "Carrier lookups: 1,000 a day per key." },
  } as const,
});
