import { builder } from "../../builder";

export const PortNotScoredRef = builder
  .objectRef<{ locode: string; name: string; country: string; lat: number | null; lng: number | null }>(
    "PortNotScored",
  )
  .implement({
    description:
      "A port Quayside knows but holds no congestion signal for: it is not scored (never a score of 0) and is absent from the board.",
    fields: (t) => ({
      locode: t.exposeString("locode"),
      name: t.exposeString("name"),
      country: t.exposeString("country"),
      lat: t.exposeFloat("lat", { nullable: true }),
      lng: t.exposeFloat("lng", { nullable: true }),
    }),
  });
