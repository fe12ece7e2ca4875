/**
 * Issue 35, fourteenth pass: what a new batch of development events (`corpus-fresh.ts`) showed the rules
 * got wrong on news they were never written from. Items are written for these tests in the corpus's
 * style (invented publishers, our own wording).
 */
import { describe, expect, it } from "vitest";
import { extractEntities } from "../../../src/domain/disruptions/entities";
import { eventOf, replayItems } from "./replay-items";

const START = Date.parse("2026-09-14T06:00:00Z");

const TYPHOON_AT_KOBE = [
  {
    day: 0,
    publisher: "Kansai Shipping Desk",
    title: "Kobe container terminals close as Typhoon Haruka nears",
    summary: "Berths and gates at Kobe stopped work this morning; ships have left the harbour.",
  },
  {
    day: 1,
    publisher: "Pacific Box Review",
    title: "Typhoon Haruka keeps Kobe shut for a second day",
    summary: "Terminal operators say container handling will restart once the warning is lifted.",
  },
];

describe("a port's name in other news while it is closed", () => {
  it("does not make a market report or a shipyard's launch a report of the typhoon", () => {
    const { state, outcomes } = replayItems(
      [
        ...TYPHOON_AT_KOBE,
        {
          day: 2,
          publisher: "Markets Today",
          title: "Kobe shares weather the storm as chipmakers rally",
          summary: "The index closed higher as investors looked past the typhoon.",
        },
        {
          day: 2,
          publisher: "Ship Spotters Weekly",
          title: "Feeder ship Kobe Trader delivered at a Korean yard",
          summary: "The new vessel joins an intra-Asia loop next month.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[0]!)).not.toBeNull();
    expect(outcomes[2]!.kind).toBe("irrelevant");
    expect(outcomes[3]!.kind).toBe("irrelevant");
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.itemCount).toBe(2);
  });
});

describe("trap families the batch added", () => {
  it("refuses a book that retells an old blockage", () => {
    const { outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Review Desk",
          title: "A new book retells the week a tanker blocked the Suez Canal",
          summary: "Pilots and salvors describe how the grounded ship was freed.",
        },
      ],
      START,
    );
    expect(outcomes[0]!.kind).toBe("irrelevant");
  });

  it("does not read a carrier's cruise line or a port speaking as the carrier or Port Said", () => {
    expect(
      extractEntities("MSC Cruises opens bookings for its winter season", "Two new ships join the fleet.")
        .entities.carriers,
    ).toEqual([]);
    expect(
      extractEntities("Valencia terminals work normally", "Operations were not affected, the port said.")
        .entities.ports,
    ).not.toContain("EGPSD");
    expect(extractEntities("Ships queue at Port Said", "").entities.ports).toContain("EGPSD");
  });
});

describe("a cyberattack on a port", () => {
  it("is the port's disruption, not a security incident, and a 'cyber incident' is news", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Harbour Wire",
          title: "Port of Valencia reports a cyber incident",
          summary: "Some of the port authority's computer systems were disrupted overnight.",
        },
        {
          day: 1,
          publisher: "Quay Ledger",
          title: "Valencia says ship calls ran normally despite the attack on its IT",
          summary: "The port authority's servers are being restored; containers were received and delivered.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[0]!)).not.toBeNull();
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.category).toBe("port_disruption");
  });
});

describe("a fire aboard a ship at sea", () => {
  it("is its carrier's casualty though the item names a port of its voyage", () => {
    const { state } = replayItems(
      [
        {
          day: 0,
          publisher: "Shorewire",
          title: "Fire breaks out on container ship X-Press Coral off Colombo",
          summary: "The crew are fighting the blaze on board about 20 nautical miles from the port.",
        },
      ],
      START,
    );
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!).toMatchObject({ category: "carrier_ops" });
    expect(state.events[0]!.entities.carriers).toContain("XPRS");
  });
});

describe("a ship's casualty and a stoppage ahead", () => {
  it("grades a fire or lost boxes at sea as a halt, and a typhoon's coming stop as a hedged one", () => {
    const { state } = replayItems(
      [
        {
          day: 0,
          publisher: "Shorewire",
          title: "Containers lost overboard as boxship rolls in a Pacific gale",
          summary: "The crew of the ONE vessel are safe; the ship is heading for Kobe.",
        },
        {
          day: 3,
          publisher: "Pearl River Freight",
          title: "Hong Kong terminals brace for the typhoon",
          summary: "Lines warn that container handling at Hong Kong may stop on Sunday.",
        },
      ],
      START,
    );
    const [casualty, typhoon] = state.events;
    expect(casualty).toMatchObject({ category: "carrier_ops", itemSeverity: 3 });
    expect(typhoon).toMatchObject({ category: "weather", itemSeverity: 3 });
  });
});

