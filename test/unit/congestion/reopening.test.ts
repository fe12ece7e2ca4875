/**
 * A closure the port's own AIS shows over (issue 36, reported-stoppages.ts `berthingResumedAt`,
 * `withReopenings`): once a ship that joined the queue after the closure was reported is seen
 * alongside, the port berths again, so the news floor lifts and the backlog it left is judged by
 * whether it clears, without waiting for the news of the reopening (the world's comes 3 hours late).
 */
import { describe, expect, it } from "vitest";
import {
  type Berthing,
  berthingResumedAt,
  type ReportedDisruption,
  reportedEndAt,
  stoppageAt,
  withReopenings,
} from "../../../src/domain/congestion/reported-stoppages";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

// The world's validation typhoon at Shanghai: closed 05:00 on the 13th, reported 07:00, reopened 05:00
// on the 17th, the reopening reported 08:00.
const reported = at("2027-01-13T07:00:00Z");
const reopening = at("2027-01-17T06:00:00Z");

const typhoon = (overrides: Partial<ReportedDisruption> = {}): ReportedDisruption => ({
  id: "typhoon",
  headline: "Typhoon closes the Port of Shanghai and the Port of Ningbo-Zhoushan",
  category: "weather",
  severity: 4,
  status: "active",
  ports: ["CNSHA", "CNNGB"],
  signalCounts: { storm: 2, closure: 2 },
  firstSeen: new Date(reported),
  lastUpdated: new Date(at("2027-01-14T01:00:00Z")),
  resolvedAt: null,
  ...overrides,
});

// A ship that anchored before the closure still berthed in its first hours (the world's did, up to
// 19 hours in); no ship of the closure's own queue berthed until the reopening.
const straggler: Berthing = { anchoredAt: at("2027-01-13T03:00:00Z"), berthedAt: at("2027-01-13T21:00:00Z") };
const queued: Berthing = { anchoredAt: at("2027-01-14T09:00:00Z"), berthedAt: reopening };

describe("a closure the port's AIS shows over", () => {
  it("lifts the floor at the first berthing of a ship that anchored after the closure was reported", () => {
    const before = withReopenings("CNSHA", [typhoon()], [straggler], reopening - HOUR);
    expect(stoppageAt("CNSHA", before)?.floor).toBe(90);
    const after = withReopenings("CNSHA", [typhoon()], [straggler, queued], reopening);
    expect(stoppageAt("CNSHA", after)).toBeNull();
    // From then the backlog is judged as after a reported end, from the berthing on.
    expect(reportedEndAt("CNSHA", after, reopening)).toBe(reopening);
    expect(reportedEndAt("CNSHA", after, reopening + 3 * HOUR)).toBe(reopening);
  });

  it("does not lift it while only ships anchored before the closure berth", () => {
    expect(berthingResumedAt("CNSHA", typhoon(), [straggler], reopening)).toBeNull();
    const events = withReopenings("CNSHA", [typhoon()], [straggler], reopening);
    expect(stoppageAt("CNSHA", events)?.floor).toBe(90);
    expect(reportedEndAt("CNSHA", events, reopening)).toBeNull();
  });

  it("does not lift it when no ship berths (a closure holds its queue)", () => {
    expect(stoppageAt("CNSHA", withReopenings("CNSHA", [typhoon()], [], reopening))?.floor).toBe(90);
  });

  it("reads a berthing not yet seen at the reading's instant as nothing", () => {
    expect(berthingResumedAt("CNSHA", typhoon(), [queued], reopening - 1)).toBeNull();
  });

  it("keeps the earlier reopening when the news reports the end later", () => {
    const newsEnd = typhoon({ status: "resolved", resolvedAt: new Date(reopening + 2 * HOUR) });
    const events = withReopenings("CNSHA", [newsEnd], [queued], reopening + 6 * HOUR);
    expect(reportedEndAt("CNSHA", events, reopening + 6 * HOUR)).toBe(reopening);
    // A berthing after the news's end is no reopening of it: the news said it first.
    const early = typhoon({ status: "resolved", resolvedAt: new Date(reopening - 2 * HOUR) });
    expect(berthingResumedAt("CNSHA", early, [queued], reopening + 6 * HOUR)).toBeNull();
  });

  it("lifts it only at the port that berthed: the same closure's other port keeps its floor", () => {
    // Shanghai's berthing is not read for Ningbo (each port's berthings are its own), and the event as
    // Ningbo reads it stays active.
    expect(stoppageAt("CNNGB", withReopenings("CNNGB", [typhoon()], [], reopening))?.floor).toBe(90);
    expect(berthingResumedAt("SGSIN", typhoon(), [queued], reopening)).toBeNull();
  });

  it("never ends a strike: its berths are worked at a fraction, so ships berth all through it", () => {
    const strike = typhoon({
      id: "strike",
      headline: "Strike halts container handling at the Port of Rotterdam",
      category: "labor",
      ports: ["CNSHA"],
      signalCounts: { strike: 2, closure: 1 },
    });
    expect(berthingResumedAt("CNSHA", strike, [queued], reopening)).toBeNull();
    expect(stoppageAt("CNSHA", withReopenings("CNSHA", [strike], [queued], reopening))?.floor).toBe(90);
  });

  it("reads nothing of a storm warning or a closure at a severity that sets no floor", () => {
    expect(
      berthingResumedAt("CNSHA", typhoon({ signalCounts: { storm: 3 } }), [queued], reopening),
    ).toBeNull();
    const mild = withReopenings("CNSHA", [typhoon({ severity: 2 })], [queued], reopening);
    expect(reportedEndAt("CNSHA", mild, reopening)).toBeNull();
  });
});
