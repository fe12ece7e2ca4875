import type { DisruptionSource } from "../../../generated/prisma/client";
import { builder } from "../../builder";

export const DisruptionFeedSourceRef = builder.objectRef<DisruptionSource>("DisruptionFeedSource").implement({
  description:
    "A configured news feed of the disruption pipeline and its health, for the operator of the deployment.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "The source's id in the feeds configuration." }),
    publisher: t.exposeString("publisher"),
    url: t.exposeString("url"),
    kind: t.exposeString("kind", { description: "news, gdacs, nhc or advisory." }),
    enabled: t.exposeBoolean("enabled", {
      description: "False once the source left the configuration (its history is kept).",
    }),
    lastFetchedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When a fetch last started, whatever its outcome.",
      resolve: (s) => s.lastFetchedAt,
    }),
    lastSuccessAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When a fetch last ended well: a feed read, or 304 Not Modified.",
      resolve: (s) => s.lastSuccessAt,
    }),
    lastErrorAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When a fetch last failed; kept after later successes.",
      resolve: (s) => s.lastErrorAt,
    }),
    lastError: t.exposeString("lastError", {
      nullable: true,
      description:
        "Why the last failed fetch failed: unreachable, a timeout, an HTTP error, a body over the size cap, or a body that is no feed (an HTML challenge page).",
    }),
    consecutiveFailures: t.exposeInt("consecutiveFailures", {
      description: "Failed fetches in a row (0 after a success); the fetch interval doubles with each.",
    }),
    nextFetchAt: t.field({ type: "DateTime", resolve: (s) => s.nextFetchAt }),
    itemsSeen: t.exposeInt("itemsSeen", {
      description: "Items read in the feed's bodies, every fetch counted (a 304 reads none).",
    }),
    itemsAccepted: t.exposeInt("itemsAccepted", {
      description: "Items the pipeline took in: neither a duplicate nor news that is no disruption.",
    }),
  }),
});

builder.queryFields((t) => ({
  disruptionSources: t.field({
    type: [DisruptionFeedSourceRef],
    description:
      "Every configured disruption news feed and its health, by id. Only keys of the organisation that operates this deployment (`quayside orgs operator`) may read it; others get OPERATOR_REQUIRED.",
    authScopes: { $all: { developerMode: true, operator: true } },
    resolve: (_root, _args, ctx) => ctx.services.disruptions.sources(),
  }),
}));
