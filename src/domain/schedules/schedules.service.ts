import type { Principal } from "../accounts/principal";
import type { AllowanceState, LookupAllowanceService } from "../lookups/lookup-allowance";
import type { LookupCache } from "../lookups/lookup-cache";
import type { ScheduleItem } from "./model";
import type { ScheduleSource } from "./schedule-source";

/** v1 section 8: sailing schedules are served again for 30 minutes. */
export const SCHEDULE_CACHE_MS = 30 * 60_000;
export const MAX_WEEK_RANGE = 6;
/** What a search that names no window asks for: departures, over one week. */
export const DEFAULT_WEEK_RANGE = 1;
export const DEFAULT_DATE_TYPE: ScheduleDateType = "departure";
export const MAX_SCHEDULE_ITEMS = 200;
const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

export interface ScheduleQuery {
  origin: string;
  destination: string;
  /** YYYY-MM-DD. */
  date: string;
  weekRange: number;
  dateType: ScheduleDateType;
}

export const SCHEDULE_DATE_TYPES = ["departure", "arrival"] as const;
export type ScheduleDateType = (typeof SCHEDULE_DATE_TYPES)[number];

export type ScheduleParam = "origin" | "destination" | "date" | "week_range" | "date_type";

export interface ScheduleAnswer {
  items: ScheduleItem[];
  /** Carriers whose schedule API failed; their sailings are missing from `items`. */
  carriersUnavailable: string[];
  /** The carriers asked. */
  carriersAsked: string[];
}

export type ScheduleOutcome =
  | {
      kind: "found";
      /** The query as answered: checked, codes in upper case. */
      query: ScheduleQuery;
      answer: ScheduleAnswer;
      cached: boolean;
      allowance: AllowanceState | null;
    }
  | { kind: "limit_exceeded"; allowance: AllowanceState }
  | { kind: "unavailable"; reason: string; allowance: AllowanceState }
  | { kind: "invalid"; param: ScheduleParam; message: string };

function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().startsWith(text);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Validates and normalises a query; answers the first bad parameter. */
export function checkScheduleQuery(
  input: ScheduleQuery,
): { ok: true; query: ScheduleQuery } | { ok: false; param: ScheduleParam; message: string } {
  const origin = input.origin.trim().toUpperCase();
  const destination = input.destination.trim().toUpperCase();
  if (!LOCODE.test(origin))
    return { ok: false, param: "origin", message: "origin must be a UN/LOCODE, e.g. CNSHA." };
  if (!LOCODE.test(destination)) {
    return { ok: false, param: "destination", message: "destination must be a UN/LOCODE, e.g. NLRTM." };
  }
  if (origin === destination) {
    return { ok: false, param: "destination", message: "destination must differ from origin." };
  }
  if (!isDate(input.date)) return { ok: false, param: "date", message: "date must be a day, YYYY-MM-DD." };
  if (!Number.isInteger(input.weekRange) || input.weekRange < 1 || input.weekRange > MAX_WEEK_RANGE) {
    return {
      ok: false,
      param: "week_range",
      message: `week_range must be a whole number from 1 to ${MAX_WEEK_RANGE}.`,
    };
  }
  if (input.dateType !== "departure" && input.dateType !== "arrival") {
    return { ok: false, param: "date_type", message: "date_type must be departure or arrival." };
  }
  return { ok: true, query: { ...input, origin, destination } };
}

/**
 * `/voyage/schedules` and MCP `get_vessel_schedules`: every configured carrier's DCSA Commercial
 * Schedules point-to-point routes for the lane, merged, earliest first. The window is `date` and the
 * following `week_range` weeks less a day, on departures from the origin (or arrivals at the
 * destination), in the ports' local dates. A repeat within 30 minutes is served from the cache and
 * costs nothing; otherwise one lookup of the key's daily vessel-and-schedule allowance is spent, and
 * refunded when every carrier failed. Answers with a failed carrier are served but not cached.
 */
export class SchedulesService {
  constructor(
    private readonly deps: {
      adapters: readonly ScheduleSource[];
      allowance: LookupAllowanceService;
      cache: LookupCache;
    },
  ) {}

  get carriers(): string[] {
    return this.deps.adapters.map((a) => a.scac);
  }

  async search(principal: Principal, input: ScheduleQuery): Promise<ScheduleOutcome> {
    const checked = checkScheduleQuery(input);
    if (!checked.ok) return { kind: "invalid", param: checked.param, message: checked.message };
    const query = checked.query;
    // Per organisation, like vessel positions: a shared entry would tell an organisation which lanes
    // another one searched in the last 30 minutes.
    const cacheKey = `schedules:${principal.organization.id}:${query.origin}:${query.destination}:${query.date}:${query.weekRange}:${query.dateType}`;
    const hit = await this.deps.cache.get<ScheduleAnswer>(cacheKey);
    if (hit) return { kind: "found", query, answer: hit, cached: true, allowance: null };

    const spend = await this.deps.allowance.spend(principal, "vessel_schedule");
    if (!spend.allowed) return { kind: "limit_exceeded", allowance: spend.state };

    const end = addDays(query.date, query.weekRange * 7 - 1);
    const window =
      query.dateType === "departure"
        ? { departureStartDate: query.date, departureEndDate: end }
        : { arrivalStartDate: query.date, arrivalEndDate: end };
    const outcomes = await Promise.all(
      this.deps.adapters.map(async (adapter) => ({
        adapter,
        outcome: await adapter.pointToPoint({
          placeOfReceipt: query.origin,
          placeOfDelivery: query.destination,
          ...window,
        }),
      })),
    );
    const items: ScheduleItem[] = [];
    const carriersUnavailable: string[] = [];
    for (const { adapter, outcome } of outcomes) {
      if (outcome.kind === "unavailable") {
        carriersUnavailable.push(adapter.scac);
        continue;
      }
      items.push(...outcome.items.filter((item) => inWindow(item, query, end)));
    }
    if (this.deps.adapters.length === 0 || carriersUnavailable.length === this.deps.adapters.length) {
      const allowance = await this.deps.allowance.refund(principal, "vessel_schedule");
      return {
        kind: "unavailable",
        reason:
          this.deps.adapters.length === 0
            ? "no carrier schedule source is configured"
            : `no carrier schedule API answered (${carriersUnavailable.join(", ")})`,
        allowance,
      };
    }
    items.sort(
      (a, b) =>
        (a.origin.instant ?? "").localeCompare(b.origin.instant ?? "") ||
        a.transitDays - b.transitDays ||
        a.scac.localeCompare(b.scac),
    );
    const answer: ScheduleAnswer = {
      items: items.slice(0, MAX_SCHEDULE_ITEMS),
      carriersUnavailable,
      carriersAsked: this.carriers,
    };
    if (carriersUnavailable.length === 0) await this.deps.cache.set(cacheKey, answer, SCHEDULE_CACHE_MS);
    return { kind: "found", query, answer, cached: false, allowance: spend.state };
  }
}

/** Carriers filter by the window themselves; a routing outside it (a loose filter) is dropped here. */
function inWindow(item: ScheduleItem, query: ScheduleQuery, end: string): boolean {
  const local = query.dateType === "departure" ? item.origin.localDateTime : item.destination.localDateTime;
  if (!local) return query.dateType === "arrival";
  const day = local.slice(0, 10);
  return day >= query.date && day <= end;
}
