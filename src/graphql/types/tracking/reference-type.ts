import { builder } from "../../builder";

export const ReferenceTypeEnum = builder.enumType("ReferenceType", {
  values: {
    container: { description: "An ISO 6346 container number." },
    bl: { description: "A bill of lading." },
    booking: { description: "A carrier booking." },
  } as const,
});
