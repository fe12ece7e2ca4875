import { daysBetween, type HolidayRegion, localDate } from "./calendar";
import { lastFreeDay, overrunDays, rateOfDay, slabCost } from "./free-time";
import type { ChargeType, Confidence, DayBasis, DndStatus, TermsSource, UnknownReason } from "./model";
import type { ResolvedTerms } from "./tariff-resolution";

/** Days before the last free day from which a running clock is `at_risk` (Terminal49's "imminent"). */
export const AT_RISK_DAYS = 3;
/**
 * Carrier facts older than this leave an open clock `unknown` (`stale_tracking_facts`): the refresh
 * gap is 12 hours, so three days without news means refreshes are failing or have stopped, and a
 * gate-out or empty return may have happened unseen.
 */
export const STALE_FACTS_MS = 72 * 3_600_000;
const DAY_MS = 86_400_000;

/** The port a clock runs at: its zone for day boundaries, its region for holidays, its dwell. */
export interface PortContext {
  locode: string | null;
  countryCode: string | null;
  timeZone: string | null;
  holidays: HolidayRegion;
  /** Median days from discharge to gate-out at the port, for projections. */
  dwellDays: number;
}

/** One charge's clock for one box, as every surface shows it. */
export interface DndClock {
  chargeType: ChargeType;
  status: DndStatus;
  /** Why the status is `unknown`; null otherwise. */
  unknownReason: UnknownReason | null;
  freeDays: number | null;
  freeDayBasis: DayBasis | null;
  chargeDayBasis: DayBasis | null;
  /** When the clock started (actual event); null while it has not. */
  clockStartedAt: string | null;
  /** When it stopped (actual event); null while running. */
  clockStoppedAt: string | null;
  /** Port-local `YYYY-MM-DD`; before discharge, counted from the expected discharge. */
  lastFreeDay: string | null;
  /**
   * Where the last free day comes from: `terminal` when the terminal record gives one for the box (the
   * line's, else the terminal's: what the box is actually charged from), else `tariff` (counted from
   * the resolved terms). One day per box on every surface (issue 43 item 4).
   */
  lastFreeDaySource: "terminal" | "tariff" | null;
  /** Calendar days from today (port-local) to the last free day: 0 on it, negative once past. */
  daysRemaining: number | null;
  /** Chargeable days so far after the last free day (to the stop day when stopped). */
  overrunDays: number | null;
  /** Cost of those days; null when the tariff's rates were not captured. */
  accruedCost: number | null;
  /** Rate of the next chargeable day; null when stopped or unknown. */
  nextDailyRate: number | null;
  currency: string | null;
  /** Demurrage only: the expected pickup (discharge plus the port's dwell, never before today). */
  projectedPickup: string | null;
  projectedOverrunDays: number | null;
  projectedCost: number | null;
  termsSource: TermsSource | null;
  confidence: Confidence | null;
  isEstimate: boolean | null;
  tariffId: string | null;
  sourceUrl: string | null;
  sourceNote: string | null;
}

export function unknownClock(
  chargeType: ChargeType,
  reason: UnknownReason,
  terms?: ResolvedTerms | null,
): DndClock {
  return {
    chargeType,
    status: "unknown",
    unknownReason: reason,
    freeDays: terms?.tariff.freeDays ?? null,
    freeDayBasis: terms?.tariff.freeDayBasis ?? null,
    chargeDayBasis: terms?.tariff.chargeDayBasis ?? null,
    clockStartedAt: null,
    clockStoppedAt: null,
    lastFreeDay: null,
    lastFreeDaySource: null,
    daysRemaining: null,
    overrunDays: null,
    accruedCost: null,
    nextDailyRate: null,
    currency: terms?.tariff.currency ?? null,
    projectedPickup: null,
    projectedOverrunDays: null,
    projectedCost: null,
    ...termsFields(terms ?? null),
  };
}

function termsFields(terms: ResolvedTerms | null) {
  return {
    termsSource: terms?.termsSource ?? null,
    confidence: terms?.confidence ?? null,
    isEstimate: terms?.tariff.isEstimate ?? null,
    tariffId: terms?.tariff.id ?? null,
    sourceUrl: terms?.tariff.sourceUrl ?? null,
    sourceNote: terms?.tariff.sourceNote ?? null,
  };
}

export interface ClockInput {
  chargeType: ChargeType;
  terms: ResolvedTerms;
  /** The actual start event's instant; null before it happened. */
  startedAt: string | null;
  /** The expected start when it has not happened (the expected discharge); ignored once started. */
  expectedStartAt: string | null;
  /** The actual end event's instant; null while running. */
  stoppedAt: string | null;
  /** Project a pickup from the port's dwell (the demurrage clock). */
  projectPickup: boolean;
  port: PortContext;
  now: Date;
  /** When the carrier facts behind the document were fetched. */
  factsFetchedAt: string;
  /** The box's last free day as its terminal record gives it (`YYYY-MM-DD` at the port). */
  givenLastFreeDay?: GivenLastFreeDay | null;
}

