/**
 * Issue 35, ninth pass: general rules the development events followed over weeks (`corpus-weeks.ts`)
 * showed. Items are written for these tests in the corpus's style (invented ships and publishers).
 */
import { describe, expect, it } from "vitest";
import { isResolution } from "../../../src/domain/disruptions/classify";
import { extractEntities } from "../../../src/domain/disruptions/entities";
import { normaliseItem } from "../../../src/domain/disruptions/normalise";
import { DEVELOPMENT_CORPUS } from "../../fixtures/disruptions/corpus-more";
import { eventOf, type NewsRow, replayItems } from "./replay-items";

const START = Date.parse("2025-06-02T08:00:00Z");
const run = (rows: readonly NewsRow[]) => replayItems(rows, START);

function endOf(title: string): boolean {
  return isResolution(
    normaliseItem({
      sourceId: "test",
      publisher: "Test Wire",
      guid: null,
      link: "https://news.example/1",
      title,
      summary: "",
      publishedAt: new Date(START),
    }),
  );
}

describe("the development corpus", () => {
  it("holds the ninth pass's events and traps, each original at a time of its own (the harness needs it)", () => {
    const originals = DEVELOPMENT_CORPUS.filter((i) => !i.duplicateOf);
    const added = originals.filter((i) => i.id.startsWith("weeks-"));
    expect(new Set(added.map((i) => i.event).filter((e) => e !== null)).size).toBe(17);
    expect(added.filter((i) => i.trap).length).toBe(14);
    const times = originals.map((i) => i.at);
    expect(new Set(times).size).toBe(times.length);
  });
});

describe("what the events followed over weeks showed", () => {
  it("a port's congestion reported for three weeks, with berths reopened to clear it, is one event closed by its end", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Boxships wait five days for berths at Colombo",
        summary: "Diversions have bunched arrivals and the queue at the port keeps growing.",
      },
      {
        day: 6,
        publisher: "Quay Ledger",
        title: "SLPA reopens an old terminal to clear the backlog at Colombo",
        summary: "Extra crane crews were added as the queue of container ships grew.",
      },
      {
        day: 15,
        publisher: "Box Trade Daily",
        title: "Berthing delays at Colombo persist",
        summary: "Ships still wait two days, down from the peak.",
      },
      {
        day: 24,
        publisher: "Harbour Wire",
        title: "Colombo's container backlog cleared, port authority says",
        summary: "Waiting times are back to normal after the extra berths.",
      },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["created", "joined", "joined", "joined"]);
    expect(new Set(outcomes.map(eventOf)).size).toBe(1);
    // The remedy did not close it: it was still open when the next report came.
    expect("event" in outcomes[1]! && outcomes[1].event.status).toBe("active");
    const [event] = state.events;
    expect(event!.status).toBe("resolved");
    expect(event!.resolvedBy).toBe("report");
    expect(event!.resolvedAt?.getTime()).toBe(START + 24 * 86_400_000);
  });

  it("capacity brought back against a backlog is no end; a cleared backlog and a reopened port are", () => {
    expect(endOf("PSA reopens older berths to clear the backlog at Singapore")).toBe(false);
    expect(endOf("Terminal restores night shifts to ease congestion")).toBe(false);
    expect(endOf("Queue has cleared at Durban")).toBe(true);
    expect(endOf("Terminal clears its backlog after a month")).toBe(true);
    expect(endOf("Port of Tampa reopens after the storm")).toBe(true);
  });

  it("a ship freed by pirates or a navy is the end of its seizure; freeing up space is not", () => {
    expect(endOf("Pirates free the Orion Star and its 19 sailors")).toBe(true);
    expect(endOf("US destroyer frees Maple Dawn, suspects detained")).toBe(true);
    expect(endOf("Grounded bulker freed after two days")).toBe(true);
    expect(endOf("Carrier frees up space on its Asia-Europe loop")).toBe(false);
  });

  it("pirates boarding a ship is a seizure (3 away from a chokepoint or large port), ended by its release weeks on", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Gulf Shipping Post",
        title: "Pirates board bulk carrier Orion Star in the Indian Ocean",
        summary: "Armed men took control of the ship; its 19 crew are held on board.",
      },
      {
        day: 24,
        publisher: "Harbour Wire",
        title: "Pirates free the Orion Star and its 19 sailors",
        summary: "The bulk carrier is sailing for Mombasa under escort.",
      },
    ]);
    expect("event" in outcomes[0]! && outcomes[0].event.severity).toBe(3);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events[0]!.resolvedBy).toBe("report");
  });

  it("dockers back on the job end their strike", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockworkers strike at the Port of Halifax",
        summary: "The union walked out over schedules; container terminals are idle.",
      },
      {
        day: 3,
        publisher: "Quay Ledger",
        title: "Longshore workers back on the job in Halifax after special law",
        summary: "Cranes were working again at the port's terminals this morning.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events[0]!.resolvedBy).toBe("report");
  });

  it("a carrier's advisory naming the labour action is labour news, not refused", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Customer Advisory Feed",
        title: "Customer advisory: Halifax terminals",
        summary:
          "Due to the labour action, our vessels will discharge Canadian cargo at Saint John until further notice.",
      },
    ]);
    expect(outcomes[0]!.kind).toBe("created");
    expect("facts" in outcomes[0]! && outcomes[0].facts.category).toBe("labor");
  });

  it("an unofficial import ban in the trade press's words is trade news, and its later reports join it", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Commodity Lines",
        title: "Indian mills told to stop buying Indonesian coal",
        summary: "Traders say customs clearance for Indonesian cargoes has stalled amid a diplomatic row.",
      },
      {
        day: 12,
        publisher: "Tidewater Times",
        title: "Dozens of coal carriers idle off India as New Delhi's curbs bite",
        summary: "Bulk ships loaded in Kalimantan wait at anchor for clearance that does not come.",
      },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["created", "joined"]);
    expect("facts" in outcomes[0]! && outcomes[0].facts.category).toBe("tariff_trade");
  });

  it("dockworkers accused of a slowdown at named ports is labour news", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Pacific Cargo Report",
        title: "Employers accuse dockworkers of slowdown at Seattle and Tacoma",
        summary: "Fewer crane operators are dispatched while contract talks drag on.",
      },
    ]);
    expect(outcomes[0]!.kind).toBe("created");
    expect("facts" in outcomes[0]! && outcomes[0].facts.category).toBe("labor");
  });

  it("the Gulf of Guinea names no country, Sao Tome does", () => {
    const { entities } = extractEntities(
      "Pirates attack container ship off Sao Tome",
      "Gunmen boarded the vessel in the Gulf of Guinea and took 15 crew.",
    );
    expect(entities.countries).toEqual(["ST"]);
  });
});
