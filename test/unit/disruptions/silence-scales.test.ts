/**
 * The silence rule and the follow horizon scale with an event's reported span (issue 35, fifth pass):
 * reporting thins out as an event ages, so a story reported for a month waits longer in silence before
 * it is taken as over, and a later report after a longer pause still follows it, while a story of two
 * days keeps its category's windows. Items written for these tests, in the development corpus's style.
 */
import { describe, expect, it } from "vitest";
import { silenceWindowMs } from "../../../src/domain/disruptions/events";
import { sweepSilentEvents } from "../../../src/domain/disruptions/pipeline";
import { DAY, eventOf, type NewsRow, replayItems } from "./replay-items";

const START = Date.parse("2025-05-05T08:00:00Z");
const run = (rows: readonly NewsRow[]) => replayItems(rows, START);
const at = (day: number) => new Date(START + day * DAY);

/** A port dispute reported on and off for 24 days. */
const dispute: NewsRow[] = [
  {
    day: 0,
    publisher: "Harbour Wire",
    title: "Dockworkers strike at the Port of Gdansk over pay",
    summary: "A walkout halted container handling at the Port of Gdansk; ships wait at anchor.",
  },
  {
    day: 3,
    publisher: "Quay Ledger",
    title: "Gdansk dockers extend strike as pay talks stall",
    summary: "Container handling at the Port of Gdansk remains halted.",
  },
  {
    day: 9,
    publisher: "Box Trade Daily",
    title: "Second week of strike at the Port of Gdansk strands export boxes",
    summary: "Exporters say containers are stuck at Gdansk as the dockworkers strike goes on.",
  },
  {
    day: 16,
    publisher: "Meridian Maritime",
    title: "Gdansk strike: carriers divert calls as dockworkers stay out",
    summary: "Lines are skipping the Port of Gdansk while the walkout continues.",
  },
  {
    day: 24,
    publisher: "Harbour Wire",
    title: "Port of Gdansk strike drags into a fourth week",
    summary: "Dockworkers and employers have not met since talks stalled; handling is still halted.",
  },
];

describe("silence that scales with the event's reported span", () => {
  it("a strike reported for 24 days waits half of that (12 days) in silence, not the category's 7", () => {
    const { state, outcomes } = run(dispute);
    expect(new Set(outcomes.map(eventOf))).toEqual(new Set(["event-1"]));
    expect(silenceWindowMs(state.events[0]!)).toBe(12 * DAY);
    // Nine days after the last report: still active (the category's 7 days would have closed it).
    expect(sweepSilentEvents(state.events, at(33))[0]!.status).toBe("active");
    const later = sweepSilentEvents(state.events, at(40))[0]!;
    expect(later.status).toBe("resolved");
    expect(later.resolvedBy).toBe("silence");
    expect(later.resolvedAt).toEqual(at(36));
  });

  it("a strike reported for two days keeps the category's seven days", () => {
    const { state } = run(dispute.slice(0, 2));
    expect(silenceWindowMs(state.events[0]!)).toBe(7 * DAY);
    expect(sweepSilentEvents(state.events, at(11))[0]!.resolvedAt).toEqual(at(10));
  });

  it("a report after a pause longer than the category's follow horizon, but shorter than the story's span, still follows it", () => {
    // A port closed for a long renovation of its approach: reported for 40 days, then news 35 days on.
    const closure: NewsRow[] = [
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Port of Gdansk container terminal closed after crane collapse",
        summary: "Operations were halted at the terminal; ships are diverted to Gdynia.",
      },
      {
        day: 12,
        publisher: "Quay Ledger",
        title: "Gdansk terminal stays closed as crane collapse inquiry continues",
        summary: "Container operations at the Port of Gdansk remain halted.",
      },
      {
        day: 25,
        publisher: "Box Trade Daily",
        title: "Gdansk terminal closure: carriers keep diverting calls",
        summary: "The Port of Gdansk terminal remains closed after the crane collapse.",
      },
      {
        day: 40,
        publisher: "Meridian Maritime",
        title: "Port of Gdansk terminal still closed six weeks after crane collapse",
        summary: "Operations remain halted while new cranes are ordered.",
      },
      {
        day: 75,
        publisher: "Harbour Wire",
        title: "Gdansk terminal closure after crane collapse to last into autumn",
        summary: "The Port of Gdansk terminal remains closed; calls stay diverted.",
      },
    ];
    const { state, outcomes } = run(closure);
    expect(outcomes.map(eventOf)).toEqual(["event-1", "event-1", "event-1", "event-1", "event-1"]);
    // The silence rule had closed it (20 days after day 40); the later report opened it again.
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.status).toBe("active");
  });
});
