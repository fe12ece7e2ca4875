import { FEATURES } from "../../../domain/accounts/plans";
import { builder } from "../../builder";

export const FeatureEnum = builder.enumType("Feature", {
  description:
    "A feature a plan can include; an organisation's own switch can turn an included one off, never on one the plan lacks.",
  values: FEATURES,
});
