import type { Feature } from "../../../domain/accounts/plans";
import { builder } from "../../builder";
import { FeatureEnum } from "../accounts/feature";

export const FeatureDisabledRef = builder.objectRef<{ feature: Feature }>("FeatureDisabled").implement({
  description: "The plan includes the feature the change needs, but the organisation switched it off.",
  fields: (t) => ({ feature: t.field({ type: FeatureEnum, resolve: (r) => r.feature }) }),
});
