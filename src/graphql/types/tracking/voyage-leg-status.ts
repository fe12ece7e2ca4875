import type { VOYAGE_LEG_STATUSES } from "../../../domain/tracking/voyage-legs";
import { builder } from "../../builder";

export const VoyageLegStatusEnum = builder.enumType("VoyageLegStatus", {
  values: {
    PLANNED: { description: "The departure has not happened." },
    SAILING: { description: "Departed, not arrived yet." },
    COMPLETED: { description: "Arrived." },
  } satisfies Record<(typeof VOYAGE_LEG_STATUSES)[number], { description: string }>,
});
