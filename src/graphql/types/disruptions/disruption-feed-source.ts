import type { DisruptionSource } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { INTERNAL } from "../../schema-visibility";

export const DisruptionFeedSourceRef = builder.objectRef<DisruptionSource>("DisruptionFeedSource").implement({
  description: "A configured news feed of the disruption pipeline and its health (operators).",
  fields: (t) => ({
    id: t.exposeString("id"),
    publisher: t.exposeString("publisher"),
    url: t.exposeString("url"),
    kind: t.exposeString("kind"),
    enabled: t.exposeBoolean("enabled"),
    lastFetchedAt: t.field({ type: "DateTime", nullable: true, resolve: (s) => s.lastFetchedAt }),
    lastSuccessAt: t.field({ type: "DateTime", nullable: true, resolve: (s) => s.lastSuccessAt }),
    lastErrorAt: t.field({ type: "DateTime", nullable: true, resolve: (s) => s.lastErrorAt }),
    lastError: t.exposeString("lastError", { nullable: true }),
    consecutiveFailures: t.exposeInt("consecutiveFailures"),
    nextFetchAt: t.field({ type: "DateTime", resolve: (s) => s.nextFetchAt }),
    itemsSeen: t.exposeInt("itemsSeen"),
    itemsAccepted: t.exposeInt("itemsAccepted"),
  }),
});

builder.queryFields((t) => ({
  disruptionSources: t.field({
    type: [DisruptionFeedSourceRef],
    extensions: INTERNAL,
    description:
      "Every configured disruption feed and its health: for the operator's pages, not for customers.",
    authScopes: { developerMode: true },
    resolve: (_root, _args, ctx) => ctx.services.disruptions.sources(),
  }),
}));
