import type {
  PointToPointRequest,
  PortScheduleRequest,
  ScheduleSource,
} from "../../domain/schedules/schedule-source";
import { type Clock, systemClock } from "../../lib/clock";
import { type AuthSession, type CarrierAuth, createAuthSession } from "../carriers/auth";
import { createSemaphore } from "../http/concurrency";
import { type HttpDeps, realSleep, requestWithRetry, type Sleep } from "../http/request";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../http/retry-policy";
import { mapPointToPoint } from "./dcsa-cs.mapper";
import { mapPortSchedules } from "./dcsa-cs-port-schedule.mapper";

/**
 * The schedule search's port over DCSA Commercial Schedules 1.0: `GET {baseUrl}/v1/point-to-point-routes`
 * with the routing's filters, following `Next-Page-Cursor` up to a page cap, then the mapper turns the
 * routings into schedule items (port names from `portName`); and `GET {baseUrl}/v1/port-schedules` (one
 * port, one local date) read into the proforma calls the congestion score compares arrivals with.
 */

export const DCSA_CS_DEFAULTS = {
  path: "/v1/point-to-point-routes",
  portSchedulesPath: "/v1/port-schedules",
  timeoutMs: 10_000,
  pageSize: 100,
  maxPages: 5,
  maxConcurrency: 4,
  maxBodyBytes: 10 * 1024 * 1024,
} as const;

export interface DcsaCsAdapterOptions {
  scac: string;
  baseUrl: string;
  path?: string;
  auth: CarrierAuth;
  clock?: Clock;
  fetch?: typeof fetch;
  sleep?: Sleep;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  maxPages?: number;
  /** A port's name by UN/LOCODE, for places the carrier names only by code. */
  portName?: (locode: string) => string | undefined;
}

export function createDcsaCsAdapter(options: DcsaCsAdapterOptions): ScheduleSource {
  const http: HttpDeps = {
    fetch: options.fetch ?? globalThis.fetch,
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? realSleep,
    random: Math.random,
    semaphore: createSemaphore(DCSA_CS_DEFAULTS.maxConcurrency),
    timeoutMs: options.timeoutMs ?? DCSA_CS_DEFAULTS.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    maxBodyBytes: DCSA_CS_DEFAULTS.maxBodyBytes,
  };
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const auth: AuthSession = createAuthSession(options.auth, baseUrl, options.scac, http);
  const maxPages = options.maxPages ?? DCSA_CS_DEFAULTS.maxPages;
  const sailings = (routes: unknown[]) => ({
    kind: "sailings" as const,
    items: mapPointToPoint(routes, { scac: options.scac, portName: options.portName }).items,
  });

  /** Every page of a CS list endpoint, or why not. A 404 is an empty list, as carriers answer it. */
  async function getAll(
    path: string,
    query: Record<string, string | undefined>,
    signal?: AbortSignal,
  ): Promise<{ kind: "items"; items: unknown[] } | { kind: "unavailable"; reason: string }> {
    const items: unknown[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= maxPages; page++) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
      params.set("limit", String(DCSA_CS_DEFAULTS.pageSize));
      if (cursor) params.set("cursor", cursor);
      const headers = await auth.headers();
      if (!headers.ok)
        return { kind: "unavailable", reason: `${options.scac}: ${describeFailure(headers.outcome)}` };
      const result = await requestWithRetry(
        http,
        {
          url: `${baseUrl}${path}?${params}`,
          headers: { Accept: "application/json", "API-Version": "1", ...headers.headers },
        },
        signal,
      );
      if (result.kind !== "response")
        return { kind: "unavailable", reason: `${options.scac}: ${result.reason}` };
      if (result.status === 401 || result.status === 403) auth.rejected();
      if (result.status === 404) return { kind: "items", items };
      if (result.status >= 400) {
        return { kind: "unavailable", reason: `${options.scac} answered HTTP ${result.status}` };
      }
      let body: unknown;
      try {
        body = JSON.parse(result.body);
      } catch {
        return { kind: "unavailable", reason: `${options.scac} answered a body that is not JSON` };
      }
      if (!Array.isArray(body)) return { kind: "unavailable", reason: `${options.scac} answered no array` };
      items.push(...body);
      cursor = result.headers.get("next-page-cursor");
      if (!cursor) return { kind: "items", items };
    }
    return { kind: "items", items };
  }

  return {
    scac: options.scac,
    async pointToPoint(request: PointToPointRequest, signal?: AbortSignal) {
      const answer = await getAll(options.path ?? DCSA_CS_DEFAULTS.path, { ...request }, signal);
      return answer.kind === "items" ? sailings(answer.items) : answer;
    },
    async portSchedule(request: PortScheduleRequest, signal?: AbortSignal) {
      const answer = await getAll(
        DCSA_CS_DEFAULTS.portSchedulesPath,
        { UNLocationCode: request.locode, date: request.date },
        signal,
      );
      if (answer.kind !== "items") return answer;
      return {
        kind: "calls" as const,
        calls: mapPortSchedules(answer.items, { scac: options.scac, locode: request.locode }),
      };
    },
  };
}

function describeFailure(outcome: { kind: string; reason?: string }): string {
  return outcome.reason ?? outcome.kind;
}
