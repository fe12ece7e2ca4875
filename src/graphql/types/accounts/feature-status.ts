import type { Feature } from "../../../domain/accounts/plans";
import type { FeatureAccess } from "../../../domain/accounts/principal";
import { builder } from "../../builder";
import { FeatureEnum } from "./feature";
import { FeatureAccessEnum } from "./feature-access";

export const FeatureStatusRef = builder
  .objectRef<{ feature: Feature; access: FeatureAccess }>("FeatureStatus")
  .implement({
    fields: (t) => ({
      feature: t.field({ type: FeatureEnum, resolve: (s) => s.feature }),
      access: t.field({ type: FeatureAccessEnum, resolve: (s) => s.access }),
    }),
  });
