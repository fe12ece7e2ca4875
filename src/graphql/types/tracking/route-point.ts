import type { RoutePoint } from "../../../domain/tracking/model";
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
    localDateTime: t.string({ nullable: true, resolve: ({ item }) => item.localDateTime }),
    instant: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.instant ? new Date(item.instant) : null),
    }),
    actual: t.boolean({
      nullable: true,
      description: "true confirmed, false estimated, null not known yet.",
      resolve: ({ item }) => item.actual,
    }),
  }),
});
