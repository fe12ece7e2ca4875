import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";

export const DisruptionAffectedRef = builder
  .objectRef<{ count: number; references: string[] }>("DisruptionAffected")
  .implement({
    description: "The caller's active shipments the event touches.",
    fields: (t) => ({
      count: t.exposeInt("count"),
      references: t.exposeStringList("references", {
        extensions: LIST_SIZE(5),
        description:
          "Up to five: the most exposed first (port of discharge before a country), then the soonest arrival.",
      }),
    }),
  });
