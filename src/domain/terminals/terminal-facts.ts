/**
 * Terminal records (spec v1 section 2.3): what the terminal holding a box says about it, per box and
 * terminal. The model follows Terminal49's container card: holds are a list in which a hold that is
 * lifted disappears (there is no "released" hold), the line's last free day wins over the terminal's,
 * and everything is JSON-safe (stored as JSONB).
 *
 * Two sources feed the same facts: the terminal's own answer (a `TerminalAnswer`, from a
 * `TerminalSource`) and the carrier's DCSA events that carry holds, releases or availability
 * (`CarrierTerminalSignal`s). Both are observations made at a moment; the current facts are built
 * from the ones younger than 24 hours only.
 */

export const HOLD_TYPES = ["customs", "freight", "terminal", "usda", "other"] as const;
export type HoldType = (typeof HOLD_TYPES)[number];

/** `pending`: the terminal expects the hold to be lifted (paid, inspected) but has not lifted it yet. */
export const HOLD_STATUSES = ["hold", "pending"] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export interface TerminalHold {
  type: HoldType;
  status: HoldStatus;
  /** The source's own words (raw terminal text or the DCSA code); never drives a rule. */
  description: string | null;
}

export interface TerminalRef {
  /** SMDG terminal code. */
  code: string;
  name: string;
  unLocode: string | null;
}

export const TERMINAL_EVENT_KINDS = [
  "discharged",
  "hold_placed",
  "hold_released",
  "available_for_pickup",
  "gated_out",
] as const;
export type TerminalEventKind = (typeof TERMINAL_EVENT_KINDS)[number];

export type TerminalEventSource = "terminal" | "carrier";

export interface TerminalEvent {
  kind: TerminalEventKind;
  /** The hold placed or released; null for the other kinds. */
  holdType: HoldType | null;
  /** ISO 8601 UTC instant. */
  at: string;
  source: TerminalEventSource;
}

/** One answer of a terminal about one box, as observed at `observedAt`. */
export interface TerminalAnswer {
  /** ISO instant the terminal answered. */
  observedAt: string;
  /** null: the terminal does not say. */
  availableForPickup: boolean | null;
  holds: TerminalHold[];
  /** `YYYY-MM-DD` in the port's time zone. */
  lastFreeDayLine: string | null;
  lastFreeDayTerminal: string | null;
  yardLocation: string | null;
  dischargedAt: string | null;
  gateOutAt: string | null;
  events: TerminalEvent[];
}

/** A hold, release or availability the carrier reported in DCSA Track & Trace. */
export interface CarrierTerminalSignal {
  kind: "hold" | "release" | "available";
  /** For holds and releases; null for availability. */
  holdType: HoldType | null;
  /** When the carrier says it happened (ISO instant). */
  at: string;
  /** The DCSA code it came from (HOLD/CUS, CUSTOMS_RELEASED ...). */
  code: string;
}

/** The carrier's signals for a box as of one carrier answer. */
export interface CarrierSignals {
  /** When the carrier answer carrying them was fetched. */
  observedAt: string;
  signals: CarrierTerminalSignal[];
}

/** A box's current terminal facts: only what was observed in the last 24 hours. */
export interface TerminalFacts {
  availableForPickup: boolean | null;
  /** Active holds only; a lifted or blank hold is absent. */
  holds: TerminalHold[];
  /** Available and no hold of status `hold`. */
  readyForPickup: boolean;
  /** The line's last free day when it gave one, else the terminal's (`YYYY-MM-DD`). */
  lastFreeDay: string | null;
  lastFreeDaySource: "line" | "terminal" | null;
  lastFreeDayLine: string | null;
  lastFreeDayTerminal: string | null;
  yardLocation: string | null;
  dischargedAt: string | null;
  gateOutAt: string | null;
  /** The newest observation these facts come from (ISO instant). */
  checkedAt: string;
}

/** Current facts older than this are dropped (spec 2.3). */
export const FACTS_MAX_AGE_MS = 24 * 3_600_000;

export function isHoldType(value: string): value is HoldType {
  return (HOLD_TYPES as readonly string[]).includes(value);
}

/**
 * A source's hold list as the model keeps it: entries without a status (Terminal49's DataSync blank
 * column, a terminal's empty cell) are absent, not released; one entry per type, `hold` before
 * `pending` when a source lists both.
 */
export function activeHolds(
  raw: readonly { type: string; status: string | null; description?: string | null }[],
): TerminalHold[] {
  const byType = new Map<HoldType, TerminalHold>();
  for (const entry of raw) {
    const type = entry.type.trim().toLowerCase();
    const status = entry.status?.trim().toLowerCase() ?? "";
    if (!isHoldType(type) || (status !== "hold" && status !== "pending")) continue;
    const seen = byType.get(type);
    if (seen?.status === "hold") continue;
    byType.set(type, { type, status, description: entry.description?.trim() || null });
  }
  return HOLD_TYPES.flatMap((type) => {
    const hold = byType.get(type);
    return hold ? [hold] : [];
  });
}

const isFresh = (observedAt: string, now: Date) => now.getTime() - Date.parse(observedAt) <= FACTS_MAX_AGE_MS;

