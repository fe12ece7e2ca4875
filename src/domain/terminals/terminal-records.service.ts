/**
 * Terminal records: which box is asked at which terminal, what the terminals and the carriers said,
 * and the record a shipment read shows (spec 2.3; docs/decisions/terminals.md).
 *
 * Rows of `terminal_records` are the work queue too: a box is registered when its shipment's terminal
 * record is read (or another rule registers it) or a carrier answer carries a hold for it, and background work asks the terminal when the row is due,
 * claimed with FOR UPDATE SKIP LOCKED and a lease like every other background work, so several
 * processes share it and a restart loses nothing.
 */

import type { Logger } from "pino";
import { claimDue } from "../../db/claim-due";
import type { PreparedSql, PreparedStatement } from "../../db/database";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { answersChanged } from "../../lib/answer-changes";
import { answerReads, answerValidUntil } from "../../lib/answer-scope";
import type { Clock } from "../../lib/clock";
import type { TrackingDocument } from "../tracking/model";
import { type BoxAtTerminal, boxTerminals } from "./box-terminals";
import {
  type CarrierSignals,
  type CarrierTerminalSignal,
  currentTerminalFacts,
  type TerminalAnswer,
  type TerminalEvent,
  type TerminalFacts,
  type TerminalRecordItem,
  type TerminalRef,
  terminalEvents,
  terminalFactsChangeAt,
} from "./terminal-facts";
import type { TerminalSource } from "./terminal-source";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A claimed check not finished by then is picked up again. */
const LEASE_MS = 5 * MINUTE;
/** While the box is at the terminal: well inside the 24 hours after which facts are dropped. */
const CHECK_AT_TERMINAL_MS = 3 * HOUR;
/** A terminal that does not know the box yet (not manifested) is asked again after this. */
const CHECK_NOT_KNOWN_MS = 6 * HOUR;
const CHECK_UNAVAILABLE_MS = 30 * MINUTE;
/** After gate-out the record is kept current this long (a late hold or a correction), then closed. */
const FOLLOW_AFTER_GATE_OUT_MS = 3 * DAY;
const CHECK_AFTER_GATE_OUT_MS = 12 * HOUR;

type TerminalRow = Prisma.TerminalRecordGetPayload<object>;
type FoundItem = Extract<TerminalRecordItem, { state: "found" }>;

/** A box's current terminal facts, for other rules (demurrage): see `currentFactsOf`. */
export interface BoxTerminalFacts {
  containerNumber: string;
  terminal: TerminalRef;
  facts: TerminalFacts;
}

export interface TerminalRecordsDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** Where terminals are asked; absent: nothing is asked and records stay `finding`. */
  source?: TerminalSource;
  /** The single read's statement (a box's records), prepared; Prisma without it. */
  sql?: PreparedSql;
}

/** The records of some boxes: what the single shipment read asks on every call. */
const RECORDS_OF_BOXES: PreparedStatement = {
  name: "terminal_records_of_boxes",
  text: `SELECT id, container_number, terminal_code, terminal_name, un_locode, carrier_scac,
       requested_at AT TIME ZONE 'UTC' AS requested_at, answer, answered_at AT TIME ZONE 'UTC' AS answered_at,
       carrier_signals, events, last_outcome, next_check_at AT TIME ZONE 'UTC' AS next_check_at
  FROM terminal_records WHERE container_number = ANY($1::text[])`,
};

interface RawTerminalRow {
  id: string;
  container_number: string;
  terminal_code: string;
  terminal_name: string;
  un_locode: string | null;
  carrier_scac: string | null;
  requested_at: Date;
  answer: TerminalRow["answer"];
  answered_at: Date | null;
  carrier_signals: TerminalRow["carrierSignals"];
  events: TerminalRow["events"];
  last_outcome: string | null;
  next_check_at: Date | null;
}

