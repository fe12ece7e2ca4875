import type { CarrierTerminalSignal } from "../../domain/terminals/terminal-facts";
import type { CarrierQuery, CarrierTracker } from "../../domain/tracking/carrier-tracker";
import type { TrackingDocument } from "../../domain/tracking/model";
import type { Clock } from "../../lib/clock";
import { dcsaTerminalSignals, signalsForBox } from "../terminals/dcsa-terminal-signals.mapper";
import type { CarrierAdapter } from "./carrier-adapter";
import { type LocationLookup, mapDcsaEvents } from "./dcsa-tnt.mapper";

/**
 * Told, after each carrier answer was mapped, which holds, releases and availability its DCSA events
 * carried per box (terminal records). It must not throw; tracking does not wait for it.
 */
export type TerminalSignalSink = (
  document: TrackingDocument,
  signalsOf: (containerNumber: string) => CarrierTerminalSignal[],
) => void;

/**
 * Told every carrier answer's raw events, with the query they answered (the push subscriptions keep
 * them, to merge pushed events into: src/upstream/carriers/carrier-push.ts). Must not throw.
 */
export type CarrierAnswerSink = (query: CarrierQuery, events: readonly unknown[]) => void;

/** Told what a carrier answered that the service set aside (for the operator's log). Must not throw. */
export type CarrierAnswerWarning = (message: string, details: Record<string, unknown>) => void;

/**
 * The tracking service's carrier port over DCSA Track & Trace: the client fetches the events, the
 * mapper turns them into our model, stamped with the clock's time. An answer the mapper cannot read
 * is `malformed`, like a body that is not JSON: to the service both are a carrier it could not read.
 * A container query answered about other boxes only is `not-found`: the carrier told us nothing about
 * the box asked, and storing another box's journey under its number would be wrong data, not news.
 */
export function dcsaTracker(
  client: CarrierAdapter,
  options: {
    clock: Clock;
    locationLookup: LocationLookup;
    terminalSignals?: TerminalSignalSink;
    warn?: CarrierAnswerWarning;
    answers?: CarrierAnswerSink;
  },
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
      if (!mapped.ok && mapped.reason === "other-equipment") {
        options.warn?.("Carrier answered a container query about another box; treated as not found", {
          scac: query.scac,
          container: query.reference,
          answeredAbout: mapped.boxes,
        });
        return { kind: "not-found" };
      }
      if (!mapped.ok) return { kind: "malformed", reason: mapped.detail };
      options.answers?.(query, outcome.events);
      if (options.terminalSignals) {
        const signals = dcsaTerminalSignals(outcome.events);
        options.terminalSignals(mapped.document, (box) => signalsForBox(signals, box));
      }
      return { kind: "found", document: mapped.document };
    },
  };
}
