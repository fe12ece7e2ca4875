/**
 * The subset of DCSA Track & Trace 2.2.0 the simulator emits, as TypeScript types. Field names and
 * enumerations follow TNT_v2.2.0-resolved.yaml; optional fields the simulator never sets are left out.
 */

export type EventClassifierCode = "ACT" | "EST" | "PLN";
export type ModeOfTransport = "VESSEL" | "RAIL" | "TRUCK" | "BARGE";
export type FacilityTypeCode = "BOCR" | "CLOC" | "COFS" | "OFFD" | "DEPO" | "INTE" | "POTE" | "RAMP";
export type TransportEventTypeCode = "ARRI" | "DEPA";
export type EquipmentEventTypeCode = "LOAD" | "DISC" | "GTIN" | "GTOT" | "STUF" | "STRP" | "PICK" | "DROP";
export type ShipmentEventTypeCode = "CONF" | "ISSU" | "REJE";

export interface DcsaLocation {
  locationName?: string;
  latitude?: string;
  longitude?: string;
  UNLocationCode?: string;
  facilityCode?: string;
  facilityCodeListProvider?: "SMDG" | "BIC";
}

export interface DcsaVessel {
  vesselIMONumber: string;
  vesselName?: string;
  vesselFlag?: string;
  vesselCallSignNumber?: string;
  vesselOperatorCarrierCode?: string;
  vesselOperatorCarrierCodeListProvider?: "SMDG" | "NMFTA";
}

export interface DcsaTransportCall {
  transportCallID: string;
  carrierServiceCode?: string;
  exportVoyageNumber?: string;
  importVoyageNumber?: string;
  transportCallSequenceNumber?: number;
  UNLocationCode?: string;
  facilityCode?: string;
  facilityCodeListProvider?: "SMDG" | "BIC";
  facilityTypeCode?: FacilityTypeCode;
  modeOfTransport: ModeOfTransport;
  location?: DcsaLocation;
  vessel?: DcsaVessel;
}

export interface DcsaDocumentReference {
  documentReferenceType: "BKG" | "TRD";
  documentReferenceValue: string;
}

export interface DcsaSeal {
  sealNumber: string;
  sealSource?: "CAR" | "SHI" | "PHY" | "VET" | "CUS";
  sealType: "KLP" | "BLT" | "WIR";
}

interface DcsaBaseEvent {
  eventID: string;
  eventCreatedDateTime: string;
  eventClassifierCode: EventClassifierCode;
  eventDateTime: string;
}

export interface DcsaTransportEvent extends DcsaBaseEvent {
  eventType: "TRANSPORT";
  transportEventTypeCode: TransportEventTypeCode;
  delayReasonCode?: string;
  changeRemark?: string;
  transportCall: DcsaTransportCall;
  documentReferences: DcsaDocumentReference[];
}

export interface DcsaEquipmentEvent extends DcsaBaseEvent {
  eventType: "EQUIPMENT";
  equipmentEventTypeCode: EquipmentEventTypeCode;
  equipmentReference: string;
  ISOEquipmentCode: string;
  emptyIndicatorCode: "EMPTY" | "LADEN";
  eventLocation: DcsaLocation;
  transportCall?: DcsaTransportCall;
  documentReferences: DcsaDocumentReference[];
  seals?: DcsaSeal[];
}

export interface DcsaShipmentEvent extends DcsaBaseEvent {
  eventType: "SHIPMENT";
  shipmentEventTypeCode: ShipmentEventTypeCode;
  documentID: string;
  documentTypeCode: "BKG" | "TRD";
  reason?: string;
}

export type DcsaEvent = DcsaTransportEvent | DcsaEquipmentEvent | DcsaShipmentEvent;

/** The 2.2 error body (`components.schemas.error`). */
export interface DcsaError {
  httpMethod: string;
  requestUri: string;
  statusCode: number;
  statusCodeText: string;
  errorDateTime: string;
  errors: { reason: string; message: string }[];
}
