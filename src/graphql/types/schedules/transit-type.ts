import { builder } from "../../builder";

export const TransitTypeEnum = builder.enumType("TransitType", {
  description: "How a routing carries the cargo.",
  values: {
    transshipment: { description: "The cargo changes ship on the way (more than one vessel leg)." },
    unspecified: { description: "One vessel leg; the carrier does not say more." },
  } as const,
});
