/**
 * The score on fixed seeded series (issue 36): a port's waits drawn from a seeded generator, turned
 * into daily signals and readings by the service's own pure functions (`daySignals`, `scorePort`) on
 * its 3-hour cadence. A calm port stays `normal` or `fluid`; a closure (no ship berths, arrivals keep
 * coming) reads high or critical from a day into it to its end, and calm again once its queue has
 * cleared.
 */
import { describe, expect, it } from "vitest";
import { SCORE_EVERY_MS } from "../../../src/domain/congestion/congestion.service";
import {
  BASELINE_DAYS,
  BASELINE_GAP_DAYS,
  type ComponentInput,
  scorePort,
} from "../../../src/domain/congestion/scoring";
import { daySignals, type WaitRecord } from "../../../src/domain/congestion/signals";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-06-01T00:00:00Z");

/** mulberry32: a fixed seed gives the same series on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Port {
  waits: WaitRecord[];
  arrivals: Date[];
}

/**
 * A port with `perDay` calls a day (exponential gaps), 40 % of which wait at anchor a lognormal time
 * around 9 h; calls arriving while `closed(at)` holds wait until the closure ends.
 */
function port(seed: number, days: number, perDay: number, closure?: { from: number; to: number }): Port {
  const random = seeded(seed);
  const waits: WaitRecord[] = [];
  const arrivals: Date[] = [];
  for (let at = T0; at < T0 + days * DAY; at += (-Math.log(1 - random()) / perDay) * DAY) {
    arrivals.push(new Date(at));
    const normal = random() < 0.4 ? 9 * Math.exp(0.55 * (random() * 2 - 1) * 1.7) * HOUR : 0;
    const held =
      closure && at >= closure.from && at < closure.to ? closure.to - at + random() * 12 * HOUR : 0;
    const wait = Math.max(normal, held);
    if (wait > 0) {
      waits.push({
        anchoredAt: new Date(at),
        lastSeenAt: new Date(at + wait),
        berthedAt: new Date(at + wait),
      });
    }
  }
  return { waits, arrivals };
}

/** The service's readings every 3 h from `from` to `to`, each against the days closed before it. */
function readings(p: Port, from: number, to: number) {
  const at = (end: number) => {
    // What the sampler knows at `end`: waits not yet closed are open, last seen now.
    const known = p.waits
      .filter((w) => w.anchoredAt.getTime() < end)
      .map((w) =>
        w.berthedAt!.getTime() > end
          ? { anchoredAt: w.anchoredAt, lastSeenAt: new Date(end), berthedAt: null }
          : w,
      );
    return daySignals({
      end,
      waits: known,
      arrivals: p.arrivals.filter((a) => a.getTime() < end),
      shipments: undefined,
      stillOpenAfter: end - 6 * HOUR,
      watchedSince: T0,
    });
  };
  const daily = new Map<number, ReturnType<typeof at>>();
  const out: { at: number; score: number; bucket: string }[] = [];
  for (let t = from; t < to; t += SCORE_EVERY_MS) {
    const today = Math.floor(t / DAY) * DAY;
    const baseline: ReturnType<typeof at>[] = [];
    for (
      let d = today - (BASELINE_DAYS + BASELINE_GAP_DAYS) * DAY;
      d < today - BASELINE_GAP_DAYS * DAY;
      d += DAY
    ) {
      if (d < T0 + 14 * DAY) continue;
      if (!daily.has(d)) daily.set(d, at(d + DAY));
      baseline.push(daily.get(d)!);
    }
    const now = at(t);
    const values = (pick: (s: typeof now) => number | null) =>
      baseline.map(pick).filter((v): v is number => v !== null);
    const components: ComponentInput[] = [
      {
        name: "anchorage_wait",
        raw: now.anchorageWaitH,
        n: now.anchorageN,
        baseline: values((s) => s.anchorageWaitH),
      },
      { name: "bunching", raw: now.bunching, n: now.arrivals, baseline: values((s) => s.bunching) },
    ];
    const scored = scorePort({
      components,
      medianWaitHours: now.anchorageWaitH,
      dwellDays: null,
      baselineDaysWithData: baseline.length,
      observations7d: Math.max(now.arrivals, now.anchorageN),
      newestInputAgeHours: 0,
    });
    if (scored) out.push({ at: t, score: scored.score, bucket: scored.bucket });
  }
  return out;
}

const CALM = ["normal", "fluid"];

describe("a calm port on seeded series", () => {
  it.each([
    [1, 24],
    [2, 12],
    [3, 6],
  ])(
    "seed %i, %i calls a day: at least 90 percent of the 3-hourly readings over 3 weeks are normal or fluid",
    (seed, perDay) => {
      const p = port(seed, 130, perDay);
      const series = readings(p, T0 + 105 * DAY, T0 + 126 * DAY);
      expect(series.length).toBe(21 * 8);
      const calm = series.filter((r) => CALM.includes(r.bucket)).length;
      expect(calm / series.length).toBeGreaterThanOrEqual(0.9);
    },
  );
});

describe("a closure on seeded series", () => {
  const from = T0 + 110 * DAY + 6 * HOUR;
  const to = from + 3 * DAY;
  const p = port(7, 130, 24, { from, to });
  const series = readings(p, T0 + 105 * DAY, T0 + 126 * DAY);

  it("reads high or critical from a day into the closure until its end (the queue must form first)", () => {
    // A closure is read from its queue: at 24 calls a day the anchorage holds enough held ships to
    // move the signal well within a day; from then on the port reads congested to the end.
    const during = series.filter((r) => r.at >= from + DAY - SCORE_EVERY_MS && r.at < to);
    expect(during.length).toBe(17);
    for (const r of during) expect(["high", "critical"], new Date(r.at).toISOString()).toContain(r.bucket);
    // And the calm readings before it were calm.
    const before = series.filter((r) => r.at < from);
    expect(before.filter((r) => CALM.includes(r.bucket)).length / before.length).toBeGreaterThanOrEqual(0.9);
  });

  it("is back to normal or fluid within two days of the end, when the held ships have berthed", () => {
    const after = series.filter((r) => r.at >= to + 2 * DAY && r.at < to + 4 * DAY);
    expect(after.length).toBe(16);
    for (const r of after) expect(CALM, new Date(r.at).toISOString()).toContain(r.bucket);
  });
});
