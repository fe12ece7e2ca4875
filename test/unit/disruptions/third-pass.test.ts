/**
 * Issue 35, third pass: the mechanisms added while the development corpus grew, each on items
 * written for these tests (in neither corpus), run through the pure pipeline as ingestion runs it.
 */
import { describe, expect, it } from "vitest";
import { sweepSilentEvents } from "../../../src/domain/disruptions/pipeline";
import { DAY, eventOf, type NewsRow, replayItems } from "./replay-items";

const START = Date.parse("2025-05-05T08:00:00Z");
const run = (rows: readonly NewsRow[]) => replayItems(rows, START);
const severityOf = (o: ReturnType<typeof run>["outcomes"][number]) =>
  "facts" in o ? o.facts.severity : null;

describe("clustering", () => {
  it("two alliances announced in one month that share one carrier are two events", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "CMA CGM and Hapag-Lloyd form a new east-west alliance",
        summary: "The two carriers will share vessels on Asia-Europe and transpacific loops from next year.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "CMA CGM and Hapag-Lloyd alliance to cover 300 ships",
        summary: "The partners say the network will start with 25 loops.",
      },
      {
        day: 2,
        publisher: "Box Trade Daily",
        title: "Evergreen, COSCO and Hapag-Lloyd form a new transatlantic alliance",
        summary: "The three carriers will share vessels on North Atlantic loops from next year.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(eventOf(outcomes[2]!)).not.toBeNull();
    expect(eventOf(outcomes[2]!)).not.toBe(eventOf(outcomes[0]!));
  });

  it("the container market is one market: an index named after a port joins the market's event", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Freight Index Weekly",
        title: "Spot rates on Asia-Europe slide for a fifth week",
        summary: "Weak demand after the holidays pushed the composite index down again.",
      },
      {
        day: 7,
        publisher: "Box Trade Daily",
        title: "Ningbo export container index falls below 1,200 points",
        summary: "Rates to North Europe and the Mediterranean led the decline.",
      },
    ]);
    expect(eventOf(outcomes[0]!)).not.toBeNull();
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
  });

  it("a rule's reports follow it over twelve quiet days by the name of the rule alone", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Meridian Maritime",
        title: "New ENS filing rules for sea cargo into the EU take effect",
        summary: "Carriers must lodge the ENS data before loading at the port of origin.",
      },
      {
        day: 12,
        publisher: "Quay Ledger",
        title: "Forwarders say incomplete ENS declarations under the new rules hold boxes back",
        summary: "Missing consignee addresses are the most frequent reason.",
      },
    ]);
    expect(eventOf(outcomes[0]!)).not.toBeNull();
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
  });

  it("a labour dispute spreading to other ports under the same union is one event", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockers' walkout halts work at the Port of Sydney",
        summary: "MUA members stopped work at Port Botany in a dispute over rosters.",
      },
      {
        day: 1,
        publisher: "Gulf Shipping Post",
        title: "Melbourne terminals slow as the MUA dispute spreads",
        summary: "Crane drivers at Swanson Dock joined the action on the night shift.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
  });

  it("a report with no shipping word joins the open event it reads like, and never starts one", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Port of Chittagong closes as Cyclone Remal approaches",
        summary: "Vessels were sent to the outer anchorage and cargo handling stopped.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "Cyclone Remal makes landfall near Khulna",
        summary: "Winds of 110 km/h and a storm surge hit the coast; a million people were evacuated.",
      },
      {
        day: 40,
        publisher: "Quay Ledger",
        title: "Cyclone Dana makes landfall in Odisha",
        summary: "Winds of 120 km/h hit the coast; hundreds of thousands of people were evacuated.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(outcomes[2]!.kind).toBe("irrelevant");
  });

  it("a strike with five quiet days is still active: labour's silence rule waits seven", () => {
    const { state } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockworkers strike at the Port of Antwerp",
        summary: "Terminals stopped work as unions walked out over pensions.",
      },
    ]);
    expect(sweepSilentEvents(state.events, new Date(START + 5 * DAY))[0]!.status).toBe("active");
    expect(sweepSilentEvents(state.events, new Date(START + 8 * DAY))[0]!.status).toBe("resolved");
  });
});

describe("severity reads what happens now", () => {
  it("a backlog after the strike, a surcharge ahead of a walkout and a port still to close are not critical", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Antwerp works through its backlog after the 24-hour port strike",
        summary: "Terminal operators expect waiting times of two days.",
      },
      {
        day: 20,
        publisher: "Quay Ledger",
        title: "Lines add strike surcharges ahead of the Rotterdam walkout",
        summary: "Carriers will charge USD 150 per box on cargo for the port.",
      },
      {
        day: 40,
        publisher: "Box Trade Daily",
        title: "Port of Savannah to close as Hurricane Ione heads for Georgia",
        summary: "The Coast Guard set port condition Yankee on Monday.",
      },
    ]);
    expect(outcomes.map(severityOf)).toEqual([2, 2, 3]);
  });

  it("a headline about the price of a risk is moderate, whatever cause it names", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Tanker seizure in the Strait of Hormuz raises war-risk premiums for Gulf calls",
        summary: "Underwriters quote several times last month's rate.",
      },
    ]);
    expect(outcomes.map(severityOf)).toEqual([2]);
  });

  it("a vote to end a strike is its end", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Dockworkers strike at the Port of Le Havre",
        summary: "Terminals stopped work on Monday.",
      },
      {
        day: 2,
        publisher: "Quay Ledger",
        title: "Le Havre dockers vote to end their three-day strike",
        summary: "Work restarts at the Port of Le Havre on Thursday.",
      },
    ]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(state.events[0]!.status).toBe("resolved");
    expect(state.events[0]!.resolvedBy).toBe("report");
  });
});

describe("the relevance gate", () => {
  it("duties on a named country's goods are trade news; a carrier's quarterly profit is not news of a disruption", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Meridian Maritime",
        title: "Canada imposes duties of 25% on Chinese steel",
        summary: "The measure applies from next month.",
      },
      {
        day: 30,
        publisher: "Market Ticker",
        title: "Hapag-Lloyd reports higher quarterly profit",
        summary: "The German carrier's earnings rose on stronger freight rates.",
      },
    ]);
    expect(outcomes[0]!.kind).toBe("created");
    expect("facts" in outcomes[0]! && outcomes[0].facts.category).toBe("tariff_trade");
    expect(outcomes[1]!.kind).toBe("irrelevant");
  });
});
