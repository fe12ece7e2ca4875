import { z } from "zod";
import type { ReferenceType } from "../../domain/tracking/model";
import { withOffsetIn } from "./dcsa-datetime";

/**
 * COSCO COP cargo tracking (`GET /info/tracking/{number}?numberType=bl|bkg|cntr`) -> DCSA T&T 2.2
 * events, which the shared DCSA mapper then turns into the TrackingDocument: one set of rules for
 * status, route and delivery whichever API a carrier speaks. Pure. The answer's shape is documented in
 * github.com/cop-cos/COP docs/info-cargotracking.md (and -en.md): `{ code, message, data: { type,
 * numberType, content } }`; for a B/L or booking `content.actualShipment` (the vessel legs) and
 * `content.containerStatus[].containers[]` (each box's latest move); for a container
 * `content.containers[].containerCircleStatus[]` and `containerHistorys[]` (the box's moves).
 *
 * COP names places in words ("QQCTU Qingdao Qianwan United Ctn,Qingdao,Shandong,China"; a leg's
 * "Qingdao") and writes times as the local wall clock without an offset ("2015-09-24 18:15"). The
 * caller resolves a place to its UN/LOCODE and time zone; an event at a place it cannot resolve is
 * left out with a warning rather than guessed.
 */

const text = z.string().nullish();

const copMoveSchema = z.object({
  containerNumber: z.string(),
  containerNumberStatus: text,
  location: text,
  timeOfIssue: text,
  transportation: text,
});

const copContainerSchema = z.object({
  containerNumber: z.string(),
  containerType: text,
  label: text,
  location: text,
  locationDateTime: text,
  transportation: text,
});

const copLegSchema = z.object({
  vesselName: text,
  voyageNo: text,
  vesselCde: text,
  service: text,
  portOfLoading: text,
  portOfDischarge: text,
  actualDepartureDate: text,
  expectedDateOfDeparture: text,
  actualArrivalDate: text,
  estimatedDateOfArrival: text,
  actualShippingDate: text,
  actualDischargeDate: text,
});

