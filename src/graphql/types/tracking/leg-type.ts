import type { LegType } from "../../../domain/tracking/model";
import { builder } from "../../builder";

/** Stored lowercase (`sea`, `land`); named in capitals like every other closed set of the core. */
export const LEG_TYPE = { sea: "SEA", land: "LAND" } as const satisfies Record<LegType, string>;
export const LegTypeEnum = builder.enumType("LegType", {
  values: {
    SEA: { description: "On a vessel." },
    LAND: { description: "On land or inland water: truck, rail or barge, or a stay at a place." },
  } as const,
});
