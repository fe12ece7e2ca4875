import { z } from "zod";
import { McpShipmentTimelineDocument } from "../../generated/operations";
import { instant, notTracked, referenceArgument, wallClock } from "../render/shipment";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const event = z.object({
  eventCode: z.string().describe("DCSA event code: PICK, GTIN, GTOT, LOAD, DEPA, ARRI, DISC"),
  kind: z.string().describe("EQUIPMENT (the box) or TRANSPORT (the vessel or vehicle)"),
  statusCode: z.string().nullable().describe("Short status code, e.g. VDL (vessel departed from loading)"),
  description: z.string(),
  actual: z.boolean().describe("true: it happened; false: estimated or planned"),
  at: instant,
  local: wallClock,
  utcOffset: z.string().nullable().describe("The place's offset then, e.g. +08:00"),
  place: z
    .object({ name: z.string(), unLocode: z.string().nullable(), countryCode: z.string().nullable() })
    .nullable(),
  facility: z.object({ name: z.string(), smdgCode: z.string().nullable() }).nullable(),
  modeOfTransport: z.string().nullable().describe("VESSEL, TRUCK, RAIL or BARGE"),
  legType: z.string().describe("sea or land"),
  vessel: z.object({ name: z.string(), imo: z.number().int().nullable() }).nullable(),
  voyage: z.string().nullable(),
  emptyIndicator: z.string().nullable().describe("EMPTY or LADEN"),
  source: z
    .object({
      kind: z.enum(["carrier", "partner"]),
      name: z.string().describe("The partner source's name, or the carrier's SCAC"),
      partnerSourceId: z.string().nullable(),
      eventId: z.string().nullable().describe("The partner's own id of the event; null for the carrier's"),
    })
    .describe(
      "Who reported it: the carrier, or a partner of the organisation (drayage, rail, warehouse); a partner's event never overrides a carrier's actual one",
    ),
});

const output = z.object({
  shipmentId: z.string(),
  reference: z.string(),
  status: z.string(),
  failed: z.boolean(),
  containers: z.array(
    z.object({
      number: z.string(),
      status: z.string(),
      description: z.string().nullable(),
      eventsFromTransport: z
        .boolean()
        .describe("The carrier gave no events for the box: these are its transport's events"),
      events: z.array(event).describe("In the carrier's order, planned ones included"),
    }),
  ),
  etaHistory: z
    .array(
      z.object({
        eta: z.string().describe("ISO 8601 instant in UTC"),
        local: z.string().describe("Local time at the port of discharge"),
        utcOffset: z
          .string()
          .nullable()
          .describe(
            "The clock `local` is on: its offset from UTC then, e.g. +01:00; null when `local` is null",
          ),
        actual: z.boolean(),
        recordedAt: z.string().describe("When this ETA was first seen"),
      }),
    )
    .describe("Every ETA the carrier gave, oldest first"),
});

/** The tool has always said `sea` and `land`. */
const LEG_TYPE = { SEA: "sea", LAND: "land" } as const;

export const getShipmentTimeline = defineTool({
  name: "get_shipment_timeline",
  title: "Shipment timeline",
  description:
    "Every milestone of one of your organisation's shipments, per container (gate out, loading, departure, transshipment, arrival, discharge, delivery; actual and planned), with places, vessels and voyages, who reported each (the carrier or a named partner: drayage, rail, warehouse), and the history of its ETA. Stored data only: no carrier is called.",
  input: z.object({ reference: referenceArgument }),
  output,
  async call({ reference }, context) {
    const result = await context.run(McpShipmentTimelineDocument, { reference });
    if (!result.ok) return refusalOf(result);
    const s = result.data.shipment;
    if (!s) return refusal("not_found", notTracked(reference));
    return answer({
      shipmentId: s.name,
      reference: s.reference,
      status: s.status,
      failed: s.failed,
      containers: (s.document?.containers ?? []).map((c) => ({
        number: c.number,
        status: c.status,
        description: c.description,
        eventsFromTransport: c.eventsMirrored,
        events: c.events.map((e) => ({
          eventCode: e.eventCode,
          kind: e.kind,
          statusCode: e.statusCode,
          description: e.description,
          actual: e.actual,
          at: e.instant,
          local: e.localDateTime,
          utcOffset: e.utcOffset,
          place: e.location,
          facility: e.facility,
          modeOfTransport: e.modeOfTransport,
          legType: LEG_TYPE[e.legType],
          vessel: e.vessel,
          voyage: e.voyage,
          emptyIndicator: e.emptyIndicator,
          source: {
            kind: e.source.kind === "PARTNER" ? ("partner" as const) : ("carrier" as const),
            name: e.source.name,
            partnerSourceId: e.source.partnerSourceId,
            eventId: e.source.eventId,
          },
        })),
      })),
      etaHistory: (s.document?.etaHistory ?? []).map((r) => ({
        eta: r.eta,
        local: r.localDateTime,
        utcOffset: r.utcOffset,
        actual: r.actual,
        recordedAt: r.recordedAt,
      })),
    });
  },
});
