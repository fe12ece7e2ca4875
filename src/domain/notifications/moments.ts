import type { TerminalFacts } from "../terminals/terminal-facts";
import type { TrackingDocument } from "../tracking/model";
import type { Moment } from "./messages";
import { locationOf, placeOf } from "./shipment-context";

/**
 * A moment is mailed only while it is news: seen more than this long after it happened (a carrier
 * that reports late, a follow that began after, a queue that waited through quiet hours) it is not
 * mailed at all: "sent on time or not at all" (issue 43 item 3).
 */
export const MOMENT_FRESH_MS = 48 * 3_600_000;

/**
 * The sailing moments of a shipment's document: the vessel's actual departure from the port of
 * loading, and each actual vessel departure from a port between loading and discharge (a
 * transshipment), the first box's event of each place. Keys are stable per place, so each is one mail.
 */
export function sailingMoments(doc: TrackingDocument): (Moment & { key: string })[] {
  const { prepol, pol, pod, postpod } = doc.route;
  const routeEnds = new Set(
    [prepol.locationKey, pod.locationKey, postpod.locationKey].filter((k) => k !== null),
  );
  const seen = new Map<string, Moment & { key: string }>();
  const eta = doc.route.pod.actual ? null : doc.route.pod.instant;
  for (const container of doc.containers) {
    for (const event of container.events) {
      if (event.eventCode !== "DEPA" || !event.actual || !event.instant) continue;
      if (event.modeOfTransport !== null && event.modeOfTransport !== "VESSEL") continue;
      const atPol = event.locationKey === pol.locationKey;
      if (!atPol && (routeEnds.has(event.locationKey) || event.isAdditional)) continue;
      const key = `${atPol ? "pol" : "ts"}:${event.locationKey}`;
      const earlier = seen.get(key);
      if (earlier && earlier.at <= event.instant) continue;
      const vessel = event.vesselKey ? doc.vessels.find((v) => v.key === event.vesselKey)?.name : null;
      seen.set(key, {
        key,
        kind: atPol ? "vessel_departed" : "transshipment",
        at: event.instant,
        place: placeOf(locationOf(doc, event.locationKey)),
        vessel: vessel ?? null,
        eta,
      });
    }
  }
  return [...seen.values()];
}

const HOLD_WORDS: Record<string, string> = {
  customs: "customs",
  freight: "freight (unpaid charges)",
  terminal: "terminal",
  usda: "USDA inspection",
  other: "other",
};

export const holdWords = (type: string) => HOLD_WORDS[type] ?? "other";

/** What a box's current terminal facts say now: available, and which holds are on. */
export function terminalMoments(facts: TerminalFacts): { available: boolean; holds: string[]; at: string } {
  return {
    available: facts.availableForPickup === true,
    holds: facts.holds.filter((h) => h.status === "hold").map((h) => h.type),
    at: facts.checkedAt,
  };
}
