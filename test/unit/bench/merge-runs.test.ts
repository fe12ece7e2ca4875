import { describe, expect, it } from "vitest";
import { type BenchResults, mergeRuns } from "../../../bench/results";

/**
 * A full benchmark run in two halves (the HTTP scenarios, then the runners) rendered as one page: only
 * two runs of one commit, each half from its own run.
 */
function run(commit: string, overrides: Partial<BenchResults> = {}): BenchResults {
  return {
    schemaVersion: 1,
    generatedAt: "2026-12-01T17:00:00.000Z",
    smoke: false,
    source: { commit, uncommittedFiles: 0 },
    machine: {} as BenchResults["machine"],
    settings: {} as BenchResults["settings"],
    rateLimits: {} as BenchResults["rateLimits"],
    targets: [],
    scenarios: [],
    statusCounts: {},
    pending: [],
    warnings: [],
    ...overrides,
  };
}

const runners = { warnings: [], bulkTrack: { references: 50 } } as unknown as BenchResults["runners"];

describe("two runs of one commit rendered as one", () => {
  it("takes the scenarios of the first and the runners of the second, with both runs' warnings and answers", () => {
    const scenarios = [{ id: "v1-carriers" }] as unknown as BenchResults["scenarios"];
    const merged = mergeRuns(
      run("abc1234", {
        scenarios,
        statusCounts: { "quayside-postgres": { "200": 10 } },
        warnings: ["first"],
        source: { commit: "abc1234", uncommittedFiles: 0 },
      }),
      run("abc1234", {
        runners,
        statusCounts: { "quayside-postgres": { "200": 5, "429": 1 } },
        warnings: ["second"],
        source: { commit: "abc1234", uncommittedFiles: 2 },
      }),
    );
    expect(merged.scenarios).toBe(scenarios);
    expect(merged.runners).toBe(runners);
    expect(merged.statusCounts).toEqual({ "quayside-postgres": { "200": 15, "429": 1 } });
    expect(merged.warnings).toEqual(["first", "second"]);
    expect(merged.source).toEqual({ commit: "abc1234", uncommittedFiles: 2 });
  });

  it("refuses runs of two commits, a smoke run, and a second run without runners", () => {
    expect(() => mergeRuns(run("abc1234"), run("def5678", { runners }))).toThrow(/different commits/);
    expect(() => mergeRuns(run("abc1234", { smoke: true }), run("abc1234", { runners }))).toThrow(/smoke/);
    expect(() => mergeRuns(run("abc1234"), run("abc1234"))).toThrow(/no runner results/);
    expect(() => mergeRuns(run("abc1234", { runners }), run("abc1234", { runners }))).toThrow(
      /render it alone/,
    );
  });
});
