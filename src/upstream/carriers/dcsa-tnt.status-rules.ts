import type { CompatStatusCode, EmptyIndicator, ModeOfTransport } from "../../domain/tracking/model";

/**
 * Where an event sits on its container's journey, worked out by the mapper from the route:
 * - `export`: before the box is loaded at the port of loading (empty pick-up, stuffing, pre-carriage);
 * - `import`: after the first event at the port of discharge (on-carriage, delivery, empty return);
 * - `pol`, `ts`, `pod`, `postpod`: at that route point (`ts` = a transshipment port);
 * - `offRoute`: at a place that is none of the route points (inland ramps, intermediate calls).
 * An event can be in several places at once: an empty pick-up at a depot in the port city is both
 * `export` and `pol`.
 */
export type JourneyPlace = "export" | "import" | "pol" | "ts" | "pod" | "postpod" | "offRoute";

/** `sea` = VESSEL, or not stated (LOAD/DISC without a transport call are almost always vessel moves). */
export type ModeClass = "sea" | "land" | "rail" | "barge";

export interface CompatStatusRule {
  codes: readonly string[];
  empty?: EmptyIndicator;
  /** At least one listed place must hold. */
  at: readonly JourneyPlace[];
  /** None of these places may hold. */
  notAt?: readonly JourneyPlace[];
  mode?: ModeClass;
  status: CompatStatusCode;
}

/**
 * DCSA event in context -> compat event `status`. Our own inference (from the DCSA event codes and
 * the compat status names; neither defines exact triggers). First matching rule wins; no match
 * means `status: null` (e.g. a vessel arrival at the port of loading has no compat code).
 *
 * | DCSA event                                | where                          | status                |
 * |-------------------------------------------|--------------------------------|-----------------------|
 * | GTOT EMPTY                                | export phase                   | CEP                   |
 * | PICK                                      | export phase                   | CPS                   |
 * | GTOT LADEN                                | export phase, not at the POL   | CPS                   |
 * | GTIN LADEN                                | POL                            | CGI                   |
 * | LOAD / DEPA by vessel                     | POL                            | CLL / VDL             |
 * | ARRI / DISC / LOAD / DEPA by vessel       | transshipment port             | VAT / CDT / CLT / VDT |
 * | ARRI / DISC by vessel                     | POD                            | VAD / CDD             |
 * | GTOT LADEN                                | POD                            | CGO                   |
 * | GTOT LADEN                                | postpod                        | CDC                   |
 * | GTIN EMPTY                                | import phase                   | CER                   |
 * | ARRI / DEPA / LOAD / DISC by truck, rail  | off the route                  | LTS                   |
 * | ARRI / DEPA / LOAD / DISC by rail         | POL, T/S, POD                  | LTS                   |
 * | ARRI / DEPA / LOAD / DISC by barge        | POL, T/S, POD or off the route | BTS                   |
 *
 * Rail and barge legs meet the vessel at the port, which is the leg change LTS/BTS name; a truck is the
 * ordinary first and last mile there, so trucks only earn LTS at inland hubs.
 * "By vessel" includes LOAD/DISC with no transport call, and a barge on a journey with no vessel.
 * Not emitted (no code): DROP, STUF, STRP, INSP, RSEA, RMVD.
 */
export const COMPAT_STATUS_RULES: readonly CompatStatusRule[] = [
  { codes: ["GTOT"], empty: "EMPTY", at: ["export"], status: "CEP" },
  { codes: ["PICK"], at: ["export"], status: "CPS" },
  { codes: ["GTOT"], empty: "LADEN", at: ["export"], notAt: ["pol"], status: "CPS" },
  { codes: ["GTIN"], empty: "LADEN", at: ["pol"], status: "CGI" },
  { codes: ["LOAD"], at: ["pol"], mode: "sea", status: "CLL" },
  { codes: ["DEPA"], at: ["pol"], mode: "sea", status: "VDL" },
  { codes: ["ARRI"], at: ["ts"], mode: "sea", status: "VAT" },
  { codes: ["DISC"], at: ["ts"], mode: "sea", status: "CDT" },
  { codes: ["LOAD"], at: ["ts"], mode: "sea", status: "CLT" },
  { codes: ["DEPA"], at: ["ts"], mode: "sea", status: "VDT" },
  { codes: ["ARRI"], at: ["pod"], mode: "sea", status: "VAD" },
  { codes: ["DISC"], at: ["pod"], mode: "sea", status: "CDD" },
  { codes: ["GTOT"], empty: "LADEN", at: ["pod"], status: "CGO" },
  { codes: ["GTOT"], empty: "LADEN", at: ["postpod"], status: "CDC" },
  { codes: ["GTIN"], empty: "EMPTY", at: ["import"], status: "CER" },
  { codes: ["ARRI", "DEPA", "LOAD", "DISC"], at: ["offRoute"], mode: "land", status: "LTS" },
  { codes: ["ARRI", "DEPA", "LOAD", "DISC"], at: ["pol", "ts", "pod"], mode: "rail", status: "LTS" },
  {
    codes: ["ARRI", "DEPA", "LOAD", "DISC"],
    at: ["pol", "ts", "pod", "offRoute"],
    mode: "barge",
    status: "BTS",
  },
];

