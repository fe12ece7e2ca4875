import type { CONTENT_STATES } from "../../../domain/tracking/milestones";
import { builder } from "../../builder";

export const ContentStateEnum = builder.enumType("ContentState", {
  description:
    "What a tracked document has to show; the first that applies: CANCELLED, NO_CONTAINERS, NO_EVENTS, OK.",
  values: {
    CANCELLED: { description: "The carrier cancelled the shipment." },
    NO_CONTAINERS: { description: "The carrier named no container." },
    NO_EVENTS: { description: "No container has an event a client sees." },
    OK: { description: "Containers with events." },
  } satisfies Record<(typeof CONTENT_STATES)[number], { description: string }>,
});
