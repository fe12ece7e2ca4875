import { MATCH_TYPES } from "../../../domain/disruptions/matching";
import { builder } from "../../builder";

export const DisruptionMatchTypeEnum = builder.enumType("DisruptionMatchType", {
  description:
    "How a disruption touches a shipment: its port of loading (`pol`) or discharge (`pod`), a transshipment port, its carrier, a chokepoint its remaining sea route passes (`lane_interest`), or the country of one of its ports.",
  values: MATCH_TYPES,
});
