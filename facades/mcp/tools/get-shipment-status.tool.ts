import { z } from "zod";
import {
  type EventFragment,
  McpShipmentStatusDocument,
  type McpShipmentStatusQuery,
  type RoutePointFragment,
  type TerminalRecordFieldsFragment,
} from "../../generated/operations";
import {
  instant,
  notTracked,
  referenceArgument,
  renderShipmentSummary,
  shipmentSummaryShape,
  wallClock,
} from "../render/shipment";
import { answer, defineTool, keptRendering, refusal, refusalOf } from "../tool";

const place = z
  .object({
    name: z.string(),
    unLocode: z.string().nullable().describe("UN/LOCODE, e.g. NLRTM"),
    countryCode: z.string().nullable(),
  })
  .nullable();

const portCall = z
  .object({
    place,
    at: instant,
    local: wallClock,
    utcOffset: z
      .string()
      .nullable()
      .describe("The clock `local` is on: its offset from UTC then, e.g. +01:00; null when `local` is null"),
    actual: z.boolean().nullable().describe("true confirmed, false estimated, null not known yet"),
  })
  .nullable();

const milestone = z
  .object({
    eventCode: z.string().describe("DCSA event code: PICK, GTIN, GTOT, LOAD, DEPA, ARRI, DISC"),
    description: z.string(),
    place,
    at: instant,
    local: wallClock,
    utcOffset: z
      .string()
      .nullable()
      .describe("The clock `local` is on: its offset from UTC then, e.g. +01:00; null when `local` is null"),
    actual: z.boolean(),
    vessel: z.string().nullable(),
    voyage: z.string().nullable(),
  })
  .nullable();

