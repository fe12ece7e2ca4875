import { z } from "zod";
import type {
  VesselIdentity,
  VesselPositionOutcome,
  VesselPositionProvider,
  VesselPositionReport,
  VesselQuery,
} from "../../domain/vessels/vessel-position-provider";
import { type Clock, systemClock } from "../../lib/clock";
import { createSemaphore } from "../http/concurrency";
import { type HttpDeps, realSleep, requestWithRetry } from "../http/request";
import { DEFAULT_RETRY_POLICY } from "../http/retry-policy";

/**
 * The carrier simulator's vessel positions (`GET {simulator}/vessels/position?imo=&mmsi=`, the MMSI
 * optional, or `?name=`), where the world's ships are on their loops at the simulator's clock. An HTTP
 * client like any provider's, so the embedded demo exercises the same path a commercial position API
 * would. A name several ships bear answers 300 with the ships listed: `ambiguous`.
 */
const portCallSchema = z.object({
  UNLocationCode: z.string(),
  locationName: z.string().optional(),
  departureDateTime: z.string().optional(),
  arrivalDateTime: z.string().optional(),
});

const answerSchema = z.object({
  vesselIMONumber: z.string(),
  MMSINumber: z.string().nullable().optional(),
  vesselName: z.string().optional(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  speedOverGround: z.number().nullable().optional(),
  courseOverGround: z.number().nullable().optional(),
  trueHeading: z.number().nullable().optional(),
  navigationalStatus: z.string().nullable().optional(),
  draught: z.number().nullable().optional(),
  positionDateTime: z.string(),
  lastPortCall: portCallSchema.optional(),
  nextPortCall: portCallSchema.optional(),
});

const choicesSchema = z.object({
  vessels: z.array(
    z.object({
      vesselIMONumber: z.string().nullable().optional(),
      MMSINumber: z.string().nullable().optional(),
      vesselName: z.string().nullable().optional(),
    }),
  ),
});

/** Pure: the ships a 300 answer lists, or why it cannot be read. */
export function mapSimulatorChoices(body: unknown): VesselIdentity[] | string {
  const parsed = choicesSchema.safeParse(body);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "malformed answer";
  return parsed.data.vessels.slice(0, 10).map((v) => ({
    imo: v.vesselIMONumber ?? null,
    mmsi: v.MMSINumber ?? null,
    name: v.vesselName ?? null,
  }));
}

const instant = (text: string | undefined) =>
  text && !Number.isNaN(Date.parse(text)) ? new Date(Date.parse(text)).toISOString() : null;

/** Pure: the simulator's answer as a position report, or why it cannot be read. */
export function mapSimulatorPosition(body: unknown): VesselPositionReport | string {
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "malformed answer";
  const a = parsed.data;
  return {
    imo: a.vesselIMONumber,
    mmsi: a.MMSINumber ?? null,
    name: a.vesselName ?? null,
    lat: a.latitude,
    lon: a.longitude,
    speed: a.speedOverGround ?? null,
    course: a.courseOverGround ?? null,
    heading: a.trueHeading ?? null,
    draught: a.draught ?? null,
    navigationStatus: a.navigationalStatus ?? null,
    positionAt: instant(a.positionDateTime) ?? new Date(0).toISOString(),
    origin: a.lastPortCall
      ? {
          locode: a.lastPortCall.UNLocationCode,
          name: a.lastPortCall.locationName ?? null,
          at: instant(a.lastPortCall.departureDateTime),
        }
      : null,
    destination: a.nextPortCall
      ? {
          locode: a.nextPortCall.UNLocationCode,
          name: a.nextPortCall.locationName ?? null,
          at: instant(a.nextPortCall.arrivalDateTime),
        }
      : null,
    source: "simulator",
  };
}

export class SimulatorPositionsAdapter implements VesselPositionProvider {
  readonly name = "simulator";
  private readonly http: HttpDeps;

  constructor(
    private readonly baseUrl: string,
    options: { clock?: Clock; timeoutMs?: number; attempts?: number; fetch?: typeof fetch } = {},
  ) {
    this.http = {
      fetch: options.fetch ?? globalThis.fetch,
      clock: options.clock ?? systemClock,
      sleep: realSleep,
      random: Math.random,
      semaphore: createSemaphore(8),
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: options.attempts ?? 2 },
      maxBodyBytes: 256 * 1024,
    };
  }

  async locate(query: VesselQuery, signal?: AbortSignal): Promise<VesselPositionOutcome> {
    const params = new URLSearchParams(
      "name" in query
        ? { name: query.name }
        : { imo: query.imo, ...(query.mmsi ? { mmsi: query.mmsi } : {}) },
    );
    const url = `${this.baseUrl.replace(/\/+$/, "")}/vessels/position?${params}`;
    const result = await requestWithRetry(
      this.http,
      { url, headers: { Accept: "application/json" } },
      signal,
    );
    if (result.kind !== "response") return { kind: "unavailable", reason: result.reason };
    if (result.status === 404) return { kind: "not-found" };
    if (result.status !== 200 && result.status !== 300)
      return { kind: "unavailable", reason: `simulator answered HTTP ${result.status}` };
    let body: unknown;
    try {
      body = JSON.parse(result.body);
    } catch {
      return { kind: "unavailable", reason: "simulator answered a body that is not JSON" };
    }
    if (result.status === 300) {
      const candidates = mapSimulatorChoices(body);
      return typeof candidates === "string"
        ? { kind: "unavailable", reason: `simulator answer unreadable: ${candidates}` }
        : { kind: "ambiguous", candidates };
    }
    const position = mapSimulatorPosition(body);
    return typeof position === "string"
      ? { kind: "unavailable", reason: `simulator answer unreadable: ${position}` }
      : { kind: "found", position };
  }
}
