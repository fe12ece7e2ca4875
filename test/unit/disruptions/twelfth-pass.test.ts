/**
 * Issue 35, twelfth pass: a drought's low water on a river is one event over its weeks. Its reports
 * come weeks apart and name the river rather than a port, so the river is a shared name and a
 * low-water event is followed for 45 days, not a storm's ten. Items are written for these tests in the
 * corpus's style (invented publishers).
 */
import { describe, expect, it } from "vitest";
import { eventOf, replayItems } from "./replay-items";

const START = Date.parse("2025-08-04T08:00:00Z");

describe("low water on a river over weeks", () => {
  it("is one disruption when its reports come two and three weeks apart", () => {
    const { outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Inland Barge Weekly",
          title: "Low water on the Rhine forces barges to sail part-loaded",
          summary: "Operators cut loads to a third as the gauge at Kaub falls after weeks without rain.",
        },
        {
          day: 16,
          publisher: "Continental Freight Desk",
          title: "Barge surcharges climb as the drought drags on",
          summary: "Water levels on the Rhine keep falling; shippers pay more for every tonne moved.",
        },
        {
          day: 35,
          publisher: "Inland Barge Weekly",
          title: "Shippers turn to rail as the Rhine stays low",
          summary: "River levels remain near record lows and barge operators keep their load limits.",
        },
      ],
      START,
    );
    const events = outcomes.map(eventOf);
    expect(events[0]).not.toBeNull();
    expect(events).toEqual([events[0], events[0], events[0]]);
  });

  it("keeps a storm's ten days: two storms on the river a month apart are two", () => {
    const { outcomes } = replayItems(
      [
        {
          day: 0,
          publisher: "Inland Barge Weekly",
          title: "Storm halts barge traffic on the Rhine",
          summary: "Gale-force winds closed the river to shipping near Duisburg for a day.",
        },
        {
          day: 30,
          publisher: "Continental Freight Desk",
          title: "Storm halts barge traffic on the Rhine again",
          summary: "A second gale closed the river to shipping near Duisburg overnight.",
        },
      ],
      START,
    );
    const [first, second] = outcomes.map(eventOf);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
  });
});
