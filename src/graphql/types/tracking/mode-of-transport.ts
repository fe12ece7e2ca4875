import { MODES_OF_TRANSPORT } from "../../../domain/tracking/model";
import { builder } from "../../builder";

export const ModeOfTransportEnum = builder.enumType("ModeOfTransport", {
  values: MODES_OF_TRANSPORT,
});
