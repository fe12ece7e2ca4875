import { DISRUPTION_CATEGORIES } from "../../../domain/disruptions/categories";
import { builder } from "../../builder";

export const DisruptionCategoryEnum = builder.enumType("DisruptionCategory", {
  description: "What kind of disruption an event is (v1 section 2.12).",
  values: DISRUPTION_CATEGORIES,
});
