/**
 * DCSA T&T 2.2 events -> the canonical TrackingDocument. Pure: no I/O, no clock (the fetch time comes
 * in the context). The rules follow shared/reference/dcsa/MAPPING.md section 5; where the note leaves a
 * choice open, the choice is written next to the code that makes it.
 *
 * One file per step of a mapping run: map.ts drives it; the others are its steps, in the order it takes
 * them (validation, candidates, places, sequence, route, journey, output).
 */

export { mapDcsaEvents } from "./map";
export type { DcsaMapContext, LocationLookup, LocationLookupResult, MapResult } from "./mapping-run";
