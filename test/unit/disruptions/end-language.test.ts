/**
 * Issue 35, fourth pass: an event is resolved only by explicit end language about it (never "lifts"
 * alone, a hope, a quote, a past reference or the action starting again), a government named by its
 * capital is its country, and fragments of one event an item ties together become one. Items written
 * for these tests (in neither corpus), run through the pure pipeline as ingestion runs it.
 */
import { describe, expect, it } from "vitest";
import { isResolution } from "../../../src/domain/disruptions/classify";
import { extractEntities } from "../../../src/domain/disruptions/entities";
import { normaliseItem } from "../../../src/domain/disruptions/normalise";
import { eventOf, type NewsRow, replayItems } from "./replay-items";

const START = Date.parse("2025-06-02T08:00:00Z");
const run = (rows: readonly NewsRow[]) => replayItems(rows, START);

const endsIt = (title: string) =>
  isResolution(
    normaliseItem({
      sourceId: "test",
      publisher: "Harbour Wire",
      guid: null,
      link: null,
      title,
      summary: "",
      publishedAt: new Date(START),
    }),
  );

describe("what reads as an end", () => {
  it("'lifts' alone is no end; a restriction lifted is", () => {
    expect(endsIt("Peak-season demand lifts spot rates on the transpacific")).toBe(false);
    expect(endsIt("Crane barges lift containers off the stranded feeder")).toBe(false);
    expect(endsIt("Authorities lift the night curfew on the Port of Chittagong")).toBe(true);
    expect(endsIt("Rice export ban lifted after the harvest")).toBe(true);
    expect(endsIt("Malacca Strait piracy threat lifted after the gang's arrest")).toBe(true);
  });

  it("an end hoped for, quoted, remembered or the action starting again is no end", () => {
    expect(endsIt("Port of Durban expected to reopen on Monday")).toBe(false);
    expect(endsIt("No date set to resume sailings through the strait")).toBe(false);
    expect(endsIt("'We will reopen soon', says Colombo port chief")).toBe(false);
    expect(endsIt("Busiest month for Jebel Ali since it reopened after the floods")).toBe(false);
    expect(endsIt("Houthis resume attacks on merchant ships")).toBe(false);
    expect(endsIt("Figures released by the port authority show a slump")).toBe(false);
  });

  it("an end said outright is an end", () => {
    expect(endsIt("Strike at the ports of Santos and Paranagua ends after pay deal")).toBe(true);
    expect(endsIt("Dockers resume work at Antwerp after the deal")).toBe(true);
    expect(endsIt("Seized tanker Sea Lark released, heads for Fujairah")).toBe(true);
    expect(endsIt("Iran frees the crew of the detained boxship")).toBe(true);
  });

  it("a hope of reopening joins the closure and leaves it open; the reopening closes it", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Floods close the Port of Durban",
        summary: "Container terminals at the Port of Durban halted operations after torrential rain.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "Port of Durban expected to reopen on Monday",
        summary: "Terminal operators at the Port of Durban are clearing debris from the flooded yards.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events[0]!.status).toBe("active");
    const after = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Floods close the Port of Durban",
        summary: "Container terminals at the Port of Durban halted operations after torrential rain.",
      },
      {
        day: 4,
        publisher: "Box Trade Daily",
        title: "Port of Durban reopens as flood waters recede",
        summary: "Container terminals at the Port of Durban resumed operations.",
      },
    ]);
    expect(eventOf(after.outcomes[1]!)).toBe(eventOf(after.outcomes[0]!));
    expect(after.state.events[0]!.status).toBe("resolved");
  });
});

describe("a government named by its capital", () => {
  it("is its country where a government's verb follows, not otherwise", () => {
    const countries = (title: string) => extractEntities(title, "").entities.countries;
    expect(countries("Seoul orders striking truckers back to work")).toEqual(["KR"]);
    expect(countries("Ottawa appoints two mediators in the port dispute")).toEqual(["CA"]);
    expect(countries("Seoul marathon closes roads on Sunday")).toEqual([]);
  });

  it("so the order joins the strike of that country's truckers, which its end closes", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Han River Logistics",
        title: "Korean truckers strike as freight-rate talks collapse",
        summary: "Container volumes at Busan fell on the first day of the stoppage.",
      },
      {
        day: 5,
        publisher: "Quay Ledger",
        title: "Seoul orders striking truckers back to work",
        summary: "The order covers container drivers; most stay out.",
      },
      {
        day: 9,
        publisher: "Harbour Wire",
        title: "Korean truckers vote to end their strike",
        summary: "Drivers return to Busan's terminals on Monday.",
      },
    ]);
    expect(new Set(outcomes.map(eventOf))).toEqual(new Set([eventOf(outcomes[0]!)]));
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.status).toBe("resolved");
    expect(state.events[0]!.resolvedAt?.toISOString()).toBe(new Date(START + 9 * 86_400_000).toISOString());
  });
});

