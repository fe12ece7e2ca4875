import { type TimelineEntry, timelineOf } from "../../../domain/tracking/timeline";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { EventRef } from "./event";
import { type InDocument, inDocument } from "./in-document";
import { TrackingDocumentRef } from "./tracking-document";

const TimelineEntryRef = builder.objectRef<InDocument<TimelineEntry>>("TimelineEntry").implement({
  description: "One event of the journey and the box it is about.",
  fields: (t) => ({
    container: t.string({ resolve: ({ item }) => item.container }),
    event: t.field({ type: EventRef, resolve: ({ item, doc }) => inDocument(doc)(item.event) }),
  }),
});

builder.objectFields(TrackingDocumentRef, (t) => ({
  timeline: t.field({
    type: [TimelineEntryRef],
    description:
      "Every box's shown events merged into one journey, oldest first; events without a date last. The same events as `containers.events`.",
    extensions: LIST_SIZE(250),
    resolve: (d) => timelineOf(d.content).map(inDocument(d.content)),
  }),
}));