const output = shipmentSummaryShape.extend({
  carrierProvided: z.boolean().describe("Whether the carrier was named when tracking"),
  failureReason: z.string().nullable(),
  triedCarriers: z.array(z.string()).describe("Carriers asked while the reference was not found"),
  discoveryStatus: z
    .string()
    .nullable()
    .describe("Carrier discovery: queued, running, recovered or exhausted"),
  totalDays: z.number().int().nullable().describe("Days from departure to (estimated) arrival"),
  remainingDays: z.number().int().nullable().describe("Days until the estimated arrival; 0 once arrived"),
  deliveredAt: instant.describe("Verified delivery to the consignee"),
  portOfLoading: portCall,
  portOfDischarge: portCall,
  position: z.object({ lat: z.number(), lng: z.number() }).nullable().describe("Where the cargo is now"),
  containers: z.array(
    z.object({
      number: z.string(),
      status: z.string(),
      description: z.string().nullable().describe("Readable equipment, e.g. 40' High Cube Dry"),
      isoCode: z.string().nullable().describe("ISO 6346 size-type code, e.g. 45G1"),
    }),
  ),
  containerSummary: z.string().nullable().describe("Counts of boxes by type, e.g. 2 x 40' High Cube Dry"),
  portOfDischargeCongestion: z
    .object({
      locode: z.string(),
      score: z.number().int().describe("0 (fluid) to 100 (critical), against the port's own normal"),
      bucket: z.string().describe("fluid, normal, moderate, high or critical"),
      trend_7d: z.number().describe("Points since 7 days before; positive is worse"),
      vessels_waiting: z.number().int().describe("Vessels at anchor for more than 3 hours for the port now"),
      median_anchorage_wait_h: z
        .number()
        .nullable()
        .describe("Median anchorage wait, hours; null when nobody waited"),
      computed_at: z.string().describe("When the reading was computed"),
    })
    .nullable()
    .describe(
      "Congestion at the port of discharge (see get_port_conditions); null when the port is not scored or the plan does not include port congestion",
    ),
  terminal: z
    .array(
      z.object({
        containerNumber: z.string(),
        terminal: z.object({
          code: z.string().describe("SMDG terminal code"),
          name: z.string(),
          unLocode: z.string().nullable(),
        }),
        state: z
          .string()
          .describe("found (current facts below) or finding (still checking: every fact null)"),
        availableForPickup: z.boolean().nullable().describe("Whether the terminal lets the box be picked up"),
        readyForPickup: z.boolean().nullable().describe("Available and no hold of status hold"),
        holds: z
          .array(
            z.object({
              type: z.string().describe("customs, freight, terminal, usda or other"),
              status: z.string().describe("hold, or pending (being lifted)"),
              description: z.string().nullable(),
            }),
          )
          .nullable()
          .describe("Active holds only: a lifted hold is not listed"),
        lastFreeDay: z
          .string()
          .nullable()
          .describe("YYYY-MM-DD: the line's last free day, else the terminal's"),
        lastFreeDaySource: z.string().nullable().describe("line or terminal"),
        yardLocation: z.string().nullable(),
        dischargedAt: instant,
        gateOutAt: instant.describe("When the box left the terminal"),
        checkedAt: instant.describe("The newest observation behind the facts (within 24 hours)"),
      }),
    )
    .nullable()
    .describe(
      "Terminal record at the port of discharge, one item per box and terminal; null when no box has a terminal to ask",
    ),
  lastEvent: milestone.describe("The latest milestone that happened"),
  nextEvent: milestone.describe("The next milestone expected"),
  predictiveEta: z
    .object({
      p50: z.string().describe("Median predicted arrival at the final port of discharge (UTC)"),
      p80: z.string().describe("The vessel arrives before this with 80% probability (UTC)"),
      source: z
        .string()
        .describe("model (vessel progress), blend, or carrier (its ETA corrected by its measured bias)"),
      confidence: z.string().describe("high, medium or low"),
      computedAt: z.string().describe("When the prediction was computed"),
      fallbackReason: z
        .string()
        .nullable()
        .describe(
          "Why the vessel's position was not used (off_planned_leg, not_making_way, stale_position, no_route, position_unknown: source carrier, confidence low; not_sailing: nothing sailing yet); null when it was weighed",
        ),
    })
    .nullable()
    .describe(
      "Our predicted arrival window at the port of discharge; null once the vessel has arrived, with nothing to predict from, or when the plan does not include predictive ETA",
    ),
  finalDestinationEta: z
    .object({
      p50: z.string().describe("Median predicted arrival at the final destination beyond the port (UTC)"),
      p80: z.string().describe("The box arrives before this with 80% probability (UTC)"),
      source: z
        .string()
        .describe(
          "partner_position (a partner's newest position: the distance left times 1.3 at 55 km/h by truck, 40 by rail, 12 by barge), partner_estimate (the partner's own estimate), or inland_default (the port's arrival plus 72 hours at the port and the transit)",
        ),
      confidence: z.string().describe("high (a position at most 2 hours old), medium or low"),
      computedAt: z.string().describe("When the prediction was computed"),
      place: z.string().describe("The final destination (the place of delivery)"),
      remainingKm: z.number().nullable().describe("Straight-line km still to go; null without coordinates"),
      mode: z.string().describe("truck, rail or barge: the inland leg the speed is taken for"),
    })
    .nullable()
    .describe(
      "Our predicted arrival at the final destination beyond the port of discharge; null when the journey ends at the port, the box has arrived there, nothing dates it, or the plan does not include predictive ETA",
    ),
});

const portCallOf = (p: RoutePointFragment) =>
  p.location || p.instant
    ? { place: p.location, at: p.instant, local: p.localDateTime, utcOffset: p.utcOffset, actual: p.actual }
    : null;

