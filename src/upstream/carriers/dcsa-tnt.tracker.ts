import type { CarrierTracker } from "../../domain/tracking/carrier-tracker";
import type { Clock } from "../../lib/clock";
import type { CarrierAdapter } from "./carrier-adapter";
import { type LocationLookup, mapDcsaEvents } from "./dcsa-tnt.mapper";

/**
 * The tracking service's carrier port over DCSA Track & Trace: the client fetches the events, the
 * mapper turns them into our model, stamped with the clock's time. An answer the mapper cannot read
 * is `malformed`, like a body that is not JSON: to the service both are a carrier it could not read.
 */
export function dcsaTracker(
  client: CarrierAdapter,
  options: { clock: Clock; locationLookup: LocationLookup },
): CarrierTracker {
  return {
    async track(query, signal) {
      const outcome = await client.fetchEvents(query, signal);
      if (outcome.kind !== "found") return outcome;
      const mapped = mapDcsaEvents(outcome.events, {
        reference: query.reference,
        referenceType: query.referenceType,
        carrierScac: query.scac,
        fetchedAt: options.clock.now(),
        locationLookup: options.locationLookup,
      });
      return mapped.ok
        ? { kind: "found", document: mapped.document }
        : { kind: "malformed", reason: mapped.detail };
    },
  };
}
