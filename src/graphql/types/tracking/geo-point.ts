import { builder } from "../../builder";

export const GeoPointRef = builder.objectRef<{ lat: number; lng: number }>("GeoPoint").implement({
  fields: (t) => ({ lat: t.exposeFloat("lat"), lng: t.exposeFloat("lng") }),
});
