/**
 * Issue 35, sixth pass: rules written from the development corpus's milder failures, tested on items
 * written for these tests in the development corpus's style (invented ships and publishers).
 */
import { describe, expect, it } from "vitest";
import { shipNames } from "../../../src/domain/disruptions/events";
import { eventOf, type NewsRow, replayItems } from "./replay-items";

const START = Date.parse("2025-03-03T08:00:00Z");
const run = (rows: readonly NewsRow[]) => replayItems(rows, START);

describe("a ship is its own incident", () => {
  const attacks: NewsRow[] = [
    {
      day: 0,
      publisher: "Gulf Shipping Post",
      title: "Crew abandon the bulk carrier Silver Lantern after a missile attack near the Bab el-Mandeb",
      summary: "The ship was hit overnight and is taking on water; the crew were taken off safely.",
    },
    {
      day: 3,
      publisher: "Bosun's Brief",
      title: "Abandoned Silver Lantern drifts and leaks fuel in the southern Red Sea",
      summary: "A slick trails the ship; salvors have not been able to reach it.",
    },
    {
      day: 6,
      publisher: "Meridian Maritime",
      title: "Two seafarers killed as a missile hits the Northern Gull in the Gulf of Aden",
      summary: "The bulk carrier is ablaze after the attack; the crew abandoned ship.",
    },
    {
      day: 7,
      publisher: "Harbour Wire",
      title: "Navy takes survivors off the burning Northern Gull",
      summary: "The crew were rescued from the abandoned vessel off Aden.",
    },
    {
      day: 9,
      publisher: "Quay Ledger",
      title: "Silver Lantern sinks in the Red Sea with its cargo of fertiliser",
      summary: "The wreck lies near busy shipping lanes, salvors say.",
    },
  ];

  it("an attack on another ship in the same waters a week later is another event", () => {
    const ids = run(attacks).outcomes.map(eventOf);
    expect(ids).toEqual(["event-1", "event-1", "event-2", "event-2", "event-1"]);
  });

  it("a ship hit by name is read as a ship ('hits the Northern Gull'), a strait is not", () => {
    expect(
      shipNames("Two seafarers killed as a missile hits the Northern Gull in the Gulf of Aden", true),
    ).toEqual(["Northern Gull"]);
    expect(shipNames("Missile strikes the Red Sea coast near Hodeidah", true)).toEqual([]);
  });

  it("a campaign whose reports name the ships it hit stays one event", () => {
    const campaign: NewsRow[] = [
      {
        day: 0,
        publisher: "Box Trade Daily",
        title: "Carriers pause Red Sea transits after attacks on merchant ships",
        summary: "Lines are holding vessels south of the Bab el-Mandeb and diverting others around the Cape.",
      },
      {
        day: 1,
        publisher: "Harbour Wire",
        title: "Missile hits the tanker Blue Heron in the Red Sea as carriers keep away",
        summary: "More carriers pause Red Sea transits and divert around the Cape of Good Hope.",
      },
      {
        day: 2,
        publisher: "Quay Ledger",
        title: "Drone attack on the boxship Amber Coast as Red Sea transits stay paused",
        summary: "Carriers divert more sailings around the Cape after the attack near the Bab el-Mandeb.",
      },
    ];
    const ids = run(campaign).outcomes.map(eventOf);
    expect(ids).toEqual(["event-1", "event-1", "event-1"]);
  });
});
