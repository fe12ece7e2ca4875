/**
 * Clustering that follows an event over its life, and traps refused (issue 35), on the pure pipeline
 * as ingestion runs it item by item. The items are written for these tests (not taken from either
 * corpus), one per situation the issue names.
 */
import { describe, expect, it } from "vitest";
import { sweepSilentEvents } from "../../../src/domain/disruptions/pipeline";
import { DAY, eventOf, type NewsRow, replayItems } from "./replay-items";

type Row = NewsRow;
const run = (rows: readonly Row[], start = Date.parse("2025-03-03T08:00:00Z")) => replayItems(rows, start);

describe("an event followed over weeks", () => {
  // A port closed by an outbreak, reported for four weeks with a ten-day pause between day 8 and 18.
  const lockdown: Row[] = [
    {
      day: 0,
      publisher: "Harbour Wire",
      title: "Port of Qingdao suspends container operations after Covid outbreak",
      summary:
        "Terminal operations were halted after workers tested positive; vessels are waiting at anchor.",
    },
    {
      day: 2,
      publisher: "Quay Ledger",
      title: "Qingdao terminals stay closed as outbreak testing continues",
      summary: "Carriers report delays for ships calling the Port of Qingdao.",
    },
    {
      day: 5,
      publisher: "Box Trade Daily",
      title: "Congestion builds at the Port of Qingdao during the closure",
      summary: "The queue of container ships off Qingdao has doubled in a week.",
    },
    {
      day: 8,
      publisher: "Harbour Wire",
      title: "Qingdao port closure leaves export containers stranded",
      summary: "Exporters say boxes have been stuck at the Port of Qingdao for more than a week.",
    },
    {
      day: 18,
      publisher: "Meridian Maritime",
      title: "Port of Qingdao backlog still delaying ships after outbreak closure",
      summary: "Vessels wait days for a berth at Qingdao as terminals work through the congestion.",
    },
    {
      day: 24,
      publisher: "Quay Ledger",
      title: "Qingdao congestion persists as terminals clear outbreak backlog",
      summary: "Delays for ships calling the Port of Qingdao remain above a week.",
    },
    {
      day: 28,
      publisher: "Box Trade Daily",
      title: "Port of Qingdao resumes normal operations a month after the outbreak",
      summary: "All terminals are working again and the queue of ships has cleared.",
    },
  ];

  it("an event reported over four weeks with a ten-day pause is one disruption, resolved by its end report", () => {
    const { state, outcomes } = run(lockdown);
    const ids = new Set(outcomes.map(eventOf));
    expect(ids).toEqual(new Set(["event-1"]));
    const [event] = state.events;
    expect(event!.status).toBe("resolved");
    // Resolved when the items said so (day 28), not when the silence rule guessed (day 11).
    expect(event!.resolvedAt!.getTime()).toBe(Date.parse("2025-03-03T08:00:00Z") + 28 * DAY);
    expect(event!.resolvedBy).toBe("report");
  });

  it("the silence rule closes the event during the pause, and the next report of it reopens it", () => {
    const first = run(lockdown.slice(0, 4));
    const silent = sweepSilentEvents(
      first.state.events,
      new Date(Date.parse("2025-03-03T08:00:00Z") + 15 * DAY),
    );
    expect(silent[0]!.status).toBe("resolved");
    expect(silent[0]!.resolvedBy).toBe("silence");
    const { outcomes, state } = run(lockdown.slice(0, 5));
    expect(eventOf(outcomes[4]!)).toBe("event-1");
    expect(state.events[0]!.status).toBe("active");
  });

  it("an event closed by a report of its end is not reopened: the same port's next strike is a new event", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockworkers strike at the Port of Gdansk",
        summary: "A walkout halted container handling at the Port of Gdansk.",
      },
      {
        day: 2,
        publisher: "Quay Ledger",
        title: "Gdansk strike ends as union accepts pay offer",
        summary: "Work resumed at the Port of Gdansk on Wednesday.",
      },
      {
        day: 16,
        publisher: "Box Trade Daily",
        title: "Gdansk dockworkers strike again over shift patterns",
        summary: "A new walkout stopped container handling at the Port of Gdansk.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe("event-1");
    expect(eventOf(outcomes[2]!)).toBe("event-2");
  });
});

