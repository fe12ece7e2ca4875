import { VESSEL_MATCHES } from "../../../domain/vessels/vessel-positions.service";
import { builder } from "../../builder";

export const VesselMatchEnum = builder.enumType("VesselMatch", {
  description: "How the vessel was looked up: by its IMO number, or by its name.",
  values: VESSEL_MATCHES,
});
