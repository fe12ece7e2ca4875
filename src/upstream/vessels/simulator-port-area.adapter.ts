import { z } from "zod";
import type { AreaVessel, PortAreaOutcome, PortAreaSource } from "../../domain/congestion/port-area-source";
import { type Clock, systemClock } from "../../lib/clock";
import { createSemaphore } from "../http/concurrency";
import { type HttpDeps, realSleep, requestWithRetry } from "../http/request";
import { DEFAULT_RETRY_POLICY } from "../http/retry-policy";

/**
 * The carrier simulator's port area (`GET {simulator}/vessels/area?port=`): every ship at anchor off
 * a port or alongside it at the simulator's clock, as an AIS receiver covering the port reports them.
 * The embedded demo's source of anchorage waits, over HTTP like any provider.
 */
const answerSchema = z.object({
  positionDateTime: z.string(),
  vessels: z.array(
    z.object({
      MMSINumber: z.string().nullable().optional(),
      vesselIMONumber: z.string().nullable().optional(),
      vesselName: z.string().nullable().optional(),
      navigationalStatus: z.string().nullable().optional(),
    }),
  ),
});

/** Pure: the simulator's answer as sightings, or why it cannot be read. */
export function mapSimulatorArea(body: unknown): { vessels: AreaVessel[]; at: Date } | string {
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "malformed answer";
  const at = Date.parse(parsed.data.positionDateTime);
  if (Number.isNaN(at)) return "positionDateTime is not a date";
  const vessels = parsed.data.vessels.flatMap((v): AreaVessel[] => {
    const key = v.MMSINumber ?? v.vesselIMONumber;
    const status =
      v.navigationalStatus === "At anchor"
        ? "at-anchor"
        : v.navigationalStatus === "Moored"
          ? "moored"
          : null;
    return key && status ? [{ key, name: v.vesselName ?? null, status }] : [];
  });
  return { vessels, at: new Date(at) };
}

export class SimulatorPortAreaAdapter implements PortAreaSource {
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
      semaphore: createSemaphore(4),
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: options.attempts ?? 2 },
      maxBodyBytes: 1024 * 1024,
    };
  }

  async vesselsAt(locode: string, signal?: AbortSignal): Promise<PortAreaOutcome> {
    const url = `${this.baseUrl.replace(/\/+$/, "")}/vessels/area?${new URLSearchParams({ port: locode })}`;
    const result = await requestWithRetry(
      this.http,
      { url, headers: { Accept: "application/json" } },
      signal,
    );
    if (result.kind !== "response") return { kind: "unavailable", reason: result.reason };
    if (result.status === 404) return { kind: "unknown-port" };
    if (result.status !== 200)
      return { kind: "unavailable", reason: `simulator answered HTTP ${result.status}` };
    let body: unknown;
    try {
      body = JSON.parse(result.body);
    } catch {
      return { kind: "unavailable", reason: "simulator answered a body that is not JSON" };
    }
    const mapped = mapSimulatorArea(body);
    return typeof mapped === "string"
      ? { kind: "unavailable", reason: `simulator answer unreadable: ${mapped}` }
      : { kind: "seen", ...mapped };
  }
}