describe("two events of one category in one fortnight stay apart", () => {
  it("two network changes of one carrier in the same week, one at a port and one elsewhere, are two", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Maersk and Hapag-Lloyd omit Port of Genoa calls on their Mediterranean loop",
        summary: "The carriers will skip Genoa for four weeks, moving cargo to La Spezia.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "Genoa loses Maersk calls for a month as carriers change rotation",
        summary: "Shippers at the Port of Genoa must rebook on other services.",
      },
      {
        day: 2,
        publisher: "Box Trade Daily",
        title: "Maersk suspends its Russia service and new bookings",
        summary: "The carrier stops taking cargo except food, medicine and humanitarian goods.",
      },
    ]);
    expect(eventOf(outcomes[0]!)).toBe(eventOf(outcomes[1]!));
    expect(eventOf(outcomes[2]!)).not.toBeNull();
    expect(eventOf(outcomes[2]!)).not.toBe(eventOf(outcomes[0]!));
  });

  it("two strikes at two ports in the same week are two", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockworkers strike at the Port of Le Havre",
        summary: "A walkout halted container handling at the Port of Le Havre; Maersk diverts ships.",
      },
      {
        day: 3,
        publisher: "Quay Ledger",
        title: "Dockworkers strike at the Port of Genoa",
        summary: "Container handling stopped at the Port of Genoa; Maersk warns of delays.",
      },
    ]);
    expect(eventOf(outcomes[0]!)).not.toBe(eventOf(outcomes[1]!));
  });
});

describe("a dispute that moves along one coast", () => {
  it("is one disruption when its reports name different ports of that coast", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "ILWU dockworkers slow container handling at Seattle and Tacoma",
        summary: "Terminal employers say cargo moves at half speed as the ILWU contract talks drag on.",
      },
      {
        day: 6,
        publisher: "Quay Ledger",
        title: "ILWU slowdown spreads to Oakland as container ships wait for berths",
        summary: "Vessels anchor off the Port of Oakland; the ILWU and the employers meet again this week.",
      },
      {
        day: 12,
        publisher: "Box Trade Daily",
        title: "ILWU dispute leaves ships waiting at Los Angeles and Long Beach",
        summary: "The queue of container ships off the twin ports grows as the ILWU slowdown continues.",
      },
    ]);
    expect(new Set(outcomes.map(eventOf)).size).toBe(1);
  });

  it("still keeps two lockouts on two coasts of one country in the same week apart", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Employers lock out dockworkers at the Port of Vancouver",
        summary: "Container terminals at the Port of Vancouver stopped work after the union's strike notice.",
      },
      {
        day: 2,
        publisher: "Quay Ledger",
        title: "Employers lock out dockworkers at the Port of Montreal",
        summary:
          "Container terminals at the Port of Montreal stopped work after talks with the union failed.",
      },
    ]);
    expect(eventOf(outcomes[0]!)).not.toBe(eventOf(outcomes[1]!));
  });
});

describe("traps: names and words without an effect on shipping are refused", () => {
  const traps: Record<string, Row[]> = {
    "a ship named after a port": [
      {
        day: 0,
        publisher: "Lifestyle Desk",
        title: "Cruise ship Ningbo Star joins the Asian coastal service",
        summary: "The new ship was named at a ceremony with music and fireworks before its first voyage.",
      },
    ],
    sports: [
      {
        day: 0,
        publisher: "Sports Page",
        title: "Genoa strike late to beat Sampdoria in the derby",
        summary: "A header in the final minute settled the league match.",
      },
      {
        day: 1,
        publisher: "Sports Page",
        title: "Houston Dynamo storm past Seattle in the playoffs",
        summary: "Two second-half goals sent the team through.",
      },
    ],
    "a company name with a place or carrier word": [
      {
        day: 0,
        publisher: "Markets Brief",
        title: "Bank of Ningbo raises deposit rates",
        summary: "The lender will pay savers more from next month.",
      },
      {
        day: 1,
        publisher: "Markets Brief",
        title: "Maersk Tankers expands its pool network",
        summary: "The product tanker pool operator added ten ships from new partners.",
      },
    ],
    "a metaphorical strike or storm": [
      {
        day: 0,
        publisher: "Markets Brief",
        title: "MSC strikes a deal to buy a logistics software firm",
        summary: "The acquisition adds warehouse tools to the group.",
      },
      {
        day: 1,
        publisher: "Markets Brief",
        title: "Forwarders face a perfect storm of costs, survey finds",
        summary: "Wages and energy prices weigh on margins across the industry.",
      },
    ],
    commentary: [
      {
        day: 0,
        publisher: "Box Trade Daily",
        title: "Opinion: ports must prepare for the next strike wave",
        summary:
          "Employers and unions should agree on arbitration before talks break down, the author argues.",
      },
    ],
    "a retrospective or an anniversary": [
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Five years after the Port of Qingdao outbreak closure, lessons for terminals",
        summary: "The 2020 closure halted container operations for a week.",
      },
      {
        day: 1,
        publisher: "Harbour Wire",
        title: "Port of Durban marks the anniversary of the 2022 floods",
        summary: "The floods closed the port for days; a memorial was unveiled at the harbour.",
      },
    ],
  };

  it.each(Object.entries(traps))("refuses %s", (_family, rows) => {
    const { outcomes, state } = run(rows);
    expect(outcomes.map((o) => o.kind)).toEqual(rows.map(() => "irrelevant"));
    expect(state.events).toEqual([]);
  });

  it("still publishes the real thing beside them: a strike that stops work at a port", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockworkers strike at the Port of Genoa",
        summary: "A walkout halted container handling at the Port of Genoa.",
      },
    ]);
    expect(outcomes[0]!.kind).toBe("created");
  });
});
