/**
 * DCSA Track & Trace 3.0 (`GET /<SCAC>/v3/events`) over the same world as 2.2: each 2.2 event written
 * in the 3.0 shape (the inverse of the mapper's translation in src/upstream/carriers/dcsa-tnt.mapper),
 * wrapped as `{ events }`, paged by `Next-Page-Cursor`, and errors as `{ feedbackElements }`. The shape
 * follows the redesigned 3.0.0 of the DCSA conformance suite (TNT_v3.0.0.yaml), whose examples use
 * the same four-letter codes as 2.2.
 */
import type { DcsaDocumentReference, DcsaEvent, DcsaLocation, DcsaTransportCall } from "./dcsa-types";

export const TNT3_API_VERSION = "3.0.0";

type Json = Record<string, unknown>;

/** A 2.2 location in the 3.0 shape; the call's facility code and type move onto it (3.0 has them there). */
function location(place: DcsaLocation | undefined, call?: DcsaTransportCall): Json | undefined {
  const out: Json = {};
  if (place?.locationName) out.locationName = place.locationName;
  const facilityType = call?.facilityTypeCode;
  if (facilityType) out.facilityTypeCode = facilityType;
  const unLocationCode = place?.UNLocationCode ?? call?.UNLocationCode;
  if (unLocationCode) out.UNLocationCode = unLocationCode;
  const facilityCode = place?.facilityCode ?? call?.facilityCode;
  if (facilityCode) {
    const provider = place?.facilityCode ? place.facilityCodeListProvider : call?.facilityCodeListProvider;
    out.facility = { facilityCode, ...(provider ? { facilityCodeListProvider: provider } : {}) };
  }
  if (place?.latitude && place.longitude) {
    out.geoCoordinate = { latitude: place.latitude, longitude: place.longitude };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function transportCall(call: DcsaTransportCall): Json {
  const out: Json = {
    transportCallReference: call.transportCallID,
    modeOfTransport: call.modeOfTransport,
  };
  if (call.transportCallSequenceNumber !== undefined)
    out.transportCallSequenceNumber = call.transportCallSequenceNumber;
  if (call.carrierServiceCode) out.serviceCodeOrReference = { carrierServiceCode: call.carrierServiceCode };
  if (call.exportVoyageNumber)
    out.exportVoyageNumberOrReference = { carrierVoyageNumber: call.exportVoyageNumber };
  if (call.importVoyageNumber)
    out.importVoyageNumberOrReference = { carrierVoyageNumber: call.importVoyageNumber };
  if (call.vessel) {
    const vessel: Json = { vesselIMONumber: call.vessel.vesselIMONumber };
    if (call.vessel.vesselName) vessel.vesselName = call.vessel.vesselName;
    if (call.vessel.vesselFlag) vessel.vesselFlag = call.vessel.vesselFlag;
    out.vesselTransport = vessel;
  }
  return out;
}

/** A 2.2 event of the world in the 3.0 shape. */
export function toVersion3(event: DcsaEvent): Json {
  const out: Json = {
    eventID: event.eventID,
    eventDateTime: event.eventDateTime,
    eventUpdatedDateTime: event.eventCreatedDateTime,
  };
  const classification: Json = {
    eventTypeCode: event.eventType,
    eventClassifierCode: event.eventClassifierCode,
  };
  out.eventClassification = classification;
  switch (event.eventType) {
    case "SHIPMENT":
      classification.shipmentEventTypeCode = event.shipmentEventTypeCode;
      out.shipmentDetails = {
        documentReference: { typeCode: event.documentTypeCode, reference: event.documentID },
      };
      break;
    case "TRANSPORT": {
      classification.transportEventTypeCode = event.transportEventTypeCode;
      // 3.0 has no location inside the call: the call's place is the event's.
      const place = location(event.transportCall.location, event.transportCall);
      if (place) out.eventLocation = place;
      out.transportDetails = { transportCall: transportCall(event.transportCall) };
      documents(out, event.documentReferences);
      break;
    }
    case "EQUIPMENT": {
      classification.equipmentEventTypeCode = event.equipmentEventTypeCode;
      const place = location(event.eventLocation, event.transportCall);
      if (place) out.eventLocation = place;
      const equipment: Json = {
        equipmentReference: event.equipmentReference,
        ISOEquipmentCode: event.ISOEquipmentCode,
        emptyIndicatorCode: event.emptyIndicatorCode,
      };
      if (event.seals?.length) {
        equipment.seals = event.seals.map((seal) => ({
          number: seal.sealNumber,
          source: seal.sealSource,
          type: seal.sealType,
        }));
      }
      out.equipmentDetails = equipment;
      if (event.transportCall) out.transportDetails = { transportCall: transportCall(event.transportCall) };
      documents(out, event.documentReferences);
      break;
    }
  }
  return out;
}

function documents(out: Json, references: readonly DcsaDocumentReference[]): void {
  const [first, ...others] = references;
  if (!first) return;
  const shipment: Json = {
    documentReference: { typeCode: first.documentReferenceType, reference: first.documentReferenceValue },
  };
  if (others.length > 0) {
    shipment.additionalDocumentReferences = others.map((d) => ({
      typeCode: d.documentReferenceType,
      reference: d.documentReferenceValue,
    }));
  }
  out.shipmentDetails = shipment;
}

/** The 3.0 error body (`GetEventsError`). */
export function tnt3Error(message: string): Json {
  return { feedbackElements: [{ severity: "ERROR", message }] };
}
