/**
 * Issue 35, fifteenth pass: what a second new batch of development events (`corpus-fresh2.ts`) showed
 * the rules got wrong on news they were never written from. Items are written for these tests in the
 * corpus's style (invented publishers, our own wording).
 */
import { describe, expect, it } from "vitest";
import { extractEntities } from "../../../src/domain/disruptions/entities";
import { eventOf, replayItems } from "./replay-items";

const START = Date.parse("2026-10-05T07:00:00Z");

const only = (title: string, summary: string) =>
  replayItems([{ day: 0, publisher: "Test Desk", title, summary }], START);

describe("trap families of the second batch", () => {
  it("refuses a cricket final, a strategy game's blockades, a cruise line's bookings and boardroom gridlock", () => {
    for (const [title, summary] of [
      [
        "Chennai Kings strike in the final over to win the IPL by two runs",
        "The captain hit a six off the last ball.",
      ],
      [
        "Strategy game expansion adds naval blockades and convoy raids",
        "Players can now close straits to rival fleets.",
      ],
      [
        "MSC Cruises opens bookings for next winter's Caribbean voyages",
        "Two new ships will sail from Miami.",
      ],
      [
        "Boardroom gridlock at a Lagos bank as shareholders reject two directors",
        "The vote was the second this year.",
      ],
    ] as const) {
      expect(only(title, summary).outcomes[0]!.kind).toBe("irrelevant");
    }
  });

  it("does not read a research vessel named for an open storm as the storm's report", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Carolina Port Notices",
          title: "Charleston's terminals close as Hurricane Nadine nears",
          summary: "Container gates and berths are shut until the storm passes.",
        },
        {
          day: 1,
          publisher: "Science Desk",
          title: "Research vessel Nadine returns from a summer of whale surveys",
          summary: "The crew logged more than 300 sightings off the coast.",
        },
      ],
      START,
    );
    expect(outcomes[1]!.kind).toBe("irrelevant");
    expect(state.events[0]!.itemCount).toBe(1);
  });
});

describe("ships, casualties and trade words of the second batch", () => {
  it("reads a ship named for a port as a ship and Zim's ships as Zim's", () => {
    expect(extractEntities("Customer advisory: Yantian Express", "").entities.ports).toEqual([]);
    expect(
      extractEntities("Zim Kingston loses containers off Vancouver Island", "").entities.carriers,
    ).toEqual(["ZIMU"]);
  });

  it("keeps a tanker struck and burning off a port out of the port's disruptions", () => {
    const { state } = only(
      "Greek tanker struck and on fire off Hodeidah",
      "A blast started a fire on deck; the crew abandoned the burning ship.",
    );
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.category).not.toBe("port_disruption");
  });

  it("publishes ships sabotaged off a port, customs refusing a country's goods and a shipping law waived", () => {
    const sabotage = only("Four merchant ships sabotaged off Fujairah", "The UAE says no one was hurt.");
    expect(sabotage.state.events[0]!).toMatchObject({ category: "security_geopolitical" });
    const customs = only(
      "Lithuanian containers in limbo as Chinese customs refuse clearance",
      "Exporters say hundreds of boxes are held.",
    );
    expect(customs.state.events[0]!).toMatchObject({ category: "tariff_trade" });
    const waiver = only(
      "US waives the Jones Act for Puerto Rico for ten days",
      "Foreign ships may carry relief cargo.",
    );
    expect(waiver.state.events[0]!).toMatchObject({ category: "regulatory" });
    expect(eventOf(waiver.outcomes[0]!)).not.toBeNull();
  });
});

describe("a ship's lost boxes and a measure read as trade and as a rule", () => {
  it("grades boxes lost overboard as the line's halt, whatever gale caused it", () => {
    const { state } = only(
      "MSC Ariadne loses about 200 containers in a Biscay gale",
      "The ship is heading for Le Havre.",
    );
    expect(state.events[0]!).toMatchObject({ category: "carrier_ops" });
    expect(state.events[0]!.itemSeverity).toBeGreaterThanOrEqual(3);
  });

  it("keeps export controls between two countries one event when a report reads them as a rule", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Trade Desk",
          title: "Vietnam to tighten exports of rare earths to Japan",
          summary: "Japanese buyers will need a licence for each shipment from next week.",
        },
        {
          day: 3,
          publisher: "Hanoi Business Wire",
          title: "Vietnam's licence rule for rare earth shipments to Japan takes effect",
          summary: "Exporters must file new paperwork with customs before loading.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events).toHaveLength(1);
  });
});

describe("a union's statement of the end", () => {
  it("closes the open strike it reads like though it names no port, two weeks after the last report", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Iberian Freight Wire",
          title: "Portuguese dockworkers strike at Lisbon, Sines and Leixoes",
          summary: "Hourly stoppages hold up container ships as talks with employers collapse.",
        },
        {
          day: 2,
          publisher: "Atlantic Box Review",
          title: "Strikes spread across Portuguese container terminals",
          summary: "Dockworkers at Lisbon and Leixoes extend their stoppages to the weekend.",
        },
        {
          day: 16,
          publisher: "Dockworkers' Union",
          title: "Statement: dockworkers call off remaining strikes after employers guarantee every job",
          summary: "The union says the stoppages end today and members return to work.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[2]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events[0]!).toMatchObject({ status: "resolved", resolvedBy: "report" });
  });
});
