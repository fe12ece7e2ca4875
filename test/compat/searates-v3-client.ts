/**
 * A small SeaRates Container Tracking API v3 client, written only from SeaRates' public documentation
 * (docs.searates.com/reference/tracking: GET /tracking, /info/sealines, /route, /history), the way a
 * customer's integration would be. It knows nothing about Quayside: it takes a base URL and an API
 * key, sends the key as the documented `api_key` query parameter, and reads the documented response
 * shapes. The tests point it at Quayside's `/compat` unchanged.
 */

export type SeaRatesNumberType = "CT" | "BL" | "BK";
export type SeaRatesShipmentStatus = "PLANNED" | "IN_TRANSIT" | "DELIVERED" | "CANCELLED" | "UNKNOWN";

export interface SeaRatesEnvelope<T> {
  status: "success" | "error";
  message: string;
  data: T;
}

export interface SeaRatesMetadata {
  type: SeaRatesNumberType;
  number: string;
  sealine: string | null;
  sealine_name: string | null;
  status: SeaRatesShipmentStatus;
  is_status_from_sealine: boolean | null;
  from_cache: boolean;
  updated_at: string | null;
  cache_expires: string | null;
  api_calls: { total: number | null; used: number | null; remaining: number | null };
  unique_shipments: { total: number; used: number; remaining: number };
}

export interface SeaRatesLocation {
  id: number;
  name: string;
  state: string;
  country: string;
  country_code: string;
  locode: string | null;
  lat: number;
  lng: number;
  timezone: string;
}

export interface SeaRatesFacility {
  id: number;
  name: string;
  country_code: string;
  locode: string | null;
  bic_code: string | null;
  smdg_code: string | null;
  lat: number | null;
  lng: number | null;
}

export interface SeaRatesRoutePoint {
  location: number | null;
  date: string | null;
  actual: boolean | null;
}

export interface SeaRatesRoute {
  prepol: SeaRatesRoutePoint;
  pol: SeaRatesRoutePoint;
  pod: SeaRatesRoutePoint & { predictive_eta: string | null };
  postpod: SeaRatesRoutePoint;
}

export interface SeaRatesVessel {
  id: number;
  name: string;
  imo: number;
  call_sign: string | null;
  mmsi: number;
  flag: string | null;
}

export interface SeaRatesEvent {
  order_id: number;
  location: number;
  facility: number | null;
  description: string;
  event_type: string;
  event_code: string;
  status: string;
  date?: string;
  actual: boolean;
  is_additional_event: boolean;
  type: "land" | "sea";
  transport_type: string | null;
  vessel?: number | null;
  voyage: string | null;
}

export interface SeaRatesContainer {
  number: string;
  iso_code: string;
  size_type: string;
  status: SeaRatesShipmentStatus;
  events: SeaRatesEvent[];
}

export interface SeaRatesRouteData {
  route:
    | {
        path: [number, number][];
        type: "SEA" | "LAND";
        transport_type: string;
        from: Omit<SeaRatesLocation, "id">;
        to: Omit<SeaRatesLocation, "id">;
      }[]
    | null;
  pin: [number, number] | null;
}

export interface SeaRatesTrackingData {
  metadata: SeaRatesMetadata;
  locations: SeaRatesLocation[] | null;
  facilities: SeaRatesFacility[] | null;
  route: SeaRatesRoute;
  vessels: SeaRatesVessel[] | null;
  containers: SeaRatesContainer[];
  route_data?: SeaRatesRouteData;
}

export interface SeaRatesHistoryData {
  metadata: Pick<SeaRatesMetadata, "type" | "number" | "sealine" | "sealine_name" | "status" | "updated_at">;
  requests: { date: string; sealine: string; id: number }[] | null;
}

export interface SeaRatesSealine {
  name: string;
  scac_codes: string[];
}

export interface TrackingRequest {
  number: string;
  sealine?: string;
  type?: SeaRatesNumberType;
  force_update?: boolean;
  route?: boolean;
  ais?: boolean;
}

export class SeaRatesTrackingClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async get<T>(path: string, params: Record<string, string | number | boolean | undefined>) {
    const url = new URL(`${this.baseUrl.replace(/\/$/, "")}${path}`);
    url.searchParams.set("api_key", this.apiKey);
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const res = await fetch(url, { headers: { "Content-Type": "application/json" } });
    // The API answers HTTP 200 for everything; the outcome is in `message`.
    if (res.status !== 200) throw new Error(`SeaRates API answered HTTP ${res.status}`);
    return (await res.json()) as SeaRatesEnvelope<T>;
  }

  track(request: TrackingRequest) {
    return this.get<SeaRatesTrackingData>("/tracking", { ...request });
  }

  sealines() {
    return this.get<SeaRatesSealine[]>("/info/sealines", {});
  }

  route(request: { number: string; type: SeaRatesNumberType; sealine: string }) {
    return this.get<SeaRatesRouteData>("/route", request);
  }

  history(request: { number: string; type: SeaRatesNumberType; sealine?: string }) {
    return this.get<SeaRatesHistoryData>("/history", request);
  }

  historyById(request: { id: number; number: string; type: SeaRatesNumberType; sealine?: string }) {
    return this.get<Omit<SeaRatesTrackingData, "route_data">>("/history", request);
  }
}

// What an integration typically derives from an answer.

export function locationName(data: SeaRatesTrackingData, id: number | null): string | null {
  if (id === null) return null;
  return data.locations?.find((l) => l.id === id)?.name ?? null;
}

/** The arrival at the port of discharge: the carrier's date, else SeaRates' predictive ETA. */
export function arrivalEstimate(data: SeaRatesTrackingData): string | null {
  return data.route.pod.date ?? data.route.pod.predictive_eta;
}

/** The last event that happened, with its place and vessel names. */
export function lastActualEvent(data: SeaRatesTrackingData, containerNumber: string) {
  const container = data.containers.find((c) => c.number === containerNumber);
  const event = container?.events.filter((e) => e.actual && e.date !== undefined).at(-1);
  if (!event) return null;
  const vessel = event.vessel ? data.vessels?.find((v) => v.id === event.vessel) : undefined;
  return {
    status: event.status,
    description: event.description,
    date: event.date!,
    place: locationName(data, event.location),
    vessel: vessel?.name ?? null,
  };
}