function terminalRowOf(r: RawTerminalRow): TerminalRow {
  return {
    id: r.id,
    containerNumber: r.container_number,
    terminalCode: r.terminal_code,
    terminalName: r.terminal_name,
    unLocode: r.un_locode,
    carrierScac: r.carrier_scac,
    requestedAt: r.requested_at,
    answer: r.answer,
    answeredAt: r.answered_at,
    carrierSignals: r.carrier_signals,
    events: r.events,
    lastOutcome: r.last_outcome,
    nextCheckAt: r.next_check_at,
  };
}

export class TerminalRecords {
  constructor(private readonly deps: TerminalRecordsDeps) {}

  /**
   * The terminal record of a shipment's document: one item per box and terminal (`found` or
   * `finding`); null when no box has a terminal to ask. Boxes are registered when the carrier's
   * answer is stored (`recordCarrierSignals`), so a read only reads; one the store has not seen yet
   * (a document stored before) is registered here, once.
   */
  async recordOf(doc: TrackingDocument): Promise<TerminalRecordItem[] | null> {
    const pairs = boxTerminals(doc);
    if (pairs.length === 0) return null;
    let rows = await this.rowsOf(pairs);
    const unknown = pairs.filter((pair) => !rows.has(key(pair.containerNumber, pair.terminal.code)));
    if (unknown.length > 0) {
      await this.register(unknown, doc.carrierScac);
      rows = await this.rowsOf(pairs);
    }
    const now = this.deps.clock.now();
    answerValidUntil(terminalFactsChangeAt(rows.values(), now));
    // Without a terminal source nothing is being checked: only the carriers' signals can be shown.
    const checking = this.deps.source !== undefined;
    const items = pairs.flatMap((pair): TerminalRecordItem[] => {
      const row = rows.get(key(pair.containerNumber, pair.terminal.code));
      const found = row ? foundOf(row, now) : null;
      if (found) return [found];
      // A box that left the terminal days ago is no longer followed: nothing current to show.
      if (!checking || (row && row.answer !== null && row.nextCheckAt === null)) return [];
      return [
        {
          state: "finding",
          containerNumber: pair.containerNumber,
          terminal: row ? terminalOf(row) : pair.terminal,
        },
      ];
    });
    return items.length > 0 ? items : null;
  }

  /**
   * A box's current terminal facts (the last 24 hours only): availability, active holds, the last
   * free day (the line's when known, else the terminal's), yard location, discharge and gate-out
   * times. With `terminalCode` the one terminal; without, the box's most recently checked terminal.
   * Null when nothing current is known.
   */
  async currentFactsOf(containerNumber: string, terminalCode?: string): Promise<BoxTerminalFacts | null> {
    const rows = (await this.rowsOfBoxes([containerNumber])).filter(
      (row) => !terminalCode || row.terminalCode === terminalCode,
    );
    const now = this.deps.clock.now();
    answerValidUntil(terminalFactsChangeAt(rows, now));
    return newestFacts(containerNumber, rows, now);
  }

  /**
   * The current facts of several boxes, and the first instant after now at which any of them changes
   * by age alone (an answer or carrier signal growing older than 24 hours; null when none will: a D&D
   * schedule kept on a shipment row holds no longer, kept-dnd.ts), from one statement. A shipment's
   * free time read its boxes three times each (their last free days, their holds, their age) before.
   */
  async currentFactsOfMany(
    containerNumbers: readonly string[],
  ): Promise<{ facts: Map<string, BoxTerminalFacts>; changeAt: Date | null }> {
    const facts = new Map<string, BoxTerminalFacts>();
    if (containerNumbers.length === 0) return { facts, changeAt: null };
    const boxes = [...new Set(containerNumbers)];
    const rows = await this.rowsOfBoxes(boxes);
    const now = this.deps.clock.now();
    const changeAt = terminalFactsChangeAt(rows, now);
    answerValidUntil(changeAt);
    const rowsByBox = new Map<string, TerminalRow[]>();
    for (const row of rows)
      rowsByBox.set(row.containerNumber, [...(rowsByBox.get(row.containerNumber) ?? []), row]);
    for (const [box, ofBox] of rowsByBox) {
      const best = newestFacts(box, ofBox, now);
      if (best) facts.set(box, best);
    }
    return { facts, changeAt };
  }

