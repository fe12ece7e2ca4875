/**
 * The benchmark's `congestion` scenario (issue 36 item 2): a running service's congestion sampler and
 * scorer follow the simulator's world on one manual clock in sampling-interval steps, every watched
 * port (the 60 largest container ports) sampled over HTTP from the simulator's port areas and scored by
 * the service's own schedule (`sampleDue`, `scoreDue`, as the congestion worker calls them), and the
 * board is read after every step. The world's episodes (simulator/world/episodes.ts) are the ground
 * truth: the figures say whether calm ports read calm and episode ports lead the board while their
 * episode runs. Two splits on different world days: `tuning` (the days the score's mapping was
 * calibrated on) and `validation` (measured only). Results to bench/results/<date>-<commit>-congestion.json
 * and docs/congestion-quality.md. `npm run bench -- --scenarios congestion`, or
 * `npx tsx bench/congestion/scenario.ts`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSimulator } from "../../simulator/server";
import { type Episode, episodesBetween } from "../../simulator/world/episodes";
import { disruptionFeedSources } from "../../src/app/disruption-feeds";
import { startServer } from "../../src/app/server";
import { loadConfig } from "../../src/config";
import { CongestionService, SCORE_EVERY_MS } from "../../src/domain/congestion/congestion.service";
import { FeedIngestion } from "../../src/domain/disruptions/ingestion.service";
import { ManualClock } from "../../src/lib/clock";
import { createLogger } from "../../src/observability/logger";
import { createFeedFetcher } from "../../src/upstream/feeds/feed.adapter";
import { SimulatorPortAreaAdapter } from "../../src/upstream/vessels/simulator-port-area.adapter";
import { type CongestionFigures, congestionFigures, type StepBoard } from "./metrics";
import { replayWindow } from "./replay";

export const CONGESTION_ID = "congestion";
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CONGESTION_DOC_PATH = path.join(REPO_ROOT, "docs/congestion-quality.md");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The harness's step: every port's area is sampled once per step, as the service's sampler would. */
export const SAMPLE_EVERY_MS = 3 * HOUR;
/**
 * Whether the world's news is read (reported stoppages lift their ports); `BENCH_CONGESTION_NEWS=off`
 * measures the queue's signals alone, as before issue 36's reported stoppages.
 */
const NEWS = process.env.BENCH_CONGESTION_NEWS !== "off";
/** Days sampled before the measured window, so the baselines hold weeks of the port's own normal. */
const WARM_UP_DAYS = 60;

export interface Split {
  /**
   * `tuning`: the days the score's mapping was calibrated on; `validation`: measured only (the
   * validation typhoon was looked at while refining the end rules, so it no longer is); `held-out`: an
   * episode added after the rules were fixed and measured once, never tuned on.
   */
  split: "tuning" | "validation" | "held-out";
  name: string;
  /** The measured window (readings from `from` to `to`). */
  from: string;
  to: string;
}

/**
 * Windows around the world's port episodes. Tuning: the October 2026 typhoon (3 days) and the November
 * strike at Antwerp; the mapping from z to score was chosen looking at these only. Validation: the next
 * cycle of the world's calendar, a typhoon of another length and start hour (4 days, January 2027) and a
 * strike at another port (Rotterdam, February 2027).
 */
export const SPLITS: readonly Split[] = [
  { split: "tuning", name: "typhoon-2026-10", from: "2026-10-12T00:00:00Z", to: "2026-10-22T00:00:00Z" },
  { split: "tuning", name: "strike-2026-11", from: "2026-11-10T00:00:00Z", to: "2026-11-19T00:00:00Z" },
  { split: "validation", name: "typhoon-2027-01", from: "2027-01-11T00:00:00Z", to: "2027-01-21T00:00:00Z" },
  { split: "validation", name: "strike-2027-02", from: "2027-02-09T00:00:00Z", to: "2027-02-18T00:00:00Z" },
  // Issue 36: the world's one-off typhoon at Kaohsiung and Xiamen (episodes.ts ONE_OFF_EPISODES), added
  // with the reopening-by-berthing rule fixed and measured as it came.
  { split: "held-out", name: "typhoon-2027-03", from: "2027-03-20T00:00:00Z", to: "2027-03-30T00:00:00Z" },
];

