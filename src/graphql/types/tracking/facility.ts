import type { TrackedFacility } from "../../../domain/tracking/model";
import { facilityCountryCode, facilityLocation } from "../../../domain/tracking/shipment-facts";
import { builder } from "../../builder";
import type { InDocument } from "./in-document";
import { LocationRef } from "./location";

export const FacilityRef = builder.objectRef<InDocument<TrackedFacility>>("Facility").implement({
  description: "A terminal or depot.",
  fields: (t) => ({
    key: t.string({ resolve: ({ item }) => item.key }),
    name: t.string({ resolve: ({ item }) => item.name }),
    locode: t.string({ nullable: true, resolve: ({ item }) => item.locode }),
    countryCode: t.string({
      nullable: true,
      description: "ISO 3166-1 alpha-2; null when the UN/LOCODE's country part is a user-assigned code (XZ).",
      resolve: ({ item }) => item.countryCode,
    }),
    locodeCountryCode: t.string({
      nullable: true,
      description:
        "countryCode, else the first two letters of the UN/LOCODE (a user-assigned code such as XZ included); null without either.",
      resolve: ({ item }) => facilityCountryCode(item),
    }),
    smdgCode: t.string({
      nullable: true,
      description: "SMDG terminal code.",
      resolve: ({ item }) => item.smdgCode,
    }),
    bicCode: t.string({
      nullable: true,
      description: "BIC facility code.",
      resolve: ({ item }) => item.bicCode,
    }),
    lat: t.float({ nullable: true, resolve: ({ item }) => item.lat }),
    lng: t.float({ nullable: true, resolve: ({ item }) => item.lng }),
    location: t.field({
      type: LocationRef,
      nullable: true,
      description: "The location of the document with the facility's UN/LOCODE.",
      resolve: ({ item, doc }) => {
        const location = facilityLocation(doc, item);
        return location ? { item: location, doc } : null;
      },
    }),
  }),
});
