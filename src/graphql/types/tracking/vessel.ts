import type { TrackedVessel } from "../../../domain/tracking/model";
import { legsOfVessel, voyagesOfVessel } from "../../../domain/tracking/voyage-legs";
import { registeredMmsi } from "../../../domain/vessels/vessel-register";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { type InDocument, inDocument, legsOf } from "./in-document";
import { VoyageLegRef } from "./voyage-leg";

// Vessels, voyage legs and events refer to one another: each ref is declared before it is implemented.
export const VesselRef = builder.objectRef<InDocument<TrackedVessel>>("Vessel");

VesselRef.implement({
  fields: (t) => ({
    key: t.string({ resolve: ({ item }) => item.key }),
    name: t.string({ resolve: ({ item }) => item.name }),
    imo: t.int({ nullable: true, description: "IMO number (7 digits).", resolve: ({ item }) => item.imo }),
    mmsi: t.int({
      nullable: true,
      description:
        "MMSI (9 digits): the carrier's, else the AIS static report of the ship's IMO number when the document was stored, else the bundled vessel register's. Null when no source knows it (never guessed: a wrong MMSI names another ship).",
      resolve: ({ item }) => item.mmsi ?? registeredMmsi(item.imo),
    }),
    voyageLegs: t.field({
      type: [VoyageLegRef],
      extensions: LIST_SIZE(6),
      description: "The legs it sailed in this journey, in sailing order.",
      resolve: ({ item, doc }) => legsOfVessel(legsOf(doc), item.key).map(inDocument(doc)),
    }),
    voyages: t.stringList({
      description: "Its voyage numbers in this journey, once each, in sailing order.",
      resolve: ({ item, doc }) => voyagesOfVessel(legsOf(doc), item.key),
    }),
  }),
});
