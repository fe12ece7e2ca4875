import { isDateFromCarrier } from "../../../domain/tracking/milestones";
import type { TrackedEvent } from "../../../domain/tracking/model";
import { builder } from "../../builder";
import { EmptyIndicatorEnum } from "./empty-indicator";
import { EventCodeEnum } from "./event-code";
import { EventKindEnum } from "./event-kind";
import { EventStatusCodeEnum } from "./event-status-code";
import { FacilityRef } from "./facility";
import { type InDocument, locationIn, vesselIn } from "./in-document";
import { LEG_TYPE, LegTypeEnum } from "./leg-type";
import { LocationRef } from "./location";
import { ModeOfTransportEnum } from "./mode-of-transport";
import { VesselRef } from "./vessel";

export const EventRef = builder.objectRef<InDocument<TrackedEvent>>("Event");

const EventSourceKindEnum = builder.enumType("EventSourceKind", {
  values: {
    CARRIER: { description: "The ocean carrier's own answer." },
    PARTNER: { description: "A partner source of the organisation (drayage, rail, warehouse)." },
  } as const,
});

const EventSourceRef = builder.objectRef<InDocument<TrackedEvent>>("EventSource").implement({
  description:
    "Who reported an event. A partner's event never overrides a carrier's actual one (docs/decisions/partner-events.md).",
  fields: (t) => ({
    kind: t.field({
      type: EventSourceKindEnum,
      resolve: ({ item }) => (item.source ? "PARTNER" : "CARRIER"),
    }),
    name: t.string({
      description: "The partner source's name, or the carrier's SCAC.",
      resolve: ({ item, doc }) => item.source?.name ?? doc.carrierScac,
    }),
    partnerSourceId: t.id({ nullable: true, resolve: ({ item }) => item.source?.sourceId ?? null }),
    eventId: t.string({
      nullable: true,
      description: "The partner's own id of the event; null for the carrier's.",
      resolve: ({ item }) => item.source?.eventId ?? null,
    }),
  }),
});

EventRef.implement({
  description: "A milestone of a container or its transport, actual or estimated.",
  fields: (t) => ({
    kind: t.field({ type: EventKindEnum, resolve: ({ item }) => item.kind }),
    source: t.field({ type: EventSourceRef, resolve: (event) => event }),
    eventCode: t.field({ type: EventCodeEnum, resolve: ({ item }) => item.eventCode }),
    statusCode: t.field({
      type: EventStatusCodeEnum,
      nullable: true,
      description: "Null when no status of the vocabulary applies (always for the hidden codes).",
      resolve: ({ item }) => item.statusCode,
    }),
    description: t.string({ resolve: ({ item }) => item.description }),
    localDateTime: t.string({
      nullable: true,
      description:
        "Wall-clock time at the location, YYYY-MM-DD HH:MM:SS; null when the carrier gave no date.",
      resolve: ({ item }) => item.localDateTime,
    }),
    isDateFromCarrier: t.boolean({
      description: "False when the carrier gave no date, or one so implausible that it was dropped.",
      resolve: ({ item }) => isDateFromCarrier(item),
    }),
    utcOffset: t.string({
      nullable: true,
      description: "The location's offset at that time, e.g. +08:00.",
      resolve: ({ item }) => item.utcOffset,
    }),
    instant: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.instant ? new Date(item.instant) : null),
    }),
    actual: t.boolean({
      description: "True when it happened; false when estimated or planned.",
      resolve: ({ item }) => item.actual,
    }),
    modeOfTransport: t.field({
      type: ModeOfTransportEnum,
      nullable: true,
      resolve: ({ item }) => item.modeOfTransport,
    }),
    legType: t.field({ type: LegTypeEnum, resolve: ({ item }) => LEG_TYPE[item.legType] }),
    voyage: t.string({ nullable: true, resolve: ({ item }) => item.voyage }),
    emptyIndicator: t.field({
      type: EmptyIndicatorEnum,
      nullable: true,
      resolve: ({ item }) => item.emptyIndicator,
    }),
    isAdditional: t.boolean({
      description: "At a place off the route (not a place of receipt, port or place of delivery).",
      resolve: ({ item }) => item.isAdditional,
    }),
    location: t.field({
      type: LocationRef,
      nullable: true,
      resolve: ({ item, doc }) => locationIn(doc, item.locationKey),
    }),
    facility: t.field({
      type: FacilityRef,
      nullable: true,
      resolve: ({ item, doc }) => {
        const facility = item.facilityKey
          ? doc.facilities.find((f) => f.key === item.facilityKey)
          : undefined;
        return facility ? { item: facility, doc } : null;
      },
    }),
    vessel: t.field({
      type: VesselRef,
      nullable: true,
      resolve: ({ item, doc }) => vesselIn(doc, item.vesselKey),
    }),
  }),
});