/**
 * A last free day a terminal record gives, and whose day it is: the line's (what the line told the
 * terminal, so what its invoice follows) or the terminal's own storage day.
 */
export interface GivenLastFreeDay {
  day: string;
  givenBy: "line" | "terminal";
}

/**
 * Which day a box is charged from (docs/decisions/demurrage.md, "One last free day"): the line's day
 * at the terminal wins over everything; the organisation's own contract with the line wins over the
 * terminal's storage day, which says nothing of the line's free time under that contract; the
 * terminal's storage day wins over a published tariff or benchmark, which is only a count.
 */
export function effectiveGivenDay(
  given: GivenLastFreeDay | null | undefined,
  terms: ResolvedTerms,
): string | null {
  if (!given) return null;
  if (given.givenBy === "line") return given.day;
  return terms.termsSource === "contract" ? null : given.day;
}

/**
 * One clock: the last free day counted in the port's days and holidays, the overrun and its cost so
 * far, a projection of the pickup, and the status. A stopped clock is `closed` with its final cost; a
 * running one is `overdue` past the last free day, `at_risk` within `AT_RISK_DAYS` of it or when the
 * projected pickup falls after it, otherwise `within_free_time`.
 */
export function runClock(input: ClockInput): DndClock {
  const { terms, port, now } = input;
  const t = terms.tariff;
  const startInstant = input.startedAt ?? input.expectedStartAt;
  if (startInstant === null) return unknownClock(input.chargeType, "no_expected_discharge", terms);
  const open = input.stoppedAt === null;
  if (open && now.getTime() - Date.parse(input.factsFetchedAt) > STALE_FACTS_MS) {
    return unknownClock(input.chargeType, "stale_tracking_facts", terms);
  }
  const zone = port.timeZone;
  const startDate = localDate(new Date(startInstant), zone);
  const given = effectiveGivenDay(input.givenLastFreeDay, terms);
  const lfd = given ?? lastFreeDay(startDate, t, port.holidays);
  const today = localDate(now, zone);
  const base = {
    chargeType: input.chargeType,
    unknownReason: null,
    freeDays: t.freeDays,
    freeDayBasis: t.freeDayBasis,
    chargeDayBasis: t.chargeDayBasis,
    clockStartedAt: input.startedAt,
    clockStoppedAt: input.stoppedAt,
    lastFreeDay: lfd,
    lastFreeDaySource: given ? ("terminal" as const) : ("tariff" as const),
    currency: t.currency,
    ...termsFields(terms),
  };
  if (!open) {
    const days = overrunDays(
      lfd,
      localDate(new Date(input.stoppedAt!), zone),
      t.chargeDayBasis,
      port.holidays,
    );
    return {
      ...base,
      status: "closed",
      daysRemaining: null,
      overrunDays: days,
      accruedCost: slabCost(t.slabs, days),
      nextDailyRate: null,
      projectedPickup: null,
      projectedOverrunDays: null,
      projectedCost: null,
    };
  }
  const started = input.startedAt !== null;
  const accrued = started && today > lfd ? overrunDays(lfd, today, t.chargeDayBasis, port.holidays) : 0;
  const daysRemaining = daysBetween(today, lfd);
  let projectedPickup: string | null = null;
  let projectedOverrunDays: number | null = null;
  let projectedCost: number | null = null;
  if (input.projectPickup) {
    const fromDwell = localDate(new Date(Date.parse(startInstant) + port.dwellDays * DAY_MS), zone);
    projectedPickup = fromDwell > today ? fromDwell : today;
    projectedOverrunDays = overrunDays(lfd, projectedPickup, t.chargeDayBasis, port.holidays);
    projectedCost = slabCost(t.slabs, projectedOverrunDays);
  }
  // Only a box actually discharged can be overdue: a past expected discharge is a late vessel.
  const status: DndStatus =
    started && daysRemaining < 0
      ? "overdue"
      : daysRemaining <= AT_RISK_DAYS || (projectedPickup !== null && projectedPickup > lfd)
        ? "at_risk"
        : "within_free_time";
  return {
    ...base,
    status,
    daysRemaining,
    overrunDays: accrued,
    accruedCost: slabCost(t.slabs, accrued),
    nextDailyRate: rateOfDay(t.slabs, accrued + 1),
    projectedPickup,
    projectedOverrunDays,
    projectedCost,
  };
}
