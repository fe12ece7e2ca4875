import type { PostPartnerEventsMutation } from "../../generated/operations";

type Result = NonNullable<PostPartnerEventsMutation["postPartnerEvents"]>["results"][number];

/** Per-event outcomes in the v1 spelling, in the order the events were posted. */
export function partnerEventResults(results: readonly Result[]) {
  return results.map((r) => ({
    index: r.index,
    event_id: r.eventId,
    outcome: r.outcome.toLowerCase(),
    shipment_id: r.shipmentId,
    message: r.message,
  }));
}
