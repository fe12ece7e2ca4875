/**
 * Real carriers' habits, switched on per carrier: the answer is right, its form is not the ideal DCSA
 * one. Each habit is a pure transformation of the events a carrier answers or of the HTTP answer, so
 * the service's tolerance of it is exercised against a live server (docs/decisions/carriers.md,
 * "Simulator habits"). Token and auth styles are the `auth` option's business, not a habit.
 */
import type { DcsaEvent } from "./dcsa-types";

export const HABIT_NAMES = [
  /** The events page is `{ "events": [...] }` instead of a bare array (Maersk, ZIM). */
  "wrapped-body",
  /** `PLAN` for the classifier `PLN` (Evergreen's examples). */
  "plan-codes",
  /** Code fields in lower case. */
  "lower-case-codes",
  /** `eventDateTime` as the place's wall clock without offset; `eventCreatedDateTime` as UTC without `Z`. */
  "no-offset",
  /** TRANSPORT events without `transportCall`, placed by `eventLocation` only (ZIM's v2 API). */
  "no-transport-call",
  /** Inland legs with a `modeOfTransport` outside the DCSA list (`RAIL_TRUCK`). */
  "unknown-mode",
  /** A UTF-8 byte-order mark before each events page. */
  "bom",
  /** `Next-Page` as a link relative to the host. */
  "relative-paging",
  /** No `Next-Page`: an RFC 8288 `Link: <...>; rel="next"` header. */
  "link-paging",
  /** The first request after the habit is switched on answers 429 with `Retry-After: 3600` (CMA CGM). */
  "long-retry-after",
] as const;

export type HabitName = (typeof HABIT_NAMES)[number];

export interface CarrierHabits {
  habits: HabitName[];
  /** Requests a clock minute the carrier answers; the rest get 429 with `Retry-After` (Hapag-Lloyd: 10). */
  perMinuteLimit?: number;
}

/** Retry-After of the `long-retry-after` habit, in seconds. */
export const LONG_RETRY_AFTER_SECONDS = 3600;

/**
 * What carrier-readiness.md reports of each real DCSA carrier (`--habits real`). Only the habits the
 * review found evidence of; Hapag-Lloyd's 10 a minute is its Default tier.
 */
export const REAL_CARRIER_HABITS: Readonly<Record<string, CarrierHabits>> = {
  MAEU: { habits: ["wrapped-body"] },
  EGLV: { habits: ["plan-codes"] },
  ZIMU: { habits: ["no-transport-call"] },
  HLCU: { habits: [], perMinuteLimit: 10 },
  CMDU: { habits: ["long-retry-after"] },
};

/**
 * Reads `wrapped-body,plan-codes,per-minute-limit=10` (one carrier's list); a string is the reason it
 * was refused.
 */
export function parseHabitList(text: string): CarrierHabits | string {
  const result: CarrierHabits = { habits: [] };
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    const limit = /^per-minute-limit[=:\s](\d+)$/.exec(item);
    if (limit) {
      const n = Number(limit[1]);
      if (n < 1 || n > 100_000) return "per-minute-limit must be from 1 to 100000";
      result.perMinuteLimit = n;
      continue;
    }
    if (!HABIT_NAMES.includes(item as HabitName)) {
      return `unknown habit ${item}; habits: ${HABIT_NAMES.join(", ")}, per-minute-limit=N`;
    }
    if (!result.habits.includes(item as HabitName)) result.habits.push(item as HabitName);
  }
  return result;
}

/** Reads an admin request body `{ habits: [...], perMinuteLimit? }`. */
export function parseHabitsBody(input: unknown): CarrierHabits | string {
  if (typeof input !== "object" || input === null) return "body must be a JSON object";
  const body = input as Record<string, unknown>;
  if (!Array.isArray(body.habits) || !body.habits.every((h) => typeof h === "string")) {
    return `habits must be an array of ${HABIT_NAMES.join(", ")}`;
  }
  const parsed = parseHabitList((body.habits as string[]).join(","));
  if (typeof parsed === "string") return parsed;
  if (body.perMinuteLimit !== undefined) {
    const n = body.perMinuteLimit;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 100_000) {
      return "perMinuteLimit must be an integer from 1 to 100000";
    }
    parsed.perMinuteLimit = n;
  }
  return parsed;
}

/**
 * Reads the `--habits` option: `real` (the profiles above), `SCAC=list`, several separated by `;` or
 * given as repeated options. Returns habits per SCAC as written.
 */
export function parseHabitsOption(values: readonly string[]): Record<string, CarrierHabits> | string {
  const out: Record<string, CarrierHabits> = {};
  for (const value of values) {
    for (const part of value.split(";")) {
      const entry = part.trim();
      if (!entry) continue;
      if (entry === "real") {
        for (const [scac, habits] of Object.entries(REAL_CARRIER_HABITS)) out[scac] = structuredClone(habits);
        continue;
      }
      const at = entry.indexOf("=");
      if (at <= 0) return `--habits takes SCAC=habit,habit or real, not ${entry}`;
      const parsed = parseHabitList(entry.slice(at + 1));
      if (typeof parsed === "string") return `--habits ${entry.slice(0, at)}: ${parsed}`;
      out[entry.slice(0, at).trim().toUpperCase()] = parsed;
    }
  }
  return out;
}

