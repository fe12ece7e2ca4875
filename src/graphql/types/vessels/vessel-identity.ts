import type { VesselIdentity } from "../../../domain/vessels/vessel-position-provider";
import { builder } from "../../builder";

export const VesselIdentityRef = builder.objectRef<VesselIdentity>("VesselIdentity").implement({
  description: "A vessel as a position source knows it.",
  fields: (t) => ({
    imo: t.exposeString("imo", { nullable: true, description: "IMO number, 7 digits." }),
    mmsi: t.exposeString("mmsi", { nullable: true, description: "MMSI, 9 digits." }),
    name: t.exposeString("name", { nullable: true }),
  }),
});
