/**
 * Issue 35, tenth pass: general rules the development corpus still missed. Items are written for these
 * tests in the corpus's style (invented ships and publishers).
 */
import { describe, expect, it } from "vitest";
import { extractEntities } from "../../../src/domain/disruptions/entities";
import { eventOf, replayItems } from "./replay-items";

const START = Date.parse("2025-06-02T08:00:00Z");

const ports = (title: string) => extractEntities(title, "").entities.ports;

describe("a port's name before a port word", () => {
  it("names the port when possessive (docks, harbour, piers) or before terminal, docks, piers or port", () => {
    // San Juan is in the port catalogue but not the press list: only "Port of San Juan" found it.
    expect(ports("Relief cargo piles up at San Juan's docks")).toEqual(["PRSJU"]);
    expect(ports("Empty boxes stack up on San Juan\u2019s piers")).toEqual(["PRSJU"]);
    expect(ports("Carrier says cargo is moving out of its San Juan terminal")).toEqual(["PRSJU"]);
    expect(ports("San Juan port reopens with restrictions for relief cargo")).toEqual(["PRSJU"]);
  });

  it("reads the longest tail of capitalised words that is a port, and nothing for other names", () => {
    expect(ports("Coastline Freight San Juan terminal reopens")).toEqual(["PRSJU"]);
    expect(ports("Tall ship San Juan Star opens to visitors at the waterfront")).toEqual([]);
    expect(ports("Northwind Apparel's docks are a brand of deck shoes")).toEqual([]);
  });
});

describe("a carrier's own trouble reported again after a pause", () => {
  it("is one disruption, open until its end report, when the later report names only that carrier", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Container Line Review",
          title: "ONE's launch hit by booking and documentation problems",
          summary: "Shippers report bookings unconfirmed for days after the switch-over.",
        },
        {
          day: 12,
          publisher: "Tidewater Times",
          title: "Ocean Network Express apologises for cargo delays at its terminals",
          summary: "The line says staff are working through the queue of waiting bills of lading.",
        },
        {
          day: 33,
          publisher: "Quay Ledger",
          title: "ONE says service levels back to normal after start-up problems",
          summary: "Bookings are confirmed within a day again, the carrier said.",
        },
      ],
      START,
    );
    const ids = outcomes.map(eventOf);
    expect(ids[0]).not.toBeNull();
    expect(new Set(ids)).toEqual(new Set([ids[0]]));
    expect(state.events).toHaveLength(1);
    expect(state.events[0]!.resolvedBy).toBe("report");
    expect(state.events[0]!.resolvedAt?.getTime()).toBe(START + 33 * 86_400_000);
  });
});

describe("a report of an open dispute that names no port or carrier", () => {
  it("joins the dispute when it names the same body, though its words are few and its own", () => {
    const { outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Harbour Wire",
          title: "Employers lock out dockworkers at the Port of Halifax as HLEA talks fail",
          summary: "Container terminals are idle and carriers are diverting ships to other ports.",
        },
        {
          day: 1,
          publisher: "Quay Ledger",
          title: "Minister orders binding arbitration in HLEA dispute",
          summary: "The labour board was asked to end the stoppage within days.",
        },
      ],
      START,
    );
    expect(eventOf(outcomes[0]!)).not.toBeNull();
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
  });
});
