import { builder } from "../../builder";

export const ScheduleVesselRef = builder
  .objectRef<{ name: string | null; imo: string | null }>("ScheduleVessel")
  .implement({
    description: "The ship of the first vessel leg (v1 `vessel`: name, imo).",
    fields: (t) => ({
      name: t.exposeString("name", { nullable: true }),
      imo: t.exposeString("imo", { nullable: true, description: "IMO number, 7 digits." }),
    }),
  });