const terminalItemOf = (item: TerminalRecordFieldsFragment) => {
  const f = item.state === "FOUND" ? item.facts : null;
  return {
    containerNumber: item.containerNumber,
    terminal: item.terminal,
    state: f ? "found" : "finding",
    availableForPickup: f?.availableForPickup ?? null,
    readyForPickup: f ? f.readyForPickup : null,
    holds: f
      ? f.holds.map((h) => ({
          type: h.type.toLowerCase(),
          status: h.status.toLowerCase(),
          description: h.description,
        }))
      : null,
    lastFreeDay: f?.lastFreeDay ?? null,
    lastFreeDaySource: f?.lastFreeDaySource ?? null,
    yardLocation: f?.yardLocation ?? null,
    dischargedAt: f?.dischargedAt ?? null,
    gateOutAt: f?.gateOutAt ?? null,
    checkedAt: f?.checkedAt ?? null,
  };
};

const milestoneOf = (e: EventFragment | null | undefined) =>
  e
    ? {
        eventCode: e.eventCode,
        description: e.description,
        place: e.location,
        at: e.instant,
        local: e.localDateTime,
        utcOffset: e.utcOffset,
        actual: e.actual,
        vessel: e.vessel?.name ?? null,
        voyage: e.voyage,
      }
    : null;

export const getShipmentStatus = defineTool({
  name: "get_shipment_status",
  title: "Shipment status",
  description:
    "The current status of one of your organisation's shipments: status, ETA and arrival, our predicted arrival window (p50/p80) at the port and at the final destination beyond it, ports of loading and discharge, delay, position, containers, the last milestone and the next one expected, and the terminal record (availability for pickup, holds, last free day). Stored data only: no carrier is called and no shipment slot is used.",
  input: z.object({ reference: referenceArgument }),
  output,
  async call({ reference }, context) {
    const result = await context.run(McpShipmentStatusDocument, { reference });
    if (!result.ok) return refusalOf(result);
    const s = result.data.shipment;
    if (!s) return refusal("not_found", notTracked(reference));
    return answer(statusOf(s));
  },
});

type StoredShipment = NonNullable<McpShipmentStatusQuery["shipment"]>;

/** The tool's answer from the operation's shipment: drawn once per kept answer (`keptRendering`). */
const statusOf = keptRendering((s: StoredShipment): z.input<typeof output> => {
  const doc = s.document;
  return {
    ...renderShipmentSummary(s),
    carrierProvided: s.carrierProvided,
    failureReason: s.failureReason,
    triedCarriers: s.triedCarriers,
    discoveryStatus: s.discoveryStatus,
    totalDays: doc?.totalDays ?? null,
    remainingDays: doc?.remainingDays ?? null,
    deliveredAt: doc?.deliveredAt ?? null,
    portOfLoading: doc ? portCallOf(doc.route.portOfLoading) : null,
    portOfDischarge: doc ? portCallOf(doc.route.portOfDischarge) : null,
    position: doc?.position ?? null,
    containers: (doc?.containers ?? []).map((c) => ({
      number: c.number,
      status: c.status,
      description: c.description,
      isoCode: c.isoCode,
    })),
    containerSummary: doc?.containerSummary || null,
    portOfDischargeCongestion: doc?.route.portOfDischargeCongestion
      ? {
          locode: doc.route.portOfDischargeCongestion.locode,
          score: doc.route.portOfDischargeCongestion.score,
          bucket: doc.route.portOfDischargeCongestion.bucket,
          trend_7d: doc.route.portOfDischargeCongestion.trend7d,
          vessels_waiting: doc.route.portOfDischargeCongestion.vesselsWaiting,
          median_anchorage_wait_h: doc.route.portOfDischargeCongestion.medianAnchorageWaitH,
          computed_at: doc.route.portOfDischargeCongestion.computedAt,
        }
      : null,
    terminal: s.terminal ? s.terminal.map(terminalItemOf) : null,
    lastEvent: milestoneOf(doc?.lastMilestone),
    nextEvent: milestoneOf(doc?.nextMilestone),
    predictiveEta: s.predictiveEta,
    finalDestinationEta: s.finalDestinationEta
      ? { ...s.finalDestinationEta, mode: s.finalDestinationEta.mode.toLowerCase() }
      : null,
  };
});
