import type { SharedShipmentView } from "../../../domain/sharing/share-view";
import { builder } from "../../builder";
import { GeoPointRef } from "../tracking/geo-point";
import { LegTypeEnum } from "../tracking/leg-type";

export const SharedLegRef = builder.objectRef<SharedShipmentView["paths"][number]>("SharedLeg").implement({
  description: "A leg as the page draws it: a sea leg along real sea lanes (MARNET), a land leg straight.",
  fields: (t) => ({
    kind: t.field({ type: LegTypeEnum, resolve: (leg) => leg.kind }),
    path: t.field({
      type: [GeoPointRef],
      extensions: { listSize: 400 },
      description: "The points to draw, in order; longitudes unwrapped across the antimeridian.",
      resolve: (leg) => leg.path.map(([lat, lng]) => ({ lat, lng })),
    }),
  }),
});
