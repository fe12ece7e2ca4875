import { locationRole } from "../../../domain/tracking/location-roles";
import type { TrackedLocation } from "../../../domain/tracking/model";
import { builder } from "../../builder";
import { type InDocument, rolesOf } from "./in-document";
import { LocationRoleEnum } from "./location-role";

export const LocationRef = builder.objectRef<InDocument<TrackedLocation>>("Location").implement({
  description: "A place of the journey: a port, terminal city or inland place.",
  fields: (t) => ({
    key: t.string({ description: "Stable within one document.", resolve: ({ item }) => item.key }),
    unLocode: t.string({
      nullable: true,
      description: "UN/LOCODE, e.g. NLRTM.",
      resolve: ({ item }) => item.unLocode,
    }),
    name: t.string({ resolve: ({ item }) => item.name }),
    state: t.string({ nullable: true, resolve: ({ item }) => item.state }),
    country: t.string({ nullable: true, resolve: ({ item }) => item.country }),
    countryCode: t.string({
      nullable: true,
      description: "ISO 3166-1 alpha-2.",
      resolve: ({ item }) => item.countryCode,
    }),
    lat: t.float({ nullable: true, resolve: ({ item }) => item.lat }),
    lng: t.float({ nullable: true, resolve: ({ item }) => item.lng }),
    timeZone: t.string({
      nullable: true,
      description: "IANA time zone, e.g. Europe/Amsterdam.",
      resolve: ({ item }) => item.timeZone,
    }),
    role: t.field({
      type: LocationRoleEnum,
      description: "The part the place plays in the journey.",
      resolve: ({ item, doc }) => locationRole(rolesOf(doc), item.key),
    }),
  }),
});
