/**
 * Issue 35, sixteenth pass: the trap families a third new batch of development events
 * (`corpus-fresh3.ts`) showed still published. Items are written for these tests in the corpus's
 * style (invented publishers, our own wording).
 */
import { describe, expect, it } from "vitest";
import { replayItems } from "./replay-items";

const START = Date.parse("2026-11-02T08:00:00Z");

describe("trap families of the third batch", () => {
  it("refuses each, though they name ports, storms and shipping words", () => {
    const traps = [
      [
        "Pre-orders storm in for the new tablet as Shenzhen lines run flat out",
        "Factories added night shifts.",
      ],
      ["Rain halts play in Chittagong with the test series level", "Only 20 overs were bowled."],
      [
        "Panel: are ten-year charters a bet container lines will regret?",
        "Four analysts debate the order book.",
      ],
      ["Storm suspends the final round of the Rotterdam golf open", "Play resumes tomorrow morning."],
      [
        "Le Havre council's budget runs aground over school funding",
        "Councillors warned of a shutdown of services.",
      ],
      ["The Flying Dutchman sails into Hamburg for the new opera season", "The production opens on Friday."],
      ["The Container Store files for bankruptcy protection", "The retailer's shops stay open for now."],
      [
        "Hamburg marathon closes the Elbe tunnel to traffic on Sunday",
        "Runners will use the tunnel in the morning.",
      ],
      [
        "Classic yacht Maria wins her class at the Antigua regatta",
        "The wooden cutter beat a fleet of schooners off English Harbour.",
      ],
    ] as const;
    for (const [title, summary] of traps) {
      const { outcomes } = replayItems([{ day: 0, publisher: "Test Desk", title, summary }], START);
      expect({ title, kind: outcomes[0]!.kind }).toEqual({ title, kind: "irrelevant" });
    }
  });

  it("does not read a yacht named for an open storm as the storm's report", () => {
    const { state, outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Caribbean Port Notices",
          title: "Kingston container terminal closes as Hurricane Maria nears",
          summary: "Berths and gates are shut until the storm passes.",
        },
        {
          day: 1,
          publisher: "Sailing Weekly",
          title: "Classic yacht Maria wins her class at the Antigua regatta",
          summary: "The wooden cutter beat a fleet of schooners off English Harbour.",
        },
      ],
      START,
    );
    expect(outcomes[1]!.kind).toBe("irrelevant");
    expect(state.events[0]!.itemCount).toBe(1);
  });
});
