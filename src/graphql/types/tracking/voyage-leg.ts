import type { VoyageLeg } from "../../../domain/tracking/voyage-legs";
import { builder } from "../../builder";
import { EventRef } from "./event";
import { type InDocument, locationIn, vesselIn } from "./in-document";
import { LocationRef } from "./location";
import { VesselRef } from "./vessel";
import { VoyageLegStatusEnum } from "./voyage-leg-status";

export const VoyageLegRef = builder.objectRef<InDocument<VoyageLeg>>("VoyageLeg");

VoyageLegRef.implement({
  description:
    "A vessel's (or barge's) departure and the arrival that follows it, as the carrier dated them; the same call mirrored into several containers counts once.",
  fields: (t) => ({
    sequence: t.int({ description: "1, 2, 3 ... in sailing order.", resolve: ({ item }) => item.sequence }),
    vessel: t.field({
      type: VesselRef,
      nullable: true,
      resolve: ({ item, doc }) => vesselIn(doc, item.vesselKey),
    }),
    voyage: t.string({ nullable: true, resolve: ({ item }) => item.voyage }),
    departure: t.field({ type: EventRef, resolve: ({ item, doc }) => ({ item: item.departure, doc }) }),
    arrival: t.field({
      type: EventRef,
      nullable: true,
      description: "Null while no arrival follows the departure.",
      resolve: ({ item, doc }) => (item.arrival ? { item: item.arrival, doc } : null),
    }),
    from: t.field({
      type: LocationRef,
      nullable: true,
      description: "Where it departs: the departure's location.",
      resolve: ({ item, doc }) => locationIn(doc, item.departure.locationKey),
    }),
    to: t.field({
      type: LocationRef,
      nullable: true,
      description: "Where it arrives: the arrival's location; null without an arrival.",
      resolve: ({ item, doc }) => locationIn(doc, item.arrival?.locationKey ?? null),
    }),
    status: t.field({ type: VoyageLegStatusEnum, resolve: ({ item }) => item.status }),
  }),
});