const CODE_FIELDS = [
  "eventType",
  "eventClassifierCode",
  "transportEventTypeCode",
  "equipmentEventTypeCode",
  "shipmentEventTypeCode",
  "emptyIndicatorCode",
  "documentTypeCode",
] as const;

/** The events of one page as a carrier with these habits writes them. Pure; the input is not changed. */
export function applyEventHabits(events: readonly DcsaEvent[], habits: readonly HabitName[]): unknown[] {
  return events.map((event) => {
    const out = structuredClone(event) as unknown as Record<string, unknown>;
    const call = out.transportCall as Record<string, unknown> | undefined;
    if (habits.includes("unknown-mode") && call && call.modeOfTransport !== "VESSEL") {
      call.modeOfTransport = "RAIL_TRUCK";
    }
    if (habits.includes("no-transport-call") && out.eventType === "TRANSPORT" && call) {
      out.eventLocation ??= {
        ...(call.UNLocationCode ? { UNLocationCode: call.UNLocationCode } : {}),
        ...(call.facilityCode ? { facilityCode: call.facilityCode } : {}),
        ...(call.facilityCodeListProvider ? { facilityCodeListProvider: call.facilityCodeListProvider } : {}),
      };
      delete out.transportCall;
    }
    if (habits.includes("no-offset")) {
      if (typeof out.eventDateTime === "string") out.eventDateTime = withoutOffset(out.eventDateTime);
      if (typeof out.eventCreatedDateTime === "string") {
        out.eventCreatedDateTime = new Date(out.eventCreatedDateTime).toISOString().replace(/\.\d+Z$|Z$/, "");
      }
    }
    if (habits.includes("plan-codes") && out.eventClassifierCode === "PLN") out.eventClassifierCode = "PLAN";
    if (habits.includes("lower-case-codes")) {
      for (const field of CODE_FIELDS) {
        if (typeof out[field] === "string") out[field] = (out[field] as string).toLowerCase();
      }
      const current = out.transportCall as Record<string, unknown> | undefined;
      if (current && typeof current.modeOfTransport === "string") {
        current.modeOfTransport = current.modeOfTransport.toLowerCase();
      }
    }
    return out;
  });
}

/** `2026-01-02T10:00:00+08:00` -> `2026-01-02T10:00:00`: the wall clock of the place, as written. */
function withoutOffset(dateTime: string): string {
  return dateTime.replace(/(Z|[+-]\d{2}:?\d{2})$/, "");
}

/** The body of an events page: a bare array, or wrapped in `{ events }`. */
export function eventsBody(events: unknown[], habits: readonly HabitName[]): unknown {
  return habits.includes("wrapped-body") ? { events } : events;
}

export interface HabitControl {
  set(scac: string, habits: CarrierHabits): void;
  clear(scac?: string): void;
  get(scac: string): CarrierHabits | undefined;
  list(): Record<string, CarrierHabits>;
  /**
   * Whether this request is refused by the carrier's habits: a `long-retry-after` not yet used, or the
   * clock minute's allowance spent. Counts the request otherwise.
   */
  refusal(scac: string, nowMs: number): { retryAfterSeconds: number } | undefined;
}

export function createHabitControl(
  normalize: (scac: string) => string,
  initial: Record<string, CarrierHabits> = {},
): HabitControl {
  const habits = new Map<string, CarrierHabits>();
  const longRetryUsed = new Set<string>();
  const minutes = new Map<string, { minute: number; count: number }>();
  const control: HabitControl = {
    set(scac, value) {
      const key = normalize(scac);
      habits.set(key, {
        habits: [...value.habits],
        ...(value.perMinuteLimit ? { perMinuteLimit: value.perMinuteLimit } : {}),
      });
      longRetryUsed.delete(key);
      minutes.delete(key);
    },
    clear(scac) {
      if (scac === undefined) {
        habits.clear();
        longRetryUsed.clear();
        minutes.clear();
        return;
      }
      const key = normalize(scac);
      habits.delete(key);
      longRetryUsed.delete(key);
      minutes.delete(key);
    },
    get(scac) {
      return habits.get(normalize(scac));
    },
    list() {
      return Object.fromEntries(habits);
    },
    refusal(scac, nowMs) {
      const key = normalize(scac);
      const current = habits.get(key);
      if (!current) return undefined;
      if (current.habits.includes("long-retry-after") && !longRetryUsed.has(key)) {
        longRetryUsed.add(key);
        return { retryAfterSeconds: LONG_RETRY_AFTER_SECONDS };
      }
      if (current.perMinuteLimit !== undefined) {
        const minute = Math.floor(nowMs / 60_000);
        const window = minutes.get(key);
        const count = window && window.minute === minute ? window.count : 0;
        if (count >= current.perMinuteLimit) {
          return { retryAfterSeconds: Math.max(1, Math.ceil(((minute + 1) * 60_000 - nowMs) / 1000)) };
        }
        minutes.set(key, { minute, count: count + 1 });
      }
      return undefined;
    },
  };
  for (const [scac, value] of Object.entries(initial)) control.set(scac, value);
  return control;
}
