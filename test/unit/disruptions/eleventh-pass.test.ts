/**
 * Issue 35, eleventh pass: an item whose title reports harm to shipping in shipping's words is
 * disruption news even when no category word names its kind; the category model names it. A name and
 * a verb are still not news. Items are written for these tests in the corpus's style (invented
 * publishers, places and firms).
 */
import { describe, expect, it } from "vitest";
import { eventOf, replayItems } from "./replay-items";

const START = Date.parse("2025-09-01T08:00:00Z");

const one = (title: string, summary: string) =>
  replayItems([{ day: 0, publisher: "Quay Ledger", title, summary }], START).outcomes[0]!;

describe("harm to shipping that no category word names", () => {
  it("is published, with the kind the model reads", () => {
    const outcome = one(
      "Port employers halt weekend vessel loading along the coast",
      "The employers' association stopped ship operations on Saturdays and Sundays, saying it will not pay overtime.",
    );
    expect(outcome.kind).toBe("created");
    expect("facts" in outcome && outcome.facts.category).toBeTruthy();
  });

  it("is not read into a firm's name and a verb, or a ship's visit", () => {
    for (const [title, summary] of [
      ["Evergreen Garden Centres halts expansion plans", "The nursery chain blamed borrowing costs."],
      ["Antwerp diamond trader shuts two shops", "The family firm moves to online sales."],
      ["Tall ship opens to visitors at the waterfront", "The restored schooner offers harbour cruises."],
    ] as const) {
      expect(eventOf(one(title, summary)), title).toBeNull();
    }
  });
});
