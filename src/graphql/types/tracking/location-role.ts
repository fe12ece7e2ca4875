import type { LOCATION_ROLES } from "../../../domain/tracking/location-roles";
import { builder } from "../../builder";

export const LocationRoleEnum = builder.enumType("LocationRole", {
  description:
    "The part a place plays in the journey. A place playing several shows the first of: port of loading, port of discharge, place of receipt, place of delivery, transshipment.",
  values: {
    PLACE_OF_RECEIPT: { description: "Where the carrier takes the cargo in, before the port of loading." },
    PORT_OF_LOADING: { description: "The first port where the box is loaded onto a vessel." },
    TRANSSHIPMENT: { description: "A port where the box changes vessel." },
    PORT_OF_DISCHARGE: { description: "The last port where the box is discharged from a vessel." },
    PLACE_OF_DELIVERY: {
      description: "Where the carrier hands the cargo over, after the port of discharge.",
    },
    OTHER: { description: "A place off the route (an empty depot, an inland stop)." },
  } satisfies Record<(typeof LOCATION_ROLES)[number], { description: string }>,
});
