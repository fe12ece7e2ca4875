import { journeyEnds } from "../../../domain/tracking/journey-ends";
import type { TrackingDocument } from "../../../domain/tracking/model";
import { builder } from "../../builder";
import { RoutePointRef } from "./route-point";

export const RouteRef = builder.objectRef<TrackingDocument>("Route").implement({
  description:
    "The journey's four ends: place of receipt, port of loading, port of discharge, place of delivery.",
  fields: (t) => ({
    placeOfReceipt: t.field({
      type: RoutePointRef,
      description: "Where the carrier takes the cargo in, before the port of loading.",
      resolve: (doc) => ({ item: doc.route.prepol, doc }),
    }),
    portOfLoading: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.pol, doc }) }),
    portOfDischarge: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.pod, doc }) }),
    placeOfDelivery: t.field({
      type: RoutePointRef,
      description: "Where the carrier hands the cargo over, after the port of discharge.",
      resolve: (doc) => ({ item: doc.route.postpod, doc }),
    }),
    origin: t.field({
      type: RoutePointRef,
      description:
        "Where the journey starts: the place of receipt, else the port of loading with the first actual event there (the compat `route.prepol`).",
      resolve: (doc) => ({ item: journeyEnds(doc).origin, doc }),
    }),
    destination: t.field({
      type: RoutePointRef,
      description:
        "Where the journey ends: the place of delivery, else the port of discharge with the first actual event there (the compat `route.postpod`).",
      resolve: (doc) => ({ item: journeyEnds(doc).destination, doc }),
    }),
    prepol: t.field({
      type: RoutePointRef,
      deprecationReason: "Use placeOfReceipt.",
      resolve: (doc) => ({ item: doc.route.prepol, doc }),
    }),
    pol: t.field({
      type: RoutePointRef,
      deprecationReason: "Use portOfLoading.",
      resolve: (doc) => ({ item: doc.route.pol, doc }),
    }),
    pod: t.field({
      type: RoutePointRef,
      deprecationReason: "Use portOfDischarge.",
      resolve: (doc) => ({ item: doc.route.pod, doc }),
    }),
    postpod: t.field({
      type: RoutePointRef,
      deprecationReason: "Use placeOfDelivery.",
      resolve: (doc) => ({ item: doc.route.postpod, doc }),
    }),
  }),
});
