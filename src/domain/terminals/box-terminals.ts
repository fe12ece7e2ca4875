import type { TrackingDocument } from "../tracking/model";
import type { TerminalRef } from "./terminal-facts";

export interface BoxAtTerminal {
  containerNumber: string;
  terminal: TerminalRef;
}

/**
 * The terminal each box of a document is (or will be) discharged at: the SMDG-coded facility of the
 * box's last discharge (actual or planned) at the port of discharge. A box whose discharge the carrier
 * names no terminal for has no item: there is nobody to ask.
 */
export function boxTerminals(doc: TrackingDocument): BoxAtTerminal[] {
  const pod = doc.route.pod.locationKey;
  if (pod === null) return [];
  const facilities = new Map(doc.facilities.map((f) => [f.key, f]));
  const out: BoxAtTerminal[] = [];
  for (const container of doc.containers) {
    const discharge = [...container.events]
      .reverse()
      .find((e) => e.eventCode === "DISC" && e.locationKey === pod && e.facilityKey !== null);
    const facility = discharge?.facilityKey ? facilities.get(discharge.facilityKey) : undefined;
    if (!facility?.smdgCode) continue;
    const location = doc.locations.find((l) => l.key === pod);
    out.push({
      containerNumber: container.number,
      terminal: {
        code: facility.smdgCode,
        name: facility.name,
        unLocode: facility.locode ?? location?.unLocode ?? null,
      },
    });
  }
  return out;
}
