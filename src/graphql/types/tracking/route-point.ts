import type { RoutePoint } from "../../../domain/tracking/model";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { builder } from "../../builder";
import { type InDocument, locationIn } from "./in-document";
import { LocationRef } from "./location";

export const RoutePointRef = builder.objectRef<InDocument<RoutePoint>>("RoutePoint").implement({
  fields: (t) => ({
    location: t.field({
      type: LocationRef,
      nullable: true,
      resolve: ({ item, doc }) => locationIn(doc, item.locationKey),
    }),
    localDateTime: t.string({
      nullable: true,
      description: "Wall-clock time at the place, YYYY-MM-DD HH:MM:SS; the same moment as instant.",
      resolve: ({ item }) => item.localDateTime,
    }),
    instant: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.instant ? new Date(item.instant) : null),
    }),
    utcOffset: t.string({
      nullable: true,
      description:
        "The clock localDateTime is on: its offset from UTC at that moment, e.g. +01:00 (+00:00 when the place's time zone is unknown: the time is then UTC's); null when localDateTime is null.",
      resolve: ({ item }) => utcOffsetOf(item.localDateTime, item.instant),
    }),
    actual: t.boolean({
      nullable: true,
      description: "true confirmed, false estimated, null not known yet.",
      resolve: ({ item }) => item.actual,
    }),
  }),
});
