import { lastActualEvent } from "../../../domain/tracking/milestones";
import { type TrackedContainer, visibleEvents } from "../../../domain/tracking/model";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { EventRef } from "./event";
import { type InDocument, inDocument } from "./in-document";
import { ShipmentStatusEnum } from "./shipment-status";

export const ContainerRef = builder.objectRef<InDocument<TrackedContainer>>("Container").implement({
  fields: (t) => ({
    number: t.string({ description: "ISO 6346 container number.", resolve: ({ item }) => item.number }),
    isoCode: t.string({
      nullable: true,
      description: "ISO 6346 size-type code (e.g. 45G1), only when valid.",
      resolve: ({ item }) => item.isoCode,
    }),
    sizeType: t.string({
      nullable: true,
      description: "Shorthand such as 40HQ when that is what the carrier gave.",
      resolve: ({ item }) => item.sizeType,
    }),
    description: t.string({
      nullable: true,
      description: "Readable equipment, e.g. 40' High Cube Dry.",
      resolve: ({ item }) => item.description,
    }),
    status: t.field({ type: ShipmentStatusEnum, resolve: ({ item }) => item.status }),
    statusFromCarrier: t.boolean({ resolve: ({ item }) => item.statusFromCarrier }),
    eventsMirrored: t.boolean({
      description: "True when the events were copied from the transport, not the box.",
      resolve: ({ item }) => item.eventsMirrored,
    }),
    deliveredAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.deliveredAt ? new Date(item.deliveredAt) : null),
    }),
    events: t.field({
      type: [EventRef],
      description:
        "The container's events in the carrier's order, planned ones included. Only the codes every surface shows (PICK, GTIN, GTOT, LOAD, DEPA, ARRI, DISC); the carrier's other codes (DROP, STUF, STRP, INSP, RSEA, RMVD) are kept for the status rules and returned only with includeHidden: true.",
      args: {
        includeHidden: t.arg.boolean({
          required: true,
          defaultValue: false,
          description:
            "Also return the events no surface shows (DROP, STUF, STRP, INSP, RSEA, RMVD), in place.",
        }),
      },
      extensions: LIST_SIZE(25),
      resolve: ({ item, doc }, { includeHidden }) =>
        (includeHidden ? item.events : visibleEvents(item)).map(inDocument(doc)),
    }),
    lastActualEvent: t.field({
      type: EventRef,
      nullable: true,
      description:
        "The latest of its events (as `events` returns them) that happened, in the carrier's order; null before any.",
      resolve: ({ item, doc }) => {
        const event = lastActualEvent(item);
        return event ? { item: event, doc } : null;
      },
    }),
  }),
});
