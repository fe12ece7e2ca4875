import { builder } from "../../builder";
import { ReferenceTypeEnum } from "../tracking/reference-type";

export const TrackItemInput = builder.inputType("TrackItemInput", {
  fields: (t) => ({
    type: t.field({ type: ReferenceTypeEnum, required: true }),
    number: t.string({ required: true }),
    sealine: t.string({
      required: false,
      description: "SCAC, e.g. MAEU. Without it the carrier is resolved locally only.",
    }),
  }),
});
