import { builder } from "../../builder";

interface RateWindow {
  limit: number;
  remaining: number;
  resetAt: number;
}

export const RateWindowRef = builder.objectRef<RateWindow>("RateWindow").implement({
  description:
    "The calling key's current per-minute window, as the X-RateLimit-* headers report it: the key's own, or its organisation's when that has fewer requests left.",
  fields: (t) => ({
    limit: t.exposeInt("limit"),
    remaining: t.exposeInt("remaining"),
    resetAt: t.exposeInt("resetAt", { description: "Unix seconds." }),
  }),
});
