/**
 * Issue 35, seventh pass: the pairwise same-event decision (`same-event.ts`) for the reports the join
 * rules leave apart. Items written for these tests in the development corpus's style (invented
 * publishers; Durban's terminals are real, the fire is not).
 */
import { describe, expect, it } from "vitest";
import { bestEvent, resolveIfSilent } from "../../../src/domain/disruptions/events";
import {
  neverSameEvent,
  SAME_EVENT_JOIN,
  sameEventProbability,
  sameEventSignals,
} from "../../../src/domain/disruptions/same-event";
import { DAY, eventOf, type NewsRow, replayItems } from "./replay-items";

const START = Date.parse("2025-03-03T08:00:00Z");
const run = (rows: readonly NewsRow[]) => replayItems(rows, START);

const fire: NewsRow[] = [
  {
    day: 0,
    publisher: "Harbour Wire",
    title: "Fire at Durban's Pier 2 halts container handling",
    summary:
      "Transnet Port Terminals stopped all work at the Pier 2 terminal after a blaze in a reefer stack.",
  },
  {
    day: 1,
    publisher: "Quay Ledger",
    title: "Durban Pier 2 still closed as investigators inspect fire damage",
    summary: "Vessels wait at anchor off Durban while the terminal stays shut.",
  },
];
const unionAtPier: NewsRow = {
  day: 9,
  publisher: "Bosun's Brief",
  title: "Union bars members from Pier 2 until the reefer blaze cranes are certified",
  summary: "Dockworkers at Durban walk off over safety; shipping lines warn of delays.",
};
const wageStrike: NewsRow = {
  day: 9,
  publisher: "Bosun's Brief",
  title: "Durban dockworkers strike over wages",
  summary: "The union called out its members at the port after pay talks failed.",
};

/** The last row's facts against the disruptions open before it, as the pipeline sees them. */
function lastPair(rows: readonly NewsRow[]) {
  const before = run(rows.slice(0, -1)).state.events;
  const last = run(rows).outcomes.at(-1)!;
  if (!("facts" in last)) throw new Error("the last row was refused");
  const at = new Date(START + rows.at(-1)!.day * DAY);
  const open = before.map((e) => resolveIfSilent(e, at));
  return { open, facts: last.facts, event: open[0]! };
}

describe("the pairwise same-event decision", () => {
  it("a report at the burnt terminal nine days on, under labour and in other words, stays with the fire", () => {
    const rows = [...fire, unionAtPier];
    const { open, facts, event } = lastPair(rows);
    // The join rules alone leave it apart: past the 72-hour window, another category, words alike 0.26.
    expect(bestEvent(open, facts)).toBeNull();
    const signals = sameEventSignals(event, facts, open);
    expect(signals).toMatchObject({ place: 1, category: 0.5, happened: 0 });
    // "pier" is the rare word in common; "durban" is the anchor's, counted once, by `place`.
    expect(signals.rareWords).toBeCloseTo(1 / 3);
    expect(sameEventProbability(signals)).toBeGreaterThanOrEqual(SAME_EVENT_JOIN);
    expect(run(rows).outcomes.map(eventOf)).toEqual(["event-1", "event-1", "event-1"]);
  });

  it("a wage strike at the same port nine days on is another event: a place alone is not enough", () => {
    const rows = [...fire, wageStrike];
    const { open, facts, event } = lastPair(rows);
    const signals = sameEventSignals(event, facts, open);
    expect(signals.rareWords).toBe(0);
    expect(sameEventProbability(signals)).toBeLessThan(SAME_EVENT_JOIN);
    expect(run(rows).outcomes.map(eventOf)).toEqual(["event-1", "event-1", "event-2"]);
  });

  it("past the follow horizon the burnt terminal's next report starts a new event", () => {
    const rows = [...fire, { ...unionAtPier, day: 45 }];
    const { facts, event } = lastPair(rows);
    expect(neverSameEvent(event, facts)).toBe(true);
    expect(run(rows).outcomes.map(eventOf)).toEqual(["event-1", "event-1", "event-2"]);
  });

  it("a lockout at another port of the same week stays apart, however alike its words", () => {
    const rows: NewsRow[] = [
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Vancouver port employers lock out foremen, halting container terminals",
        summary: "Terminals at the Port of Vancouver are idle as the lockout begins.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "Vancouver lockout strands containers as ships wait at anchor",
        summary: "Shippers count the cost of the stoppage at Canada's largest port.",
      },
      {
        day: 5,
        publisher: "Bosun's Brief",
        title: "Montreal port employers declare lockout at container terminals",
        summary: "The lockout at the Port of Montreal halts the terminals on the St Lawrence.",
      },
    ];
    const { facts, event } = lastPair(rows);
    expect(neverSameEvent(event, facts)).toBe(true);
    expect(run(rows).outcomes.map(eventOf)).toEqual(["event-1", "event-1", "event-2"]);
  });

  it("weighs each signal the way the development corpus did: more in common, more likely", () => {
    const none = {
      place: 0,
      range: 0,
      name: 0,
      carrier: 0,
      category: 0,
      gap: 0,
      rareWords: 0,
      happened: 0,
      text: 0,
    };
    const anchored = { ...none, place: 1, category: 1 };
    expect(sameEventProbability(none)).toBeLessThan(0.1);
    expect(sameEventProbability({ ...anchored, happened: 1 })).toBeGreaterThan(
      sameEventProbability(anchored),
    );
    expect(sameEventProbability({ ...anchored, rareWords: 1 })).toBeGreaterThan(
      sameEventProbability(anchored),
    );
    expect(sameEventProbability({ ...anchored, gap: 1 })).toBeLessThan(sameEventProbability(anchored));
  });
});
