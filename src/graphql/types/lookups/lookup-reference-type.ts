import { builder } from "../../builder";

export const LookupReferenceTypeEnum = builder.enumType("LookupReferenceType", {
  values: ["container", "bl"] as const,
});
