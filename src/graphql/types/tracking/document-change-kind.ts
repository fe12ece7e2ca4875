import type { DocumentChange } from "../../../domain/tracking/document-diff";
import { builder } from "../../builder";

export const DocumentChangeKindEnum = builder.enumType("DocumentChangeKind", {
  values: {
    STATUS: { value: "status", description: "The status moved: statusFrom, statusTo." },
    ETA: { value: "eta", description: "The arrival at the port of discharge moved: etaFrom, etaTo." },
    VESSEL_ARRIVED: {
      value: "vessel_arrived",
      description: "The vessel arrived at the port of discharge: at.",
    },
    DELIVERED: { value: "delivered", description: "Delivered to the consignee: at (null when undated)." },
    CONTAINER_ADDED: { value: "container_added", description: "A container joined: container." },
    EVENT_ADDED: {
      value: "event_added",
      description: "A container has a new event: container, eventCode, locationKey, actual.",
    },
    EVENT_ACTUALISED: {
      value: "event_actualised",
      description: "A planned event of a container happened: container, eventCode, locationKey.",
    },
  } as const satisfies Record<string, { value: DocumentChange["kind"]; description: string }>,
});