describe("places and ends the batch showed missing", () => {
  it("reads Dover as the port but not Dover Corporation, and a list's ports of one country", () => {
    expect(extractEntities("Lorries turned back at Dover", "").entities.ports).toEqual(["GBDVR"]);
    expect(extractEntities("Dover Corporation raises its dividend", "").entities.ports).toEqual([]);
    expect(
      extractEntities(
        "Union action holds up ships",
        "Boxes are delayed across Sydney, Melbourne, Brisbane and Fremantle terminals.",
      ).entities.ports,
    ).toEqual(["AUBNE", "AUFRE", "AUMEL", "AUSYD"]);
  });

  it("keeps a strike open through a return to work for four days and ends it at the members' vote", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Harbour Wire",
          title: "Lashers walk out at Antwerp, halting container terminals",
          summary: "Ships cannot be worked while the lashing crews strike.",
        },
        {
          day: 2,
          publisher: "Quay Ledger",
          title: "Court-brokered pause sends Antwerp lashers back to work for four days",
          summary: "The union can restart the strike on Friday without a deal.",
        },
        {
          day: 6,
          publisher: "Box Trade Daily",
          title: "Lashers back deal, ending Antwerp's longest port strike in years",
          summary: "Terminals are clearing the backlog of ships at anchor.",
        },
      ],
      START,
    );
    expect(new Set(outcomes.map(eventOf)).size).toBe(1);
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!).toMatchObject({
      status: "resolved",
      resolvedBy: "report",
      resolvedAt: new Date(START + 6 * 86_400_000),
    });
  });

  it("publishes a river too shallow for full barge loads", () => {
    const { state } = replayItems(
      [
        {
          day: 0,
          publisher: "Inland Freight Desk",
          title: "Danube at Vienna falls to its lowest in a decade",
          summary: "Barges are loading lighter as stretches of the channel grow too shallow.",
        },
      ],
      START,
    );
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.category).toBe("weather");
  });
});

describe("two trade measures and a market in one month", () => {
  it("keeps two export bans on different goods apart though their buyers overlap", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Commodity Wire",
          title: "Malaysia halts palm oil exports to cool prices at home",
          summary: "Buyers in India and China scramble for cargoes; the ban starts on Monday.",
        },
        {
          day: 3,
          publisher: "Agri Trade Desk",
          title: "Kuala Lumpur widens its export ban to crude palm oil",
          summary: "The measure now covers crude oil too, wrong-footing importers in India.",
        },
        {
          day: 9,
          publisher: "Grain Market News",
          title: "India bans wheat exports with immediate effect",
          summary:
            "New shipments stop to protect food security; contracts already backed by letters of credit may go.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(eventOf(outcomes[2]!)).not.toBe(eventOf(outcomes[0]!));
    expect(state.events).toHaveLength(2);
    // "Kuala Lumpur widens its export ban": the government, not a port.
    expect(extractEntities("Jakarta widens its export ban", "").entities).toMatchObject({
      ports: [],
      countries: ["ID"],
    });
  });

  it("does not read a ship's lost boxes into the month's rate rally", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Freight Index Weekly",
          title: "Transpacific spot rates hit a record as empty containers run short",
          summary: "The index rose again this week on the China to US West Coast lane.",
        },
        {
          day: 2,
          publisher: "Shorewire",
          title: "Stacks collapsed, ONE boxship turns for Kobe",
          summary: "Up to 1,900 boxes are feared lost; the managers are checking the damaged stacks.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[1]!)).not.toBe(eventOf(outcomes[0]!));
    expect(state.events.find((e) => e.category === "container_market")!.entities.carriers).toEqual([]);
  });
});

describe("a ship named for its line and an end asked for", () => {
  it("follows a burning ship by its name wherever the headline places it", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Shorewire",
          title: "Fire on Maersk Kestrel in the Indian Ocean; two crew missing",
          summary: "The boxship was sailing from Colombo towards Salalah when a blaze broke out in a hold.",
        },
        {
          day: 3,
          publisher: "Tidewater Times",
          title: "Salvors reach Maersk Kestrel as the search goes on",
          summary:
            "Tugs are cooling the hull; the line says cargo interests will hear about general average.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events).toHaveLength(1);
  });

  it("does not end a dispute when one side only asks for it to end", () => {
    const { state } = replayItems(
      [
        {
          day: 0,
          publisher: "Harbour Wire",
          title: "Union bans slow Patrick's Port Botany terminal",
          summary: "Overtime bans and short stoppages by dockworkers are delaying ships at Sydney.",
        },
        {
          day: 4,
          publisher: "Quay Ledger",
          title: "Patrick asks the tribunal to end the union's industrial action at Port Botany",
          summary: "The stevedore says 40 ships are waiting off the coast.",
        },
      ],
      START,
    );
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.status).toBe("active");
  });
});
