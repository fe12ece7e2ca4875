/**
 * Issue 35, thirteenth pass: one report of the end of two events ("lockouts end at Vancouver and
 * Montreal") ends both and keeps them two; it merged them before. Items are written for these tests in
 * the corpus's style (invented publishers and places' wording).
 */
import { describe, expect, it } from "vitest";
import { DAY, eventOf, replayItems } from "./replay-items";

const START = Date.parse("2025-03-03T08:00:00Z");

const LOCKOUTS = [
  {
    day: 0,
    publisher: "Pacific Box Review",
    title: "Vancouver terminal employers lock out foremen, idling container berths",
    summary: "Container terminals at Vancouver and Prince Rupert stopped work after the employers' lockout.",
  },
  {
    day: 1,
    publisher: "Harbour Freight Wire",
    title: "Lockout at Vancouver strands boxes as ships wait at anchor",
    summary: "Terminals at Vancouver stay idle; vessels are diverting to Seattle.",
  },
  {
    day: 5,
    publisher: "Atlantic Cargo Daily",
    title: "Montreal port employers declare lockout at container terminals",
    summary: "Dockworkers at Montreal were locked out after rejecting the employers' offer.",
  },
];

const BOTH_END = {
  day: 7,
  publisher: "Harbour Freight Wire",
  title: "Canadian port lockouts end as Ottawa orders binding arbitration",
  summary: "The labour minister directed work to restart at Vancouver, Prince Rupert and Montreal.",
};

describe("a report of the end of two events", () => {
  it("ends both at its time and keeps them two, each with its own places", () => {
    const { state, outcomes } = replayItems([...LOCKOUTS, BOTH_END], START);
    const [vancouver, , montreal, report] = outcomes.map(eventOf);
    expect(vancouver).not.toBeNull();
    expect(montreal).not.toBeNull();
    expect(montreal).not.toBe(vancouver);
    expect([vancouver, montreal]).toContain(report);
    expect(state.events.map((e) => e.id).sort()).toEqual([vancouver, montreal].sort());
    const endedAt = new Date(START + BOTH_END.day * DAY);
    for (const event of state.events) {
      expect(event).toMatchObject({ status: "resolved", resolvedBy: "report", resolvedAt: endedAt });
    }
    const byId = new Map(state.events.map((e) => [e.id, e]));
    expect(byId.get(vancouver!)!.entities.ports).not.toContain("CAMTR");
    expect(byId.get(montreal!)!.entities.ports).toContain("CAMTR");
    expect(byId.get(montreal!)!.entities.ports).not.toContain("CAVAN");
  });

  it("still makes one event of a strike's reports from two ports of one coast", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Pacific Box Review",
          title: "Dockworkers strike at Los Angeles and Long Beach over automation",
          summary: "The union walked off the terminals at Los Angeles and Long Beach as talks broke down.",
        },
        {
          day: 2,
          publisher: "Harbour Freight Wire",
          title: "Strike spreads to Oakland as West Coast dockworkers walk out",
          summary: "Terminals at Oakland closed as the union's strike spread up the coast.",
        },
        {
          day: 6,
          publisher: "Pacific Box Review",
          title: "West Coast dockworkers end strike at Los Angeles, Long Beach and Oakland",
          summary: "The union and the employers reached a tentative deal; terminals reopen on Monday.",
        },
      ],
      START,
    );
    const events = outcomes.map(eventOf);
    expect(events[0]).not.toBeNull();
    expect(events).toEqual([events[0], events[0], events[0]]);
    expect(state.events.filter((e) => e.id === events[0])[0]).toMatchObject({ status: "resolved" });
  });
});
