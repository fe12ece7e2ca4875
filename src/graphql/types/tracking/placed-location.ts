import type { PlacedLocation } from "../../../domain/routes/placed-locations";
import { builder } from "../../builder";

export const PlacedLocationRef = builder.objectRef<PlacedLocation>("PlacedLocation").implement({
  description:
    "A location of the document with coordinates (else its terminal's) and an IANA time zone (else from the coordinates, else from the offset of its events, else Etc/UTC) always filled where they can be.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "The location's key in the document." }),
    unLocode: t.exposeString("unLocode", { nullable: true }),
    name: t.exposeString("name"),
    state: t.exposeString("state", { nullable: true }),
    country: t.exposeString("country", { nullable: true }),
    countryCode: t.exposeString("countryCode", { nullable: true, description: "ISO 3166-1 alpha-2." }),
    lat: t.exposeFloat("lat", { nullable: true, description: "Null only when no coordinates are known." }),
    lng: t.exposeFloat("lng", { nullable: true }),
    timeZone: t.exposeString("timeZone", { description: "IANA zone name." }),
  }),
});