  /** Registers boxes to ask about (existing rows are left as they are). */
  async register(pairs: readonly BoxAtTerminal[], carrierScac: string | null): Promise<void> {
    if (pairs.length === 0) return;
    const now = this.deps.clock.now();
    const created = await this.deps.prisma.terminalRecord.createManyAndReturn({
      select: { containerNumber: true },
      data: pairs.map((pair) => ({
        containerNumber: pair.containerNumber,
        terminalCode: pair.terminal.code,
        terminalName: pair.terminal.name,
        unLocode: pair.terminal.unLocode,
        carrierScac,
        requestedAt: now,
        nextCheckAt: now,
      })),
      skipDuplicates: true,
    });
    // Only boxes registered now changed: every carrier answer registers all its boxes again, and
    // announcing those already kept recomputed the free time of every shipment holding them.
    if (created.length > 0) await answersChanged({ containers: created.map((r) => r.containerNumber) });
  }

  /**
   * What a carrier answer said about holds, releases and availability (DCSA events), per box of its
   * document: every box at a terminal is registered, and the signals of each box it spoke of are kept,
   * replacing the previous answer's (a carrier answer lists every event it still has).
   */
  async recordCarrierSignals(
    doc: TrackingDocument,
    signalsOf: (containerNumber: string) => CarrierTerminalSignal[],
  ): Promise<void> {
    // Every box at a terminal is registered with the answer (one statement; existing rows are left
    // alone), so that reading its record never writes; signals are kept for boxes the carrier spoke of.
    const pairs = boxTerminals(doc);
    if (pairs.length === 0) return;
    await this.register(pairs, doc.carrierScac);
    const said = pairs.flatMap((pair) => {
      const signals = signalsOf(pair.containerNumber);
      return signals.length > 0 ? [{ pair, signals }] : [];
    });
    for (const { pair, signals } of said) {
      const value: CarrierSignals = { observedAt: doc.fetchedAt, signals };
      await this.deps.prisma.terminalRecord.updateMany({
        where: { containerNumber: pair.containerNumber, terminalCode: pair.terminal.code },
        data: { carrierSignals: toJson(value) },
      });
    }
    if (said.length > 0) await answersChanged({ containers: said.map((s) => s.pair.containerNumber) });
  }

  /** Asks the terminals about up to `limit` due boxes; returns how many were checked. */
  async checkDue(limit = 25, signal?: AbortSignal): Promise<number> {
    const { prisma, clock, source } = this.deps;
    if (!source) return 0;
    const now = clock.now();
    const claimed = await claimDue(
      prisma,
      { table: "terminal_records", key: "id", due: "next_check_at" },
      now,
      new Date(now.getTime() + LEASE_MS),
      limit,
    );
    for (const id of claimed) {
      // Stopping: none starts after the signal (those left keep their lease and come back after it).
      if (signal?.aborted) break;
      const row = await prisma.terminalRecord.findUnique({ where: { id } });
      if (row) await this.check(row, source, signal);
    }
    return claimed.length;
  }

