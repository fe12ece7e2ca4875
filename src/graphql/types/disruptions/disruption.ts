import { disruptionAccess } from "../../../domain/disruptions/access";
import type { DisruptionRecord } from "../../../domain/disruptions/disruptions.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { principalOf } from "../../principal";
import { DisruptionAffectedRef } from "./disruption-affected";
import { DisruptionCategoryEnum } from "./disruption-category";
import { DisruptionEntitiesRef } from "./disruption-entities";
import { DisruptionSourceRef } from "./disruption-source";
import { DisruptionStatusEnum } from "./disruption-status";

export const DisruptionRef = builder.objectRef<DisruptionRecord>("Disruption").implement({
  description:
    "A published disruption event (v1 section 2.12). Headline and summary are written by the service from the event's facts; sources are citations only.",
  fields: (t) => ({
    id: t.exposeString("id"),
    severity: t.exposeInt("severity", {
      description:
        "1 info, 2 moderate, 3 high, 4 critical; one level more when three or more publishers report it.",
    }),
    category: t.field({ type: DisruptionCategoryEnum, resolve: (d) => d.category }),
    status: t.field({ type: DisruptionStatusEnum, resolve: (d) => d.status }),
    headline: t.exposeString("headline"),
    summary: t.exposeString("summary"),
    entities: t.field({ type: DisruptionEntitiesRef, resolve: (d) => d.entities }),
    sources: t.field({
      type: [DisruptionSourceRef],
      extensions: LIST_SIZE(4),
      description: "Up to four: distinct publishers first, then agencies and carriers, then the earliest.",
      resolve: (d) => d.sources,
    }),
    firstSeen: t.field({ type: "DateTime", resolve: (d) => d.firstSeen }),
    lastUpdated: t.field({ type: "DateTime", resolve: (d) => d.lastUpdated }),
    resolvedAt: t.field({ type: "DateTime", nullable: true, resolve: (d) => d.resolvedAt }),
    affected: t.field({
      type: DisruptionAffectedRef,
      nullable: true,
      description: "The caller's shipments it touches; null on a plan that does not include it.",
      resolve: async (d, _args, ctx) => {
        const access = disruptionAccess(principalOf(ctx));
        if (access.kind !== "on" || !access.includesAffected) return null;
        return ctx.services.disruptions.affected(principalOf(ctx).organization.id, d.id);
      },
    }),
  }),
});