export interface SplitRun {
  split: Split;
  warmUpFrom: string;
  episodes: { id: string; kind: string; ports: string[]; start: string; end: string }[];
  figures: CongestionFigures;
  seconds: number;
}

export interface CongestionResult {
  scenario: typeof CONGESTION_ID;
  at: string;
  commit: string;
  path: CongestionPath;
  sampleEveryHours: number;
  scoreEveryHours: number;
  /** Whether the world's news was read (reported stoppages); absent in results before it was. */
  news?: boolean;
  splits: SplitRun[];
}

/** Which path produced the figures: the running service, or the in-process replay of its arithmetic. */
export type CongestionPath = "service" | "replay";

/** One window through the replay (replay.ts): seconds instead of many minutes. */
export function replaySplit(split: Split): SplitRun {
  const started = Date.now();
  const from = Date.parse(split.from);
  const to = Date.parse(split.to);
  const warmUpFrom = from - WARM_UP_DAYS * DAY;
  const boards = replayWindow({
    warmUpFrom,
    from,
    to,
    stepMs: SAMPLE_EVERY_MS,
    scoreEveryMs: SCORE_EVERY_MS,
    news: NEWS,
  });
  return splitRun(split, warmUpFrom, boards, started);
}

function splitRun(split: Split, warmUpFrom: number, boards: StepBoard[], started: number): SplitRun {
  const from = Date.parse(split.from);
  const to = Date.parse(split.to);
  const episodes = episodesBetween(warmUpFrom, to).filter((e) => e.ports.length > 0);
  return {
    split,
    warmUpFrom: new Date(warmUpFrom).toISOString(),
    episodes: episodes.map((e: Episode) => ({
      id: e.id,
      kind: e.kind,
      ports: [...e.ports],
      start: e.start.toISOString(),
      end: e.end.toISOString(),
    })),
    figures: congestionFigures(boards, episodes, { from, to, intervalMs: SAMPLE_EVERY_MS }),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/** One split: a fresh service and database, the world followed from the warm-up to the window's end. */
export async function runSplit(split: Split, log: (line: string) => void = () => {}): Promise<SplitRun> {
  const started = Date.now();
  const from = Date.parse(split.from);
  const to = Date.parse(split.to);
  const warmUpFrom = from - WARM_UP_DAYS * DAY;
  const clock = new ManualClock(new Date(warmUpFrom));
  const simulator = await startSimulator({ port: 0, clock });
  const config = loadConfig({
    PORT: "0",
    QUAYSIDE_DEMO: "false",
    QUAYSIDE_SIMULATOR: "off",
    QUAYSIDE_WORKERS: "off",
    QUAYSIDE_DATA_DIR: "memory://",
    QUAYSIDE_LOG_LEVEL: "error",
  });
  const logger = createLogger("error", process.stderr);
  const app = await startServer(config, { clock, logger });
  try {
    const congestion = new CongestionService({
      prisma: app.services.db.prisma,
      clock,
      logger,
      areaSources: [new SimulatorPortAreaAdapter(simulator.url, { clock })],
      sampleEveryMs: SAMPLE_EVERY_MS,
    });
    await congestion.ensureWatched();
    // The world's news, read as `npm start` reads it (the simulator's feeds, every step): reported
    // closures and strikes lift their ports (src/domain/congestion/reported-stoppages.ts).
    const news = NEWS
      ? new FeedIngestion({
          prisma: app.services.db.prisma,
          clock,
          fetcher: createFeedFetcher({
            timeoutMs: 10_000,
            maxBytes: 2_000_000,
            userAgent: "Quayside bench",
            clock,
          }),
          disruptions: app.services.disruptions,
          sources: disruptionFeedSources(
            loadConfig({ QUAYSIDE_DISRUPTION_FEEDS: "simulator" }),
            simulator.url,
          ),
          intervalMs: SAMPLE_EVERY_MS,
        })
      : null;
    await news?.syncSources();
    const boards: StepBoard[] = [];
    for (let t = warmUpFrom; t < to; t += SAMPLE_EVERY_MS) {
      clock.set(new Date(t));
      await news?.tick();
      await congestion.sampleDue(1000);
      // The warm-up only needs each day's signals closed (scoring at midnight closes yesterday's):
      // scoring every step of it would cost minutes and change no baseline.
      if (t < from && new Date(t).getUTCHours() !== 0) continue;
      await congestion.scoreDue(1000);
      if (t < from) continue;
      const board = await congestion.board();
      boards.push({
        at: t,
        items: board.map((b) => ({
          locode: b.locode,
          score: b.score,
          bucket: b.bucket,
          computedAt: b.computedAt.getTime(),
          vesselsWaiting: b.vesselsWaiting,
          z: Object.fromEntries(b.components.map((c) => [c.name, c.z])),
        })),
      });
      if (new Date(t).getUTCHours() === 0) log(`  ${split.name} ${new Date(t).toISOString().slice(0, 10)}`);
    }
    return splitRun(split, warmUpFrom, boards, started);
  } finally {
    await app.stop();
    await simulator.close();
  }
}

export async function runCongestion(
  commit: string,
  options: { windows?: readonly string[]; log?: (line: string) => void; path?: CongestionPath } = {},
): Promise<CongestionResult> {
  const runs: SplitRun[] = [];
  const via = options.path ?? "replay";
  for (const split of SPLITS) {
    if (options.windows && !options.windows.includes(split.name)) continue;
    runs.push(via === "service" ? await runSplit(split, options.log) : replaySplit(split));
    options.log?.(congestionConsoleLines({ splits: [runs.at(-1)!] } as CongestionResult)[0]!);
  }
  return {
    scenario: CONGESTION_ID,
    path: via,
    at: new Date().toISOString(),
    commit,
    sampleEveryHours: SAMPLE_EVERY_MS / HOUR,
    scoreEveryHours: SCORE_EVERY_MS / HOUR,
    news: NEWS,
    splits: runs,
  };
}

const share = (v: number | null) => (v === null ? "n/a" : v.toFixed(3));
const met = (ok: boolean) => (ok ? "met" : "**not met**");

/** docs/congestion-quality.md, generated from a result (never edited by hand). */
export function renderCongestionPage(result: CongestionResult, resultsFile: string): string {
  const lines = [
    "# Port congestion quality",
    "",
    `Generated by the benchmark harness (\`npm run bench -- --scenarios congestion\`) from \`${resultsFile}\`, commit \`${result.commit}\`, ${result.at.slice(0, 10)}. Do not edit by hand.`,
    "",
    (result.path === "service"
      ? `A running service's congestion sampler and scorer follow the simulator's world on one manual clock in ${result.sampleEveryHours}-hour steps (the sampling interval): every watched port (the 60 largest container ports) is sampled over HTTP from the simulator's port areas and scored on the service's own schedule (\`sampleDue\` and \`scoreDue\`, as the congestion worker calls them; a port is scored every ${result.scoreEveryHours} hours, sooner when its anchorage moves), and the board is read after every step.`
      : `The service's congestion arithmetic follows the simulator's world on one manual clock in ${result.sampleEveryHours}-hour steps (the sampling interval), replayed in process (\`bench/congestion/replay.ts\`): at each step every watched port's area (the 60 largest container ports) is read as the simulator's \`GET /vessels/area\` answers it and mapped as the service's adapter maps it, turned into waits and arrivals by the sampler's rules, and each port is scored every ${result.scoreEveryHours} hours with the service's own \`daySignals\` and \`scorePort\`; the board (score, then UN/LOCODE) is read after every step. The replay leaves out the database, HTTP and the lease-based schedule, which cost minutes per simulated day on PGlite; \`BENCH_CONGESTION_PATH=service\` runs the same windows through a running service instead.`) +
      ` Each split starts from an empty database ${WARM_UP_DAYS} days before its window, so the baselines hold weeks of each port's own normal. The world's episodes (\`simulator/world/episodes.ts\`) are the ground truth. The signals behind these readings are the ones the AIS areas give (anchorage wait, bunching): no shipment is tracked in this run, so dwell, ETA slip and schedule deviation are absent and the weights are renormalised over the two, as for a port no customer ships to.` +
      (result.news
        ? ` The world's news is read as \`npm start\` reads it: each simulator publisher's feed at every step, through the service's feed mapper and disruption pipeline${result.path === "service" ? "" : " (in memory)"}; a port named by an active closure or strike report reads at least \`critical\` (severity 4) or \`high\` (3) and is scored at that step; a reported closure ends, before its news does, at the first sampling that sees a ship that anchored after the closure report alongside (its berthing has resumed; strikes end with their news only); once it ends, for 48 hours and while the queue has not grown anew past its size at that end, the queue the stoppage left is read as a backlog clearing (its anchorage wait and bunching leave the composite) rather than as congestion (\`src/domain/congestion/reported-stoppages.ts\`). The split \`held-out\` is an episode added to the world after those rules were fixed (\`ONE_OFF_EPISODES\` in \`simulator/world/episodes.ts\`) and measured as it came. \`BENCH_CONGESTION_NEWS=off\` measures the queue's signals alone.`
        : " The news is not read in this run (`BENCH_CONGESTION_NEWS=off`): the queue's signals alone."),
    "",
    "How each figure is read:",
    "",
    "- **calm readings**: every board reading of a port with no episode in the world from the warm-up to the window's end; the share in `normal` or `fluid`.",
    "- **episode readings**: every board reading from an episode's start plus one sampling interval to its end, of each port the episode touches; the share where the port is among the top 3 of the board (ties broken as the board breaks them, by UN/LOCODE).",
    "- **gone after the end**: whether, one sampling interval after the episode's end, the port is out of the top 3; and the hours until it reads `normal` or `fluid` again.",
    "- **the queue after the end**: the most ships waiting at the port during the episode, and the hours after the end until at most a quarter of them still wait (the world berths a closed port's queue over the 48 hours after it reopens, `simulator/world/anchorage.ts`): what the queue alone would keep on the board, and what the clearing rule judges instead.",
    "",
    "The canal restriction episodes touch no port (ships pass a restricted canal later; no port closes), so they have no port readings to judge.",
    "",
  ];
  for (const run of result.splits) {
    const f = run.figures;
    lines.push(
      `## ${run.split.name} (${run.split.split}): ${run.split.from.slice(0, 10)} to ${run.split.to.slice(0, 10)}`,
      "",
      `Warm-up from ${run.warmUpFrom.slice(0, 10)}; ${f.steps} board readings; ${run.seconds} s.`,
      "",
      "| figure | value | target | |",
      "|---|---|---|---|",
      `| calm ports' readings in \`normal\` or \`fluid\` | ${share(f.calmShare)} (${f.calmCalmReadings} of ${f.calmReadings}; lowest port ${f.calmWorstPort ?? "n/a"} ${share(f.calmWorstShare)}) | >= 0.9 | ${met((f.calmShare ?? 0) >= 0.9)} |`,
      `| episode ports in the top 3, from start + 1 interval to the end | ${share(f.episodeTop3Share)} (${f.episodeTop3Readings} of ${f.episodeReadings}) | every reading (1.000) | ${met(f.episodeReadings > 0 && f.episodeTop3Readings === f.episodeReadings)} |`,
      `| episode ports out of the top 3 one interval after the end | ${f.goneAfterEnd} of ${f.episodePorts} | all | ${met(f.episodePorts > 0 && f.goneAfterEnd === f.episodePorts)} |`,
      `| highest calm score | ${f.calmMaxScore ?? "n/a"} (${f.calmMaxPort ?? ""}) | | |`,
      "",
      "| episode | port | start | end | first reading in the top 3 | readings in the top 3 (start + 1 interval to end) | highest score | out of the top 3 after the end | back to normal/fluid after the end | most ships waiting | queue down to a quarter of that after the end |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
      ...f.episodes.map(
        (e) =>
          `| ${e.id} | ${e.port} | ${e.start.slice(0, 16)} | ${e.end.slice(0, 16)} | ${e.hoursToTop3 === null ? "never" : `+${e.hoursToTop3} h`} | ${e.top3Readings} of ${e.readings} | ${e.maxScore ?? "n/a"} | ${e.hoursOutOfTop3AfterEnd === null ? "not in the window" : `+${e.hoursOutOfTop3AfterEnd} h`} | ${e.hoursCalmAfterEnd === null ? "not in the window" : `+${e.hoursCalmAfterEnd} h`} | ${e.peakVesselsWaiting ?? "n/a"} | ${e.hoursQueueClearedAfterEnd === null || e.hoursQueueClearedAfterEnd === undefined ? "not in the window" : `+${e.hoursQueueClearedAfterEnd} h`} |`,
      ),
      "",
    );
  }
  return lines.join("\n");
}

export function writeCongestion(result: CongestionResult, resultsDir: string, stamp: string): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${stamp}-congestion.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(CONGESTION_DOC_PATH, renderCongestionPage(result, path.relative(REPO_ROOT, file)));
  return file;
}

/** Console lines: the targets per split. */
export function congestionConsoleLines(result: CongestionResult): string[] {
  return result.splits.map((run) => {
    const f = run.figures;
    return `congestion ${run.split.name} (${run.split.split}): calm normal/fluid ${share(f.calmShare)} (target 0.9), episode ports in top 3 ${share(f.episodeTop3Share)} (target 1), out of top 3 one interval after the end ${f.goneAfterEnd} of ${f.episodePorts}; ${run.seconds} s`;
  });
}

// Run alone: `npx tsx bench/congestion/scenario.ts [window names...]` (all windows by default).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { execFileSync } = await import("node:child_process");
  const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  const only = process.argv.slice(2);
  if (only[0] === "--merge") {
    // Windows run as separate processes (each dumped with BENCH_CONGESTION_DUMP), written as one run.
    const { readFileSync } = await import("node:fs");
    const parts = only.slice(1).map((f) => JSON.parse(readFileSync(f, "utf8")) as CongestionResult);
    const merged: CongestionResult = {
      ...parts[0]!,
      commit,
      splits: SPLITS.flatMap((w) => parts.flatMap((p) => p.splits).filter((r) => r.split.name === w.name)),
    };
    for (const line of congestionConsoleLines(merged)) console.log(line);
    const stamp = `${merged.at.slice(0, 10)}-${commit.slice(0, 7)}`;
    const file = writeCongestion(merged, path.join(REPO_ROOT, "bench/results"), stamp);
    console.log(`${path.relative(REPO_ROOT, file)} and docs/congestion-quality.md written`);
    process.exit(0);
  }
  const result = await runCongestion(commit, {
    windows: only.length > 0 ? only : undefined,
    path: process.env.BENCH_CONGESTION_PATH === "service" ? "service" : "replay",
    log: (line) => console.log(line),
  });
  for (const line of congestionConsoleLines(result)) console.log(line);
  if (process.env.BENCH_CONGESTION_DUMP) {
    writeFileSync(process.env.BENCH_CONGESTION_DUMP, JSON.stringify(result, null, 2));
  } else if (only.length === 0) {
    const stamp = `${new Date().toISOString().slice(0, 10)}-${commit.slice(0, 7)}`;
    const file = writeCongestion(result, path.join(REPO_ROOT, "bench/results"), stamp);
    console.log(`${path.relative(REPO_ROOT, file)} and docs/congestion-quality.md written`);
  }
  process.exit(0);
}
