import { builder } from "../../builder";

export const DiscoveryStatusEnum = builder.enumType("DiscoveryStatus", {
  description: "Carrier discovery for a failed shipment: a background job trying the other likely carriers.",
  values: {
    queued: { description: "Waiting for the job." },
    running: { description: "The job is asking the candidates now." },
    recovered: { description: "A carrier found the reference: the shipment is tracked under it." },
    exhausted: { description: "Every candidate was asked and none knows the reference." },
  } as const,
});
