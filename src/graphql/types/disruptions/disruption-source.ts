import type { EventSource } from "../../../domain/disruptions/events";
import { builder } from "../../builder";

export const DisruptionSourceRef = builder.objectRef<EventSource>("DisruptionSource").implement({
  description: "One report of the event, as a citation: publisher, its headline and link. Never its text.",
  fields: (t) => ({
    publisher: t.exposeString("publisher"),
    headline: t.string({ resolve: (s) => s.title }),
    link: t.string({ nullable: true, resolve: (s) => s.link }),
    publishedAt: t.field({ type: "DateTime", resolve: (s) => s.publishedAt }),
  }),
});
