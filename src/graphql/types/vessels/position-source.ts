import { builder } from "../../builder";

export const PositionSourceEnum = builder.enumType("PositionSource", {
  description: "Where a vessel position comes from.",
  values: {
    ais: { description: "The AIS feed this service ingests." },
    simulator: { description: "The simulated world of a demo or test installation." },
  } as const,
});
