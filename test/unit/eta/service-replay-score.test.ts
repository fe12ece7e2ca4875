import { describe, expect, it } from "vitest";
import { composeEtaPage } from "../../../bench/eta-replay/page";
import { checkTargets, type ScoredSnapshot, scoreByBucket, scoreCell } from "../../../bench/eta-replay/score";

const HOUR = 3_600_000;
const ATA = Date.UTC(2026, 9, 1);

function row(over: Partial<ScoredSnapshot>): ScoredSnapshot {
  return {
    voyage: "MSCU|MSCU1234566",
    scac: "MSCU",
    computedAt: ATA - 48 * HOUR,
    p50: ATA,
    p80: ATA + 6 * HOUR,
    source: "carrier",
    confidence: "medium",
    horizonBucket: "1to3d",
    carrierEta: ATA,
    reason: null,
    ata: ATA,
    ...over,
  };
}

describe("service-path replay scoring (bench/eta-replay)", () => {
  it("scores coverage, both errors on the same predictions and the far-off count", () => {
    const cell = scoreCell([
      // 60 h late while the carrier was 2 h off: far off, the carrier close.
      row({ p50: ATA + 60 * HOUR, p80: ATA + 80 * HOUR, carrierEta: ATA + 2 * HOUR, source: "model" }),
      // 10 h early, the carrier 20 h off.
      row({ p50: ATA - 10 * HOUR, p80: ATA + 1 * HOUR, carrierEta: ATA + 20 * HOUR }),
      // No carrier ETA: counted, but left out of both paired errors.
      row({ p50: ATA + 4 * HOUR, p80: ATA + 8 * HOUR, carrierEta: null, reason: "position_off_leg" }),
    ]);
    expect(cell.predictions).toBe(3);
    expect(cell.beforeP50).toBe(0.667);
    expect(cell.beforeP80).toBe(1);
    expect(cell.paired).toBe(2);
    expect(cell.maeP50PairedHours).toBe(35);
    expect(cell.maeCarrierHours).toBe(11);
    expect(cell.maeRatio).toBe(3.182);
    expect(cell.farOffWhileCarrierClose).toBe(1);
    expect(cell.byReason).toEqual({ position_off_leg: 1 });
  });

  it("judges coverage only in buckets of 100 predictions and the error ratio per horizon", () => {
    // 100 predictions 1-3 d out, half the arrivals before p50, 80% before p80, p50 better than the carrier.
    const rows = Array.from({ length: 100 }, (_, i) =>
      row({
        p50: ATA + (i < 50 ? 1 : -1) * HOUR,
        p80: ATA + (i < 80 ? 5 : -5) * HOUR,
        carrierEta: ATA + 3 * HOUR,
      }),
    );
    // A few 7-14 d predictions worse than the carrier: too few to judge coverage, enough to miss the ratio.
    rows.push(
      ...[1, 2, 3].map(() =>
        row({ horizonBucket: "7to14d", p50: ATA + 30 * HOUR, carrierEta: ATA + 5 * HOUR }),
      ),
    );
    const checks = checkTargets(scoreByBucket(rows), false);
    expect(checks.map((c) => c.status)).toEqual(["met", "met", "met", "not met", "met", "not judged"]);
    expect(checks[0]!.measured).toBe("1-3 d 0.500");
    expect(checks[3]!.measured).toBe("7-14 d 6x, > 14 d n/a");
  });

  it("keeps the direct replay below the service-path section, whichever run rewrites the page", () => {
    const direct = "# Predictive ETA calibration\n\n## Results\n\n```sh\n# not a heading\n```\n";
    const withReplay = composeEtaPage(direct, {
      replay:
        "<!-- eta-replay:start (generated from the eta-replay results; do not edit) -->\n## Service-path replay\n<!-- eta-replay:end -->",
    });
    expect(withReplay.indexOf("## Service-path replay")).toBeLessThan(
      withReplay.indexOf("## Direct model replay"),
    );
    expect(withReplay).toContain("### Results");
    expect(withReplay).toContain("# not a heading");
    const rewritten = composeEtaPage(withReplay, { direct: direct.replace("Results", "New results") });
    expect(rewritten).toContain("## Service-path replay");
    expect(rewritten).toContain("### New results");
    expect(rewritten).not.toContain("### Results");
  });

  it("keeps the notes written by hand between the sections when either run rewrites the page", () => {
    const replay = (title: string) =>
      `<!-- eta-replay:start (generated from the eta-replay results; do not edit) -->\n## ${title}\n<!-- eta-replay:end -->`;
    const notes =
      "<!-- eta-notes:start (written by hand; kept when either section is generated) -->\n## An emulation\n\nIts tables.\n<!-- eta-notes:end -->";
    const page = composeEtaPage(
      `# Predictive ETA calibration\n\n${replay("Service-path replay")}\n\n${notes}\n\n## Direct model replay (the model alone on the world's voyages, not the service's path)\n\n### Results\n`,
      {},
    );
    const byDirect = composeEtaPage(page, { direct: "# Predictive ETA calibration\n\n## New results\n" });
    const byReplay = composeEtaPage(byDirect, { replay: replay("Service-path replay, again") });
    for (const rewritten of [byDirect, byReplay]) {
      expect(rewritten).toContain(notes);
      expect(rewritten.indexOf("<!-- eta-replay:end -->")).toBeLessThan(rewritten.indexOf(notes));
      expect(rewritten.indexOf(notes)).toBeLessThan(rewritten.indexOf("## Direct model replay"));
      expect(rewritten).toContain("### New results");
      expect(rewritten.match(/eta-notes:start/g)).toHaveLength(1);
    }
    expect(byReplay).toContain("## Service-path replay, again");
  });
});