/**
 * When facts read at `now` from these rows next change without a write: the first fresh answer or
 * carrier signal to grow too old (null: none will). An answer cache keeps them until then.
 */
export function terminalFactsChangeAt(
  rows: Iterable<{ answer: unknown; carrierSignals: unknown }>,
  now: Date,
): Date | null {
  let first = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    for (const source of [row.answer, row.carrierSignals] as ({ observedAt?: string } | null)[]) {
      if (!source?.observedAt) continue;
      const stale = Date.parse(source.observedAt) + FACTS_MAX_AGE_MS + 1;
      if (stale > now.getTime() && stale < first) first = stale;
    }
  }
  return Number.isFinite(first) ? new Date(first) : null;
}

/**
 * The current facts of a box at a terminal from the latest terminal answer and the latest carrier
 * signals, each taken only when observed in the last 24 hours; null when neither is. A carrier
 * signal changes a fact only when it happened after the terminal's answer (the newer word wins);
 * for each hold type the latest signal decides.
 */
export function currentTerminalFacts(
  input: { answer: TerminalAnswer | null; carrier: CarrierSignals | null },
  now: Date,
): TerminalFacts | null {
  const answer = input.answer && isFresh(input.answer.observedAt, now) ? input.answer : null;
  const carrier = input.carrier && isFresh(input.carrier.observedAt, now) ? input.carrier : null;
  const carrierSays = carrier !== null && carrier.signals.length > 0;
  if (!answer && !carrierSays) return null;
  const answeredAt = answer ? Date.parse(answer.observedAt) : -Infinity;
  const holds = new Map<HoldType, TerminalHold>((answer?.holds ?? []).map((h) => [h.type, h]));
  let available = answer?.availableForPickup ?? null;
  const latestByType = new Map<HoldType, CarrierTerminalSignal>();
  let latestAvailable: CarrierTerminalSignal | undefined;
  for (const signal of carrier?.signals ?? []) {
    if (Date.parse(signal.at) <= answeredAt) continue;
    if (signal.kind === "available") {
      if (!latestAvailable || Date.parse(signal.at) > Date.parse(latestAvailable.at))
        latestAvailable = signal;
      continue;
    }
    if (!signal.holdType) continue;
    const seen = latestByType.get(signal.holdType);
    if (!seen || Date.parse(signal.at) >= Date.parse(seen.at)) latestByType.set(signal.holdType, signal);
  }
  for (const [type, signal] of latestByType) {
    if (signal.kind === "release") holds.delete(type);
    else holds.set(type, { type, status: "hold", description: signal.code });
  }
  if (latestAvailable) available = true;
  const orderedHolds = HOLD_TYPES.flatMap((type) => {
    const hold = holds.get(type);
    return hold ? [hold] : [];
  });
  const lfd = lastFreeDay(answer?.lastFreeDayLine ?? null, answer?.lastFreeDayTerminal ?? null);
  const checkedAt = new Date(
    Math.max(answeredAt, carrierSays && carrier ? Date.parse(carrier.observedAt) : -Infinity),
  ).toISOString();
  return {
    availableForPickup: available,
    holds: orderedHolds,
    readyForPickup: available === true && !orderedHolds.some((h) => h.status === "hold"),
    lastFreeDay: lfd.date,
    lastFreeDaySource: lfd.source,
    lastFreeDayLine: answer?.lastFreeDayLine ?? null,
    lastFreeDayTerminal: answer?.lastFreeDayTerminal ?? null,
    yardLocation: answer?.yardLocation ?? null,
    dischargedAt: answer?.dischargedAt ?? null,
    gateOutAt: answer?.gateOutAt ?? null,
    checkedAt,
  };
}

/**
 * Terminal last free days are wrong often enough that Terminal49 added a line-LFD event: the line's
 * date is the one the invoice follows, so it wins when both are known.
 */
export function lastFreeDay(
  line: string | null,
  terminal: string | null,
): { date: string | null; source: "line" | "terminal" | null } {
  if (line) return { date: line, source: "line" };
  if (terminal) return { date: terminal, source: "terminal" };
  return { date: null, source: null };
}

/** The events of a record: the terminal's and the carrier's together, oldest first, each once. */
export function terminalEvents(
  answerEvents: readonly TerminalEvent[],
  carrier: CarrierSignals | null,
): TerminalEvent[] {
  const fromCarrier: TerminalEvent[] = (carrier?.signals ?? []).map((s) => ({
    kind:
      s.kind === "available" ? "available_for_pickup" : s.kind === "hold" ? "hold_placed" : "hold_released",
    holdType: s.holdType,
    at: s.at,
    source: "carrier",
  }));
  const seen = new Set<string>();
  return [...answerEvents, ...fromCarrier]
    .filter((e) => {
      const key = `${e.source}|${e.kind}|${e.holdType ?? ""}|${e.at}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** One item of a shipment's terminal record: `found` with facts and events, or `finding` with none. */
export type TerminalRecordItem =
  | {
      state: "found";
      containerNumber: string;
      terminal: TerminalRef;
      facts: TerminalFacts;
      events: TerminalEvent[];
    }
  | { state: "finding"; containerNumber: string; terminal: TerminalRef };