describe("a ship is one event", () => {
  it("reports naming the grounded ship follow it for weeks, under whatever words, to its refloating", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Tidewater Journal",
        title: "Boxship Cape Arcona runs aground off the Port of Gdansk",
        summary: "The feeder grounded in fog after leaving the container terminal.",
      },
      {
        day: 9,
        publisher: "Harbour Wire",
        title: "Salvors fail to free the Cape Arcona on a second attempt",
        summary: "Tugs will try again at the next high water.",
      },
      {
        day: 19,
        publisher: "Quay Ledger",
        title: "Cape Arcona refloated after three weeks",
        summary: "The ship was towed to a lay-by berth for inspection.",
      },
    ]);
    expect(new Set(outcomes.map(eventOf))).toEqual(new Set([eventOf(outcomes[0]!)]));
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.status).toBe("resolved");
    expect(state.events[0]!.resolvedAt?.toISOString()).toBe(new Date(START + 19 * 86_400_000).toISOString());
  });

  it("a ship's name is read after a vessel word or opening a headline, never a port or a line", async () => {
    const { shipNames } = await import("../../../src/domain/disruptions/events");
    expect(shipNames("Houthis seize the car carrier Galaxy Leader in the Red Sea")).toEqual([
      "Galaxy Leader",
    ]);
    expect(shipNames("Abandoned Rubymar drifts in the southern Red Sea")).toEqual(["Rubymar"]);
    expect(shipNames("Hong Kong terminals close as typhoon nears")).toEqual([]);
    expect(shipNames("Hamburg Süd moves its Latin America office")).toEqual([]);
    expect(shipNames("Iran seizes the boxship MSC Aries near Hormuz")).toEqual(["MSC Aries"]);
    expect(shipNames("Port Of Santos Reopens After The Strike")).toEqual([]);
  });
});

describe("a report naming nothing", () => {
  it("weeks after an event's last news, does not follow it on words alone", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Maersk suspends its Asia-Europe AE7 service as demand slumps",
        summary: "The carrier says the weekly service will be suspended until further notice.",
      },
      {
        day: 12,
        publisher: "Quay Ledger",
        title: "Another weekly Asia-Europe service suspended as demand slumps",
        summary: "A second line says it will suspend the service until further notice.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).not.toBe(eventOf(outcomes[0]!));
  });
});

describe("fragments of one event", () => {
  it("an end report naming the ports of two fragments closes them as one disruption", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Tideline News",
        title: "Dockworkers strike at the Port of Santos over pay",
        summary: "A walkout halted container handling at Brazil's largest port.",
      },
      {
        day: 1,
        publisher: "Berth Report",
        title: "Paranagua terminals idle as dockers walk out",
        summary: "Container handling stopped at the Port of Paranagua.",
      },
      {
        day: 3,
        publisher: "Seaboard Courier",
        title: "Strike at the ports of Santos and Paranagua ends after pay deal",
        summary: "Dockworkers at both ports returned to work after the union accepted the offer.",
      },
    ]);
    // Apart at first: alike strikes at two ports are two until a report ties them.
    expect(eventOf(outcomes[1]!)).not.toBe(eventOf(outcomes[0]!));
    const end = outcomes[2]!;
    expect(end.kind).toBe("joined");
    expect("absorbed" in end && end.absorbed).toHaveLength(1);
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.entities.ports).toEqual(["BRPNG", "BRSSZ"]);
    expect(state.events[0]!.publishers).toHaveLength(3);
    expect(state.events[0]!.status).toBe("resolved");
  });

  it("a report naming two carriers' separate events ties nothing by the carriers alone", () => {
    const { state } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Maersk suspends bookings at the Port of Karachi after a cyberattack",
        summary: "The carrier's Karachi office systems are down.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "MSC omits the Port of Chittagong from its Asia-Europe loop",
        summary: "Congestion at Chittagong forces the carrier to skip the call.",
      },
      {
        day: 2,
        publisher: "Box Trade Daily",
        title: "Maersk and MSC both warn of delays on Asia-Europe services",
        summary: "Customers are told to expect later arrivals.",
      },
    ]);
    expect(state.events.filter((e) => e.status === "active").length).toBeGreaterThanOrEqual(2);
  });
});
