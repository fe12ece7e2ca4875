/**
 * DCSA T&T 2.2 events -> the canonical TrackingDocument. Pure: no I/O, no clock (the fetch time comes
 * in the context). The rules are ours, over the fields of DCSA Track & Trace 2.2.0
 * (github.com/dcsaorg/DCSA-OpenAPI, tnt/v2/TNT_v2.2.0.yaml); where the specification leaves a choice
 * open, the choice is written next to the code that makes it.
 *
 * One file per step of a mapping run: map.ts drives it; the others are its steps, in the order it takes
 * them (validation, candidates, requested-box, places, sequence, route, journey, output).
 */

export { mapDcsaEvents } from "./map";
export type { DcsaMapContext, LocationLookup, LocationLookupResult, MapResult } from "./mapping-run";