export function modeMatches(modeClass: ModeClass, mode: ModeOfTransport | null): boolean {
  switch (modeClass) {
    case "sea":
      return mode === null || mode === "VESSEL";
    case "land":
      return mode === "TRUCK" || mode === "RAIL";
    case "rail":
      return mode === "RAIL";
    case "barge":
      return mode === "BARGE";
  }
}

export function compatStatusFor(
  code: string,
  empty: EmptyIndicator | null,
  mode: ModeOfTransport | null,
  places: ReadonlySet<JourneyPlace>,
): CompatStatusCode | null {
  for (const rule of COMPAT_STATUS_RULES) {
    if (!rule.codes.includes(code)) continue;
    if (rule.empty !== undefined && rule.empty !== empty) continue;
    if (rule.mode !== undefined && !modeMatches(rule.mode, mode)) continue;
    if (!rule.at.some((p) => places.has(p))) continue;
    if (rule.notAt?.some((p) => places.has(p))) continue;
    return rule.status;
  }
  return null;
}

const STATUS_DESCRIPTIONS: Partial<Record<CompatStatusCode, string>> = {
  CEP: "Empty container released to shipper",
  CPS: "Picked up at shipper",
  CGI: "Gated in at port of loading",
  CLL: "Loaded on vessel",
  VDL: "Vessel departed from port of loading",
  VAT: "Vessel arrived at transshipment port",
  CDT: "Discharged at transshipment port",
  CLT: "Loaded on vessel at transshipment port",
  VDT: "Vessel departed from transshipment port",
  VAD: "Vessel arrived at port of discharge",
  CDD: "Discharged at port of discharge",
  CGO: "Gated out from port of discharge",
  CDC: "Delivered to consignee",
  CER: "Empty container returned",
};

const MODE_NOUNS: Record<ModeOfTransport, string> = {
  VESSEL: "vessel",
  BARGE: "barge",
  TRUCK: "truck",
  RAIL: "train",
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A readable line for an event, e.g. "Loaded on vessel" or "Gated in empty". */
export function describeEvent(
  code: string,
  empty: EmptyIndicator | null,
  mode: ModeOfTransport | null,
  status: CompatStatusCode | null,
): string {
  const byStatus = status === null ? undefined : STATUS_DESCRIPTIONS[status];
  if (byStatus !== undefined) {
    return mode === "BARGE" ? byStatus.replace("vessel", "barge").replace("Vessel", "Barge") : byStatus;
  }
  const noun = mode === null ? null : MODE_NOUNS[mode];
  const state = empty === "EMPTY" ? " empty" : empty === "LADEN" ? " full" : "";
  switch (code) {
    case "ARRI":
      return noun === null ? "Arrived" : `${capitalise(noun)} arrived`;
    case "DEPA":
      return noun === null ? "Departed" : `${capitalise(noun)} departed`;
    case "LOAD":
      return noun === null ? "Loaded" : `Loaded on ${noun}`;
    case "DISC":
      return noun === null ? "Discharged" : `Discharged from ${noun}`;
    case "GTIN":
      return `Gated in${state}`;
    case "GTOT":
      return `Gated out${state}`;
    case "PICK":
      return "Picked up";
    case "DROP":
      return "Dropped off";
    case "STUF":
      return "Stuffed";
    case "STRP":
      return "Stripped";
    case "INSP":
      return "Inspected";
    case "RSEA":
      return "Resealed";
    case "RMVD":
      return "Removed";
    default:
      return code;
  }
}
