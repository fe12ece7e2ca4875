import { z } from "zod";
import { parseDcsaDateTime } from "./dcsa-datetime";

/**
 * The subset of the DCSA T&T 2.2.0 event (TNT_v2.2.0-resolved.yaml) the mapper reads. Enums and
 * required fields that change the meaning of an event are strict; descriptive fields are lenient
 * (missing or null accepted, no maxLength) because real carriers overrun them and an over-long vessel
 * name is no reason to lose a loading event.
 */

const dateTime = z.string().refine((v) => parseDcsaDateTime(v) !== null, {
  message: "not an RFC 3339 date-time with offset",
});

const text = z.string().nullish();
const coordinate = z.union([z.string(), z.number()]).nullish();

export const dcsaLocationSchema = z.object({
  locationName: text,
  latitude: coordinate,
  longitude: coordinate,
  UNLocationCode: text,
  facilityCode: text,
  facilityCodeListProvider: text,
  address: z
    .object({
      city: text,
      stateRegion: text,
      country: text,
    })
    .nullish(),
});

export const dcsaVesselSchema = z.object({
  vesselIMONumber: z.union([z.string(), z.number()]).nullish(),
  vesselName: text,
});

export const MODES_OF_TRANSPORT = ["VESSEL", "RAIL", "TRUCK", "BARGE"] as const;

export const dcsaTransportCallSchema = z.object({
  transportCallID: z.string().min(1),
  // Null: a mode outside the four of 2.2 (the mapper's normalisation reads unknown modes so).
  modeOfTransport: z.enum(MODES_OF_TRANSPORT).nullish(),
  carrierServiceCode: text,
  carrierVoyageNumber: text,
  exportVoyageNumber: text,
  importVoyageNumber: text,
  transportCallSequenceNumber: z.number().int().nullish(),
  UNLocationCode: text,
  facilityCode: text,
  facilityCodeListProvider: text,
  facilityTypeCode: text,
  otherFacility: text,
  location: dcsaLocationSchema.nullish(),
  vessel: dcsaVesselSchema.nullish(),
});

const references = z
  .array(
    z.object({
      referenceType: text,
      referenceValue: text,
    }),
  )
  .nullish();

const baseEvent = {
  // Metadata only; checked by the mapper so a bad id costs the id, not the event.
  eventID: z.unknown().optional(),
  eventCreatedDateTime: dateTime,
  eventClassifierCode: z.enum(["ACT", "EST", "PLN"]),
  // Required by the spec, but the compat surface has a state for "never dated": keep such events.
  eventDateTime: dateTime.nullish(),
  references,
};

export const TRANSPORT_EVENT_CODES = ["ARRI", "DEPA"] as const;
export const EQUIPMENT_EVENT_CODES = [
  "LOAD",
  "DISC",
  "GTIN",
  "GTOT",
  "STUF",
  "STRP",
  "PICK",
  "DROP",
  "INSP",
  "RSEA",
  "RMVD",
] as const;
// 2.2 values plus PENC and CANC from 2.3, which carriers on 2.2 endpoints already send.
export const SHIPMENT_EVENT_CODES = [
  "RECE",
  "DRFT",
  "PENA",
  "PENU",
  "REJE",
  "APPR",
  "ISSU",
  "SURR",
  "SUBM",
  "VOID",
  "CONF",
  "REQS",
  "CMPL",
  "HOLD",
  "RELS",
  "PENC",
  "CANC",
] as const;

export const dcsaTransportEventSchema = z
  .object({
    ...baseEvent,
    eventType: z.literal("TRANSPORT"),
    transportEventTypeCode: z.enum(TRANSPORT_EVENT_CODES).nullish(),
    // Deprecated in 2.2 but still sent by older producers.
    eventTypeCode: z.enum(TRANSPORT_EVENT_CODES).nullish(),
    transportCall: dcsaTransportCallSchema,
  })
  .refine((e) => (e.transportEventTypeCode ?? e.eventTypeCode) != null, {
    message: "transportEventTypeCode is required",
    path: ["transportEventTypeCode"],
  });

export const dcsaEquipmentEventSchema = z
  .object({
    ...baseEvent,
    eventType: z.literal("EQUIPMENT"),
    equipmentEventTypeCode: z.enum(EQUIPMENT_EVENT_CODES).nullish(),
    eventTypeCode: z.enum(EQUIPMENT_EVENT_CODES).nullish(),
    equipmentReference: text,
    ISOEquipmentCode: text,
    emptyIndicatorCode: z.enum(["EMPTY", "LADEN"]).nullish(),
    eventLocation: dcsaLocationSchema.nullish(),
    transportCall: dcsaTransportCallSchema.nullish(),
  })
  .refine((e) => (e.equipmentEventTypeCode ?? e.eventTypeCode) != null, {
    message: "equipmentEventTypeCode is required",
    path: ["equipmentEventTypeCode"],
  });

export const dcsaShipmentEventSchema = z.object({
  ...baseEvent,
  eventType: z.literal("SHIPMENT"),
  shipmentEventTypeCode: z.enum(SHIPMENT_EVENT_CODES),
  documentTypeCode: z.enum(["CBR", "BKG", "SHI", "SRM", "TRD", "ARN", "VGM", "CAS", "CUS", "DGD", "OOG"]),
  documentID: text,
});

export const dcsaEventSchema = z.discriminatedUnion("eventType", [
  dcsaTransportEventSchema,
  dcsaEquipmentEventSchema,
  dcsaShipmentEventSchema,
]);

export type DcsaLocation = z.infer<typeof dcsaLocationSchema>;
export type DcsaTransportCall = z.infer<typeof dcsaTransportCallSchema>;
export type DcsaTransportEvent = z.infer<typeof dcsaTransportEventSchema>;
export type DcsaEquipmentEvent = z.infer<typeof dcsaEquipmentEventSchema>;
export type DcsaShipmentEvent = z.infer<typeof dcsaShipmentEventSchema>;
export type DcsaEvent = z.infer<typeof dcsaEventSchema>;
