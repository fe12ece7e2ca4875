import { z } from "zod";
import type { NotificationPreference } from "../../generated/prisma/client";
import { isTimeZone, minutesOf, type QuietHours } from "./local-time";

/** A user's choices as the service reads them: the stored row, or the defaults when there is none. */
export interface NotificationPrefs {
  emailEnabled: boolean;
  statusChanges: boolean;
  etaChanges: boolean;
  etaChangeMinHours: number;
  vesselArrival: boolean;
  /** Sailing from the port of loading, and transshipments. */
  vesselDeparture: boolean;
  /** Available for pickup, holds placed and released. */
  terminalUpdates: boolean;
  /** Tickets and quote requests: answers, status, quotes, declines, expiry. */
  workspaceUpdates: boolean;
  lastFreeDayReminders: boolean;
  disruptions: boolean;
  dailyDigest: boolean;
  timeZone: string;
  quietHours: QuietHours | null;
}

/** Everything on except the digest (a daily summary is asked for, not imposed), UTC, no quiet hours. */
export const DEFAULT_PREFS: NotificationPrefs = {
  emailEnabled: true,
  statusChanges: true,
  etaChanges: true,
  etaChangeMinHours: 6,
  vesselArrival: true,
  vesselDeparture: true,
  terminalUpdates: true,
  workspaceUpdates: true,
  lastFreeDayReminders: true,
  disruptions: true,
  dailyDigest: false,
  timeZone: "UTC",
  quietHours: null,
};

/** Reminders before the last free day, in hours (the tradlinx playbook's T-72 h and T-24 h). */
export const LFD_REMINDER_HOURS = [72, 24] as const;
/**
 * How long each reminder stays worth sending after its moment: the 72-hour one until 48 hours are
 * left, the 24-hour one until the deadline. Past that it is not sent at all (a "72 hours" reminder
 * 18 hours before the deadline was the reported bug), including when quiet hours held it back.
 */
export const LFD_REMINDER_WINDOW_HOURS: Record<(typeof LFD_REMINDER_HOURS)[number], number> = {
  72: 24,
  24: 24,
};
/** The daily digest goes out at this wall-clock hour in the user's zone, covering the 24 hours before. */
export const DIGEST_HOUR = 8;

export function prefsOf(row: NotificationPreference | null | undefined): NotificationPrefs {
  if (!row) return DEFAULT_PREFS;
  return {
    emailEnabled: row.emailEnabled,
    statusChanges: row.statusChanges,
    etaChanges: row.etaChanges,
    etaChangeMinHours: row.etaChangeMinHours,
    vesselArrival: row.vesselArrival,
    vesselDeparture: row.vesselDeparture,
    terminalUpdates: row.terminalUpdates,
    workspaceUpdates: row.workspaceUpdates,
    lastFreeDayReminders: row.lastFreeDayReminders,
    disruptions: row.disruptions,
    dailyDigest: row.dailyDigest,
    timeZone: row.timeZone,
    quietHours:
      row.quietHoursStart && row.quietHoursEnd
        ? { start: row.quietHoursStart, end: row.quietHoursEnd }
        : null,
  };
}

const wallTime = z.string().refine((v) => minutesOf(v) !== null, "a wall-clock time HH:MM, 00:00 to 23:59");

/** What a user may change; every field optional (absent: unchanged), checked before anything is written. */
export const preferencesUpdate = z
  .object({
    emailEnabled: z.boolean(),
    statusChanges: z.boolean(),
    etaChanges: z.boolean(),
    etaChangeMinHours: z.number().int().min(0).max(720),
    vesselArrival: z.boolean(),
    vesselDeparture: z.boolean(),
    terminalUpdates: z.boolean(),
    workspaceUpdates: z.boolean(),
    lastFreeDayReminders: z.boolean(),
    disruptions: z.boolean(),
    dailyDigest: z.boolean(),
    timeZone: z.string().refine(isTimeZone, "an IANA time zone such as Europe/Amsterdam or UTC"),
    quietHours: z
      .object({ start: wallTime, end: wallTime })
      .refine((q) => q.start !== q.end, "start and end must differ (null for no quiet hours)")
      .nullable(),
  })
  .partial()
  .strict();
export type PreferencesUpdate = z.infer<typeof preferencesUpdate>;

/**
 * An address as MCP shows it: the first character of the local part, the domain's first character
 * and its top-level domain (`j***@e***.com`), so a user recognises it and nobody can harvest it.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "***";
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${local[0]}***@${domain[0] ?? ""}***${tld}`;
}

/** A webhook URL reduced to its host (no scheme, path, query, port or credentials). */
export function hostOnly(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
