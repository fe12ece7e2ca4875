/**
 * The congestion arithmetic (src/domain/congestion/scoring.ts): robust z with floored MAD, clipping,
 * renormalised weights, bucket edges, guardrails, tiers and tier-C shrinkage, and monotonicity.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  backlogClearing,
  CLEARING_WINDOW_MS,
  type ReportedDisruption,
  reportedEndAt,
  stoppageAt,
  stoppagesAt,
  stoppagesRaising,
} from "../../../src/domain/congestion/reported-stoppages";
import {
  applyGuardrails,
  bucketOf,
  type ComponentInput,
  compositeZ,
  readComponent,
  robustZ,
  type ScoreInput,
  scorePort,
  shrink,
  trend7d,
} from "../../../src/domain/congestion/scoring";

const flat = (value: number, days = 90) => Array.from({ length: days }, () => value);

function input(components: ComponentInput[], overrides: Partial<ScoreInput> = {}): ScoreInput {
  return {
    components,
    medianWaitHours: 10,
    dwellDays: 4,
    baselineDaysWithData: 90,
    observations7d: 20,
    newestInputAgeHours: 2,
    ...overrides,
  };
}

describe("robust z-score", () => {
  it("floors a MAD of zero, so one late ship at a quiet port is not critical", () => {
    // Wait baseline exactly 10 h every day: MAD 0, floored to 2 h -> scale 2.9652 h.
    expect(robustZ(13, 10, 0, 2)).toBeCloseTo(3 / (1.4826 * 2), 6);
    const reading = readComponent({ name: "anchorage_wait", raw: 13, n: 1, baseline: flat(10) });
    expect(reading).toMatchObject({
      baseline_median: 10,
      baseline_mad: 0,
      weight: 0.35,
      unit: "h",
      window_days: 1,
    });
    expect(reading?.z).toBeCloseTo(1.0117, 3);
  });

  it("clips z to [-3, +5]", () => {
    expect(robustZ(1000, 10, 1, 2)).toBe(5);
    expect(robustZ(-1000, 10, 1, 2)).toBe(-3);
  });

  it("leaves out a component with no raw value or no baseline", () => {
    expect(readComponent({ name: "dwell", raw: null, n: 0, baseline: flat(4) })).toBeNull();
    expect(readComponent({ name: "dwell", raw: 4, n: 3, baseline: [] })).toBeNull();
  });
});

describe("composite score", () => {
  it("renormalises the weights over the components present", () => {
    const wait = readComponent({
      name: "anchorage_wait",
      raw: 10 + 2 * 1.4826 * 2,
      n: 9,
      baseline: flat(10),
    })!;
    expect(wait.z).toBeCloseTo(2, 6);
    // Alone, the wait's z is the composite.
    expect(compositeZ([wait])).toBeCloseTo(2, 6);
    const dwell = readComponent({ name: "dwell", raw: 4, n: 9, baseline: flat(4) })!;
    expect(compositeZ([wait, dwell])).toBeCloseTo((0.35 * 2) / 0.6, 6);
    expect(compositeZ([])).toBeNull();
  });

  it("counts a component far below its normal at -2 at most, so it cannot hide another far above", () => {
    const wait = readComponent({ name: "anchorage_wait", raw: 40, n: 9, baseline: flat(10) })!;
    const bunching = readComponent({ name: "bunching", raw: 0, n: 9, baseline: flat(1) })!;
    expect(wait.z).toBe(5);
    expect(bunching.z).toBeCloseTo(-2.698, 3);
    // On the wire the z stays what it is; in the composite the bunching counts at -2.
    expect(compositeZ([wait, bunching])).toBeCloseTo((0.35 * 5 + 0.1 * -2) / 0.45, 6);
  });

  it("is not scored without any readable component", () => {
    expect(scorePort(input([{ name: "dwell", raw: null, n: 0, baseline: flat(4) }]))).toBeNull();
  });

  it("maps z = 0 to 40 (normal), +2 to 60 (moderate), +3 to 75 (high), +4 to 90 (critical)", () => {
    const all = (shift: number): ComponentInput[] => [
      { name: "anchorage_wait", raw: 10 + shift * 1.4826 * 2, n: 12, baseline: flat(10) },
      { name: "dwell", raw: 4 + shift * 1.4826 * 0.25, n: 12, baseline: flat(4) },
      { name: "eta_slip", raw: 12 + shift * 1.4826 * 6, n: 12, baseline: flat(12) },
      { name: "schedule_deviation", raw: 20 + shift * 1.4826 * 6, n: 12, baseline: flat(20) },
      { name: "bunching", raw: 1 + shift * 1.4826 * 0.25, n: 12, baseline: flat(1) },
    ];
    expect(scorePort(input(all(0)))).toMatchObject({ score: 40, bucket: "normal", tier: "A" });
    // Waits above 6 h lift the cap.
    expect(scorePort(input(all(1.5)))).toMatchObject({ score: 55, bucket: "normal" });
    expect(scorePort(input(all(2)))).toMatchObject({ score: 60, bucket: "moderate" });
    expect(scorePort(input(all(3)))).toMatchObject({ score: 75, bucket: "high" });
    expect(scorePort(input(all(4)))).toMatchObject({ score: 90, bucket: "critical" });
    expect(scorePort(input(all(-1.5)))).toMatchObject({ score: 25, bucket: "fluid" });
  });
});

describe("buckets", () => {
  it.each([
    [0, "fluid"],
    [29, "fluid"],
    [30, "normal"],
    [59, "normal"],
    [60, "moderate"],
    [74, "moderate"],
    [75, "high"],
    [89, "high"],
    [90, "critical"],
    [100, "critical"],
  ] as const)("score %i is %s", (score, bucket) => {
    expect(bucketOf(score)).toBe(bucket);
  });
});

describe("guardrails", () => {
  it("leaves a port whose ships always wait days at its own normal: no floor on long waits", () => {
    expect(applyGuardrails(40, 36, 4)).toBe(40);
    expect(applyGuardrails(40, 168, 4)).toBe(40);
    const colombo: ComponentInput[] = [{ name: "anchorage_wait", raw: 36, n: 20, baseline: flat(36) }];
    expect(scorePort(input(colombo, { medianWaitHours: 36 }))).toMatchObject({ bucket: "normal" });
  });

  it("caps a port where nobody waits 6 h and boxes leave within 3 days at 74", () => {
    expect(applyGuardrails(100, 2, 1)).toBe(74);
    expect(applyGuardrails(100, null, null)).toBe(74);
    expect(applyGuardrails(100, 2, 3)).toBe(100);
    expect(applyGuardrails(100, 6, 1)).toBe(100);
  });
});

describe("tiers", () => {
  const three: ComponentInput[] = [
    { name: "anchorage_wait", raw: 10, n: 12, baseline: flat(10) },
    { name: "eta_slip", raw: 12, n: 12, baseline: flat(12) },
    { name: "bunching", raw: 1, n: 12, baseline: flat(1) },
  ];

  it("gives A with 60 baseline days, 3 components with wait or dwell, 10 observations, fresh input", () => {
    expect(scorePort(input(three, { baselineDaysWithData: 60, observations7d: 10 }))?.tier).toBe("A");
    expect(scorePort(input(three, { baselineDaysWithData: 59, observations7d: 10 }))?.tier).toBe("B");
    expect(scorePort(input(three, { observations7d: 9 }))?.tier).toBe("B");
    expect(scorePort(input(three, { newestInputAgeHours: 25 }))?.tier).toBe("B");
  });

  it("gives B with 30 days, 2 components, 3 observations, input within 72 h; else C", () => {
    const two = three.slice(0, 2);
    expect(
      scorePort(input(two, { baselineDaysWithData: 30, observations7d: 3, newestInputAgeHours: 72 }))?.tier,
    ).toBe("B");
    expect(scorePort(input(two, { observations7d: 2 }))?.tier).toBe("C");
    expect(scorePort(input(two, { newestInputAgeHours: 73 }))?.tier).toBe("C");
    // Without wait or dwell among them, never above C.
    expect(scorePort(input(three.slice(1)))?.tier).toBe("C");
  });

  it("shrinks a tier-C score toward the normal score (40) by n/(n+5)", () => {
    expect(shrink(100, 0)).toBe(40);
    expect(shrink(100, 5)).toBe(70);
    expect(shrink(0, 15)).toBe(10);
    const stray: ComponentInput[] = [{ name: "anchorage_wait", raw: 60, n: 1, baseline: flat(10, 20) }];
    // One stray ship: z clipped at 5 -> 100, shrunk with n = 1 to 50: still normal.
    expect(
      scorePort(input(stray, { baselineDaysWithData: 20, observations7d: 1, medianWaitHours: 60 })),
    ).toMatchObject({ tier: "C", score: 50, bucket: "normal" });
  });
});

describe("trend_7d", () => {
  it("compares with 7 days before, else the oldest reading of the week, else 0", () => {
    const history = [
      { day: "2026-10-01", score: 40 },
      { day: "2026-10-04", score: 55 },
      { day: "2026-10-06", score: 60 },
    ];
    expect(trend7d(80, history, "2026-10-08")).toBe(40);
    expect(trend7d(80, history.slice(1), "2026-10-08")).toBe(25);
    expect(trend7d(80, [], "2026-10-08")).toBe(0);
  });
});

describe("monotonicity", () => {
  it("never lowers the score when one component's raw value rises, all else equal", () => {
    const names = ["anchorage_wait", "dwell", "eta_slip", "schedule_deviation", "bunching"] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.double({ min: 0, max: 200, noNaN: true }), { minLength: 5, maxLength: 5 }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.integer({ min: 0, max: 40 }),
        (which, raws, bump, observations) => {
          const base = (raw: readonly number[]): ComponentInput[] =>
            names.map((name, i) => ({ name, raw: raw[i]!, n: 5, baseline: [8, 10, 11, 12, 9, 10] }));
          const higher = raws.map((raw, i) => (names[i] === which ? raw + bump : raw));
          const waits = (r: readonly number[]) => ({ medianWaitHours: r[0]!, dwellDays: r[1]! });
          const before = scorePort(input(base(raws), { observations7d: observations, ...waits(raws) }))!;
          const after = scorePort(input(base(higher), { observations7d: observations, ...waits(higher) }))!;
          expect(after.score).toBeGreaterThanOrEqual(before.score);
        },
      ),
    );
  });
});

const HOUR = 3_600_000;

describe("a closure or strike the news reports (issue 36)", () => {
  const event = (overrides: Partial<ReportedDisruption>): ReportedDisruption => ({
    id: "typhoon",
    headline: "Typhoon closes Shanghai and Ningbo",
    category: "weather",
    severity: 4,
    status: "active",
    ports: ["CNSHA", "CNNGB"],
    signalCounts: { storm: 2, closure: 1 },
    firstSeen: new Date("2026-10-14T05:00:00Z"),
    lastUpdated: new Date("2026-10-14T05:00:00Z"),
    resolvedAt: null,
    ...overrides,
  });
  // The first hours of the world's typhoon at Shanghai: the queue has not formed, the wait is as usual.
  const calmQueue = [{ name: "anchorage_wait" as const, raw: 10, n: 4, baseline: flat(10) }];

  it("lifts the port to critical before its queue shows anything", () => {
    expect(scorePort(input(calmQueue, { medianWaitHours: 10, dwellDays: null }))!.bucket).toBe("normal");
    const stoppage = stoppageAt("CNSHA", [event({})]);
    expect(stoppage).toEqual({
      disruptionId: "typhoon",
      headline: "Typhoon closes Shanghai and Ningbo",
      category: "weather",
      severity: 4,
      floor: 90,
    });
    const lifted = scorePort(input(calmQueue, { medianWaitHours: 10, dwellDays: null, stoppage }))!;
    expect(lifted).toMatchObject({ score: 90, bucket: "critical" });
    // The components stay what was measured: the floor explains the score, not the signals.
    expect(lifted.components[0]!.z).toBe(0);
    // A queue that already reads higher keeps its own score.
    const queued: ComponentInput[] = [
      { name: "anchorage_wait", raw: 60, n: 30, baseline: flat(10) },
      { name: "dwell", raw: 10, n: 30, baseline: flat(4) },
      { name: "bunching", raw: 5, n: 30, baseline: flat(1) },
    ];
    expect(scorePort(input(queued, { medianWaitHours: 60, stoppage }))!.score).toBe(100);
    // A strike reported at severity 3 reads high.
    const strike = stoppageAt("BEANR", [
      event({ category: "labor", severity: 3, ports: ["BEANR"], signalCounts: { strike: 1 } }),
    ]);
    expect(scorePort(input(calmQueue, { medianWaitHours: 10, stoppage: strike }))!.bucket).toBe("high");
  });

  it("names the disruptions that raised the score, and none when the queue alone reads as high", () => {
    const strike = event({
      id: "strike",
      headline: "Dockers strike at Shanghai",
      category: "labor",
      severity: 4,
      ports: ["CNSHA"],
      signalCounts: { strike: 2 },
    });
    const warning = event({
      id: "yard",
      category: "port_disruption",
      severity: 3,
      signalCounts: { closure: 1 },
    });
    const stoppages = stoppagesAt("CNSHA", [warning, event({}), strike]);
    expect(stoppages.map((s) => s.disruptionId)).toEqual(["typhoon", "strike", "yard"]);
    const lifted = scorePort(
      input(calmQueue, { medianWaitHours: 10, dwellDays: null, stoppage: stoppages[0] }),
    )!;
    expect(lifted).toMatchObject({ score: 90, queueScore: 40 });
    // Both severity-4 events set the 90 the port reads; the severity-3 one set nothing it reads.
    expect(stoppagesRaising(stoppages, lifted.queueScore, lifted.score)).toEqual([
      { id: "typhoon", headline: "Typhoon closes Shanghai and Ningbo", category: "weather", severity: 4 },
      { id: "strike", headline: "Dockers strike at Shanghai", category: "labor", severity: 4 },
    ]);
    // A queue already reading 100: the news raised nothing.
    expect(stoppagesRaising(stoppages, 100, 100)).toEqual([]);
    // No stoppage: nothing named.
    expect(stoppagesRaising([], 40, 40)).toEqual([]);
  });

  it("reads the backlog a reported end left as the port's normal while it clears, its queue again once it grows", () => {
    const end = Date.parse("2026-10-17T06:00:00Z");
    const reopened = event({ status: "resolved", resolvedAt: new Date(end) });
    // Sixty ships the closure held: the wait far above the port's normal, arrivals bunched.
    const backlog: ComponentInput[] = [
      { name: "anchorage_wait", raw: 60, n: 60, baseline: flat(10) },
      { name: "bunching", raw: 4, n: 40, baseline: flat(1) },
    ];
    const own = scorePort(input(backlog, { medianWaitHours: 60 }))!;
    expect(own.bucket).toBe("critical");
    expect(reportedEndAt("CNSHA", [reopened], end + 3 * HOUR)).toBe(end);
    // Fewer ships wait than at the end: the backlog is clearing, the score is the port's normal; the
    // components on the wire are what was measured.
    expect(backlogClearing(60, 52)).toBe(true);
    const clearing = scorePort(input(backlog, { medianWaitHours: 60, clearingBacklog: true }))!;
    expect(clearing).toMatchObject({ score: 40, bucket: "normal" });
    expect(clearing.components.map((c) => c.z)).toEqual(own.components.map((c) => c.z));
    // Another signal still counts (a dwell far above its normal is no backlog of the anchorage).
    const withDwell = [...backlog, { name: "dwell" as const, raw: 10, n: 30, baseline: flat(4) }];
    expect(
      scorePort(input(withDwell, { medianWaitHours: 60, clearingBacklog: true }))!.score,
    ).toBeGreaterThan(40);
    // A few ships joining while it is worked off are no new congestion; a queue grown by a quarter and
    // 3 ships or more past its size at the end is congested anew, read as usual.
    expect(backlogClearing(60, 63)).toBe(true);
    expect(backlogClearing(60, 80)).toBe(false);
    expect(backlogClearing(4, 7)).toBe(false);
    // For the bunching's 14 days after the end, the held ships' berthing surge is not read as bunching.
    const berthing: ComponentInput[] = [
      { name: "anchorage_wait", raw: 10, n: 20, baseline: flat(10) },
      { name: "bunching", raw: 4, n: 40, baseline: flat(1) },
    ];
    expect(scorePort(input(berthing, { medianWaitHours: 10 }))!.score).toBeGreaterThan(40);
    expect(scorePort(input(berthing, { medianWaitHours: 10, bunchingHoldsBacklog: true }))!.score).toBe(40);
    // Only within the window after the end, only while no stoppage is active there, only at its ports.
    expect(reportedEndAt("CNSHA", [reopened], end + CLEARING_WINDOW_MS + HOUR)).toBeNull();
    expect(reportedEndAt("CNSHA", [reopened, event({ id: "again" })], end + HOUR)).toBeNull();
    expect(reportedEndAt("SGSIN", [reopened], end + HOUR)).toBeNull();
    // A storm warning that ended closed nothing: no backlog of its own.
    expect(reportedEndAt("CNSHA", [{ ...reopened, signalCounts: { storm: 1 } }], end + HOUR)).toBeNull();
  });

  it("ends with the report of the end: the score is the queue's own again", () => {
    const reopened = event({ status: "resolved", resolvedAt: new Date("2026-10-17T06:00:00Z") });
    expect(stoppageAt("CNSHA", [reopened])).toBeNull();
  });

  it("is no forecast, yard congestion or outage, and only at the ports the event names", () => {
    // The storm warning before landfall: weather at the port, nothing closed yet.
    expect(stoppageAt("CNSHA", [event({ signalCounts: { storm: 1 } })])).toBeNull();
    // Colombo's terminal outage and Yantian's yard congestion: the port named, berthing not stopped.
    expect(
      stoppageAt("LKCMB", [
        event({ category: "port_disruption", severity: 3, ports: ["LKCMB"], signalCounts: { delay: 3 } }),
      ]),
    ).toBeNull();
    // A carrier's suspension or a canal's closure is no port's stoppage.
    expect(stoppageAt("CNSHA", [event({ category: "carrier_ops" })])).toBeNull();
    expect(stoppageAt("SGSIN", [event({})])).toBeNull();
    // Severity 2 and below move nothing.
    expect(stoppageAt("CNSHA", [event({ severity: 2 })])).toBeNull();
  });
});