export const copTrackingAnswerSchema = z.object({
  code: z.union([z.number(), z.string()]),
  message: text,
  data: z
    .object({
      type: z.string(),
      numberType: text,
      content: z
        .object({
          actualShipment: z.array(copLegSchema).nullish(),
          containerStatus: z
            .array(z.object({ label: text, containers: z.array(copContainerSchema).nullish() }))
            .nullish(),
          containers: z
            .array(
              z.object({
                container: copContainerSchema.nullish(),
                containerCircleStatus: z.array(copMoveSchema).nullish(),
                containerHistorys: z.array(copMoveSchema).nullish(),
              }),
            )
            .nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
export type CopTrackingAnswer = z.infer<typeof copTrackingAnswerSchema>;

export interface CopPlace {
  unLocode: string;
  /** IANA zone, to give COP's wall-clock times their offset. */
  timeZone: string | null;
}

/** Resolves one COP place text (a facility line or a port name) to a port; undefined when unknown. */
export type CopPlaceResolver = (placeText: string) => CopPlace | undefined;

export interface CopMapContext {
  referenceType: ReferenceType;
  fetchedAt: Date;
  resolvePlace: CopPlaceResolver;
}

export type CopMapResult =
  | { kind: "found"; events: unknown[]; warnings: string[] }
  | { kind: "not-found" }
  | { kind: "malformed"; reason: string };

/** The COP code that means "no such number": `data.type` "none" with a null content (documented). */
const NOTHING = "none";

/**
 * COP's status words for a box's moves -> DCSA equipment codes. The labels are COSCO's public tracking
 * wording as the documentation shows it; a label not listed is skipped (with a warning), not guessed.
 */
const MOVE_RULES: readonly { pattern: RegExp; code: string; empty: "EMPTY" | "LADEN" }[] = [
  { pattern: /^empty equipment despatched/i, code: "GTOT", empty: "EMPTY" },
  { pattern: /^empty equipment returned/i, code: "GTIN", empty: "EMPTY" },
  { pattern: /^gate-?\s?in\b/i, code: "GTIN", empty: "LADEN" },
  { pattern: /^gate-?\s?out\b/i, code: "GTOT", empty: "LADEN" },
  { pattern: /^loaded\b/i, code: "LOAD", empty: "LADEN" },
  { pattern: /^discharged\b/i, code: "DISC", empty: "LADEN" },
];

export function copMoveCode(status: string): { code: string; empty: "EMPTY" | "LADEN" } | undefined {
  const rule = MOVE_RULES.find((r) => r.pattern.test(status.trim()));
  return rule ? { code: rule.code, empty: rule.empty } : undefined;
}

const MODES: Record<string, string> = { vessel: "VESSEL", truck: "TRUCK", rail: "RAIL", barge: "BARGE" };

/** `2015-09-24 18:15` (or with seconds) at a zone -> RFC 3339 with that zone's offset then. */
export function copLocalToRfc3339(value: string, timeZone: string | null): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return undefined;
  return withOffsetIn(`${m[1]}T${m[2]}:${m[3] ?? "00"}`, timeZone) ?? undefined;
}

interface Leg {
  vesselName: string | null;
  voyage: string | null;
  service: string | null;
  from: CopPlace | undefined;
  to: CopPlace | undefined;
}

export function mapCopTracking(raw: unknown, context: CopMapContext): CopMapResult {
  const parsed = copTrackingAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      kind: "malformed",
      reason: `not a COP cargo-tracking answer: ${parsed.error.issues[0]?.message}`,
    };
  }
  const answer = parsed.data;
  if (String(answer.code) !== "0") {
    return { kind: "malformed", reason: `COP answered code ${answer.code}: ${answer.message ?? ""}`.trim() };
  }
  const data = answer.data;
  if (!data || data.type === NOTHING || !data.content) return { kind: "not-found" };

  const warnings: string[] = [];
  const events: unknown[] = [];
  const created = context.fetchedAt.toISOString();
  const place = (placeText: string | null | undefined): CopPlace | undefined => {
    if (!placeText?.trim()) return undefined;
    const found = context.resolvePlace(placeText);
    if (!found) warnings.push(`no UN/LOCODE for COP place "${placeText}"`);
    return found;
  };

  const legs: Leg[] = (data.content.actualShipment ?? []).map((leg) => ({
    vesselName: leg.vesselName ?? null,
    voyage: leg.voyageNo ?? null,
    service: leg.service ?? null,
    from: place(leg.portOfLoading),
    to: place(leg.portOfDischarge),
  }));
  const transportCall = (leg: Leg, at: CopPlace) => ({
    transportCallID: `${leg.vesselName ?? "vessel"}/${leg.voyage ?? "-"}/${at.unLocode}`,
    modeOfTransport: "VESSEL",
    carrierServiceCode: leg.service,
    carrierVoyageNumber: leg.voyage,
    UNLocationCode: at.unLocode,
    vessel: leg.vesselName ? { vesselName: leg.vesselName } : null,
  });
  const dated = (value: string | null | undefined, at: CopPlace) =>
    value ? copLocalToRfc3339(value, at.timeZone) : undefined;

  (data.content.actualShipment ?? []).forEach((raw, i) => {
    const leg = legs[i] as Leg;
    const pairs = [
      [leg.from, "DEPA", raw.actualDepartureDate, raw.expectedDateOfDeparture],
      [leg.to, "ARRI", raw.actualArrivalDate, raw.estimatedDateOfArrival],
    ] as const;
    for (const [at, code, actual, estimated] of pairs) {
      if (!at) continue;
      const when = dated(actual, at) ?? dated(estimated, at);
      if (!when) continue;
      events.push({
        eventType: "TRANSPORT",
        eventClassifierCode: actual && dated(actual, at) ? "ACT" : "EST",
        transportEventTypeCode: code,
        eventDateTime: when,
        eventCreatedDateTime: created,
        transportCall: transportCall(leg, at),
      });
    }
  });

  // The box's moves: its full history for a container query, its latest move for a document query.
  const moves: {
    number: string;
    isoType: string | null;
    status: string;
    location: string | null;
    time: string | null;
    transportation: string | null;
  }[] = [];
  for (const entry of data.content.containers ?? []) {
    const isoType = entry.container?.containerType ?? null;
    for (const move of [...(entry.containerHistorys ?? []), ...(entry.containerCircleStatus ?? [])]) {
      moves.push({
        number: move.containerNumber,
        isoType,
        status: move.containerNumberStatus ?? "",
        location: move.location ?? null,
        time: move.timeOfIssue ?? null,
        transportation: move.transportation ?? null,
      });
    }
  }
  for (const group of data.content.containerStatus ?? []) {
    for (const box of group.containers ?? []) {
      moves.push({
        number: box.containerNumber,
        isoType: box.containerType ?? null,
        status: box.label ?? group.label ?? "",
        location: box.location ?? null,
        time: box.locationDateTime ?? null,
        transportation: box.transportation ?? null,
      });
    }
  }
  const seen = new Set<string>();
  for (const move of moves) {
    const key = `${move.number}|${move.status}|${move.location}|${move.time}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const rule = copMoveCode(move.status);
    if (!rule) {
      if (move.status) warnings.push(`COP status "${move.status}" has no DCSA code; left out`);
      continue;
    }
    const at = place(move.location);
    if (!at || !move.time) continue;
    const when = copLocalToRfc3339(move.time, at.timeZone);
    if (!when) {
      warnings.push(`COP time "${move.time}" is not a date-time; left out`);
      continue;
    }
    // A load or discharge belongs to the leg that starts or ends at that port.
    const leg =
      rule.code === "LOAD"
        ? legs.find((l) => l.from?.unLocode === at.unLocode)
        : rule.code === "DISC"
          ? legs.find((l) => l.to?.unLocode === at.unLocode)
          : undefined;
    const mode = MODES[(move.transportation ?? "").trim().toLowerCase()] ?? null;
    events.push({
      eventType: "EQUIPMENT",
      eventClassifierCode: "ACT",
      equipmentEventTypeCode: rule.code,
      eventDateTime: when,
      eventCreatedDateTime: created,
      equipmentReference: move.number,
      ISOEquipmentCode: move.isoType,
      emptyIndicatorCode: rule.empty,
      eventLocation: { UNLocationCode: at.unLocode },
      transportCall: leg
        ? transportCall(leg, at)
        : mode
          ? {
              transportCallID: `${move.number}/${at.unLocode}/${move.time}`,
              modeOfTransport: mode,
              UNLocationCode: at.unLocode,
            }
          : null,
    });
  }
  if (events.length === 0) {
    // COP knows the number but nothing in its answer could be read: say so rather than "not found".
    return warnings.length > 0
      ? { kind: "malformed", reason: `no readable COP event: ${warnings.slice(0, 3).join("; ")}` }
      : { kind: "not-found" };
  }
  return { kind: "found", events, warnings };
}