  private async check(row: TerminalRow, source: TerminalSource, signal?: AbortSignal): Promise<void> {
    const { prisma, clock, logger } = this.deps;
    const lookup = await source
      .lookup(
        {
          terminalCode: row.terminalCode,
          containerNumber: row.containerNumber,
          carrierScac: row.carrierScac,
        },
        signal,
      )
      .catch((error: unknown) => ({
        kind: "unavailable" as const,
        reason: error instanceof Error ? error.message : String(error),
      }));
    const now = clock.now().getTime();
    if (lookup.kind !== "found") {
      if (lookup.kind === "unavailable") {
        logger.warn({ terminal: row.terminalCode, reason: lookup.reason }, "Terminal could not be asked");
      }
      await prisma.terminalRecord.update({
        where: { id: row.id },
        data: {
          lastOutcome: lookup.kind,
          nextCheckAt: new Date(
            now + (lookup.kind === "not_known" ? CHECK_NOT_KNOWN_MS : CHECK_UNAVAILABLE_MS),
          ),
        },
      });
      await answersChanged({ containers: [row.containerNumber] });
      return;
    }
    const answer = lookup.answer;
    const events = mergeEvents(storedEvents(row.events), answer.events);
    const gateOut = answer.gateOutAt ? Date.parse(answer.gateOutAt) : null;
    const nextCheckAt =
      gateOut === null
        ? now + CHECK_AT_TERMINAL_MS
        : now > gateOut + FOLLOW_AFTER_GATE_OUT_MS
          ? null
          : now + CHECK_AFTER_GATE_OUT_MS;
    await prisma.terminalRecord.update({
      where: { id: row.id },
      data: {
        answer: toJson(answer),
        answeredAt: new Date(answer.observedAt),
        events: toJson(events),
        lastOutcome: "found",
        nextCheckAt: nextCheckAt === null ? null : new Date(nextCheckAt),
      },
    });
    await answersChanged({ containers: [row.containerNumber] });
  }

  private async rowsOf(pairs: readonly BoxAtTerminal[]): Promise<Map<string, TerminalRow>> {
    const rows = await this.rowsOfBoxes([...new Set(pairs.map((p) => p.containerNumber))]);
    return new Map(rows.map((row) => [key(row.containerNumber, row.terminalCode), row]));
  }

  /** Every terminal record of these boxes, in one statement. */
  private async rowsOfBoxes(boxes: readonly string[]): Promise<TerminalRow[]> {
    for (const box of boxes) answerReads("TerminalBox", box);
    return this.deps.sql
      ? (await this.deps.sql.query<RawTerminalRow>(RECORDS_OF_BOXES, [boxes])).map(terminalRowOf)
      : await this.deps.prisma.terminalRecord.findMany({ where: { containerNumber: { in: [...boxes] } } });
  }
}

const key = (containerNumber: string, terminalCode: string) => `${containerNumber}|${terminalCode}`;

function terminalOf(row: TerminalRow): TerminalRef {
  return { code: row.terminalCode, name: row.terminalName, unLocode: row.unLocode };
}

/** A box's current facts: those of its terminal record checked most recently. */
function newestFacts(
  containerNumber: string,
  rows: readonly TerminalRow[],
  now: Date,
): BoxTerminalFacts | null {
  let best: FoundItem | null = null;
  for (const row of rows) {
    const found = foundOf(row, now);
    if (found && (!best || Date.parse(found.facts.checkedAt) > Date.parse(best.facts.checkedAt)))
      best = found;
  }
  return best ? { containerNumber, terminal: best.terminal, facts: best.facts } : null;
}

function foundOf(row: TerminalRow, now: Date): FoundItem | null {
  const answer = (row.answer ?? null) as TerminalAnswer | null;
  const carrier = (row.carrierSignals ?? null) as CarrierSignals | null;
  const facts = currentTerminalFacts({ answer, carrier }, now);
  if (!facts) return null;
  return {
    state: "found",
    containerNumber: row.containerNumber,
    terminal: terminalOf(row),
    facts,
    events: terminalEvents(storedEvents(row.events), carrier),
  };
}

function storedEvents(value: unknown): TerminalEvent[] {
  return Array.isArray(value) ? (value as TerminalEvent[]) : [];
}

function mergeEvents(kept: readonly TerminalEvent[], fresh: readonly TerminalEvent[]): TerminalEvent[] {
  return terminalEvents([...kept, ...fresh], null);
}

function toJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
