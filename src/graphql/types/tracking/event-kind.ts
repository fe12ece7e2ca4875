import type { EVENT_KINDS } from "../../../domain/tracking/model";
import { builder } from "../../builder";

export const EventKindEnum = builder.enumType("EventKind", {
  values: {
    EQUIPMENT: { description: "Something done to the container (gate in, loading, discharge ...)." },
    TRANSPORT: { description: "A move of the vessel or vehicle carrying it (departure, arrival)." },
  } satisfies Record<(typeof EVENT_KINDS)[number], { description: string }>,
});
