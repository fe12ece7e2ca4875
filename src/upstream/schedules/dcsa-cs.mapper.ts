/**
 * DCSA Commercial Schedules 1.0 `PointToPoint` objects to schedule items. Pure; tested on the official
 * conformance examples. Tolerant where carriers differ: a routing without any readable departure is
 * dropped with a warning, a leg date that is not a date-time (the conformance examples carry template
 * placeholders such as "DEPARTURE_DATE") falls back to the routing's place of receipt or delivery.
 *
 * - origin, departure: the first leg's departure, else the place of receipt;
 * - destination, arrival: the last leg's arrival, else the place of delivery;
 * - service, voyage and vessel: the first VESSEL leg, the service partner entry of the carrier asked if
 *   it lists one, else the first;
 * - transshipment: a change of vessel between two VESSEL legs (inland legs do not count, as CS 1.0
 *   defines `maxTranshipment`).
 */
import { z } from "zod";
import { wallClockOf } from "../../domain/lookups/local-time";
import type { ScheduleEndpoint, ScheduleItem } from "../../domain/schedules/model";

const locationSchema = z
  .object({
    locationName: z.string().optional(),
    facilityName: z.string().optional(),
    UNLocationCode: z.string().optional(),
    address: z.object({ city: z.string().optional(), countryCode: z.string().optional() }).loose().optional(),
    facility: z
      .object({ facilityCode: z.string().optional(), facilityCodeListProvider: z.string().optional() })
      .loose()
      .optional(),
  })
  .loose();

const placeSchema = z
  .object({
    facilityTypeCode: z.string().optional(),
    location: locationSchema.optional(),
    dateTime: z.string().optional(),
  })
  .loose();

const partnerSchema = z
  .object({
    carrierCode: z.string().optional(),
    carrierServiceName: z.string().optional(),
    carrierServiceCode: z.string().optional(),
    carrierExportVoyageNumber: z.string().optional(),
    carrierImportVoyageNumber: z.string().optional(),
  })
  .loose();

const legSchema = z
  .object({
    sequenceNumber: z.number().optional(),
    transport: z
      .object({
        modeOfTransport: z.string().optional(),
        servicePartners: z.array(partnerSchema).optional(),
        universalServiceReference: z.string().optional(),
        universalExportVoyageReference: z.string().optional(),
        vessel: z
          .object({ vesselIMONumber: z.string().optional(), name: z.string().optional() })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
    departure: placeSchema.optional(),
    arrival: placeSchema.optional(),
  })
  .loose();

const pointToPointSchema = z
  .object({
    placeOfReceipt: placeSchema.optional(),
    placeOfDelivery: placeSchema.optional(),
    transitTime: z.number().optional(),
    legs: z.array(legSchema).optional(),
  })
  .loose();

type Place = z.infer<typeof placeSchema>;
type Leg = z.infer<typeof legSchema>;

export interface CsMapContext {
  /** SCAC of the carrier whose API answered. */
  scac: string;
  /** Port names by UN/LOCODE (the port catalogue). */
  portName?: (locode: string) => string | undefined;
}

export interface CsMapResult {
  items: ScheduleItem[];
  warnings: string[];
}

const DAY_MS = 86_400_000;

function validDateTime(text: string | undefined): text is string {
  return text !== undefined && wallClockOf(text) !== null;
}

function endpoint(
  place: Place | undefined,
  dateTime: string | undefined,
  context: CsMapContext,
): ScheduleEndpoint {
  const location = place?.location;
  const locode = location?.UNLocationCode?.toUpperCase() ?? null;
  const facilityCode = location?.facility?.facilityCode ?? null;
  const named = locode ? context.portName?.(locode) : undefined;
  const terminal = location?.facilityName ?? (facilityCode ? (location?.locationName ?? null) : null);
  return {
    locode,
    name: named ?? location?.address?.city ?? (facilityCode ? null : location?.locationName) ?? locode,
    countryCode: location?.address?.countryCode ?? locode?.slice(0, 2) ?? null,
    terminal,
    terminalCode: facilityCode,
    localDateTime: dateTime ? wallClockOf(dateTime) : null,
    instant: dateTime ? new Date(Date.parse(dateTime)).toISOString() : null,
  };
}

function isVessel(leg: Leg): boolean {
  return leg.transport?.modeOfTransport === "VESSEL";
}

export function mapPointToPoint(body: unknown, context: CsMapContext): CsMapResult {
  const warnings: string[] = [];
  if (!Array.isArray(body)) return { items: [], warnings: ["the answer is not an array of routings"] };
  const items: ScheduleItem[] = [];
  body.forEach((raw, index) => {
    const parsed = pointToPointSchema.safeParse(raw);
    if (!parsed.success) {
      warnings.push(`routing ${index} dropped: ${parsed.error.issues[0]?.message ?? "malformed"}`);
      return;
    }
    const route = parsed.data;
    const legs = [...(route.legs ?? [])].sort((a, b) => (a.sequenceNumber ?? 0) - (b.sequenceNumber ?? 0));
    const firstLeg = legs[0];
    const lastLeg = legs.at(-1);
    const departure = [firstLeg?.departure?.dateTime, route.placeOfReceipt?.dateTime].find(validDateTime);
    const arrival = [lastLeg?.arrival?.dateTime, route.placeOfDelivery?.dateTime].find(validDateTime);
    if (!departure) {
      warnings.push(`routing ${index} dropped: no departure date-time`);
      return;
    }
    const originPlace = route.placeOfReceipt?.location ? route.placeOfReceipt : firstLeg?.departure;
    const destinationPlace = route.placeOfDelivery?.location ? route.placeOfDelivery : lastLeg?.arrival;
    const vesselLegs = legs.filter(isVessel);
    const main = vesselLegs[0];
    const partners = main?.transport?.servicePartners ?? [];
    const partner = partners.find((p) => p.carrierCode?.toUpperCase() === context.scac) ?? partners[0];
    const vessel = main?.transport?.vessel;
    const transitDays =
      route.transitTime ??
      (arrival ? Math.max(0, Math.round((Date.parse(arrival) - Date.parse(departure)) / DAY_MS)) : 0);
    const transshipmentPorts: string[] = [];
    for (let i = 1; i < vesselLegs.length; i++) {
      const at = vesselLegs[i]!.departure?.location?.UNLocationCode?.toUpperCase();
      if (at && !transshipmentPorts.includes(at)) transshipmentPorts.push(at);
    }
    items.push({
      scac: context.scac,
      serviceName:
        partner?.carrierServiceName ??
        partner?.carrierServiceCode ??
        main?.transport?.universalServiceReference ??
        null,
      serviceCode: partner?.carrierServiceCode ?? null,
      voyage:
        partner?.carrierExportVoyageNumber ??
        partner?.carrierImportVoyageNumber ??
        main?.transport?.universalExportVoyageReference ??
        null,
      vessel: vessel ? { name: vessel.name ?? null, imo: vessel.vesselIMONumber ?? null } : null,
      origin: endpoint(originPlace, departure, context),
      destination: endpoint(destinationPlace, arrival, context),
      transitDays,
      vesselLegs: vesselLegs.length,
      transshipmentPorts,
    });
  });
  return { items, warnings };
}
