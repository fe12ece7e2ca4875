/**
 * The congestion scenario's figures from the boards read after every step and the world's episodes
 * (pure, so the page and a unit test read the same arithmetic).
 */
import type { Episode } from "../../simulator/world/episodes";

const HOUR = 3_600_000;

export interface StepItem {
  locode: string;
  score: number;
  bucket: string;
  computedAt: number;
  vesselsWaiting: number;
  z: Record<string, number>;
}

/** The board as read at one step, most congested first (the board's own order). */
export interface StepBoard {
  at: number;
  items: StepItem[];
}

export interface EpisodeFigures {
  id: string;
  port: string;
  start: string;
  end: string;
  /** Readings from start + 1 interval to the end, and those with the port in the top 3. */
  readings: number;
  top3Readings: number;
  /** Hours from the start to the first reading with the port in the top 3; null if never. */
  hoursToTop3: number | null;
  maxScore: number | null;
  /** Hours from the end to the first reading with the port out of the top 3; null past the window. */
  hoursOutOfTop3AfterEnd: number | null;
  /** Hours from the end to the first reading in `normal` or `fluid`; null past the window. */
  hoursCalmAfterEnd: number | null;
  /** The most ships waiting at the port on a reading from the start to the end. */
  peakVesselsWaiting: number | null;
  /**
   * Hours from the end to the first reading with at most a quarter of that peak still waiting (or off
   * the board): when the queue the episode left has cleared, which the score can follow no sooner.
   */
  hoursQueueClearedAfterEnd: number | null;
}

export interface CongestionFigures {
  steps: number;
  calmReadings: number;
  calmCalmReadings: number;
  calmShare: number | null;
  calmWorstPort: string | null;
  calmWorstShare: number | null;
  calmMaxScore: number | null;
  calmMaxPort: string | null;
  episodeReadings: number;
  episodeTop3Readings: number;
  episodeTop3Share: number | null;
  /** Episode ports out of the top 3 one interval after their episode's end. */
  goneAfterEnd: number;
  episodePorts: number;
  episodes: EpisodeFigures[];
}

const CALM = new Set(["normal", "fluid"]);

export function congestionFigures(
  boards: readonly StepBoard[],
  episodes: readonly Episode[],
  window: { from: number; to: number; intervalMs: number },
): CongestionFigures {
  const touched = new Set(episodes.flatMap((e) => e.ports));
  let calmReadings = 0;
  let calmCalm = 0;
  let calmMax: { score: number; port: string } | null = null;
  const perPort = new Map<string, { n: number; calm: number }>();
  for (const board of boards) {
    for (const item of board.items) {
      if (touched.has(item.locode)) continue;
      calmReadings++;
      const port = perPort.get(item.locode) ?? { n: 0, calm: 0 };
      port.n++;
      if (CALM.has(item.bucket)) {
        calmCalm++;
        port.calm++;
      }
      perPort.set(item.locode, port);
      if (!calmMax || item.score > calmMax.score) calmMax = { score: item.score, port: item.locode };
    }
  }
  let worst: { port: string; share: number } | null = null;
  for (const [port, { n, calm }] of perPort) {
    if (!worst || calm / n < worst.share) worst = { port, share: calm / n };
  }
  const rankOf = (board: StepBoard, port: string) => board.items.findIndex((i) => i.locode === port);
  const inTop3 = (board: StepBoard, port: string) => {
    const rank = rankOf(board, port);
    return rank >= 0 && rank < 3;
  };
  const figures: EpisodeFigures[] = [];
  for (const episode of episodes) {
    const start = episode.start.getTime();
    const end = episode.end.getTime();
    if (start < window.from || start >= window.to) continue;
    for (const port of episode.ports) {
      const during = boards.filter((b) => b.at >= start + window.intervalMs && b.at < end);
      const top3 = during.filter((b) => inTop3(b, port));
      const firstTop3 = boards.find((b) => b.at >= start && inTop3(b, port));
      const scores = boards
        .filter((b) => b.at >= start && b.at < end)
        .map((b) => b.items.find((i) => i.locode === port)?.score)
        .filter((s): s is number => s !== undefined);
      const after = boards.filter((b) => b.at >= end);
      const out = after.find((b) => !inTop3(b, port));
      const calm = after.find((b) => {
        const item = b.items.find((i) => i.locode === port);
        return !item || CALM.has(item.bucket);
      });
      const waiting = boards
        .filter((b) => b.at >= start && b.at < end)
        .map((b) => b.items.find((i) => i.locode === port)?.vesselsWaiting)
        .filter((w): w is number => w !== undefined);
      const peak = waiting.length > 0 ? Math.max(...waiting) : null;
      const cleared =
        peak === null
          ? undefined
          : after.find((b) => (b.items.find((i) => i.locode === port)?.vesselsWaiting ?? 0) <= peak / 4);
      figures.push({
        id: episode.id,
        port,
        start: episode.start.toISOString(),
        end: episode.end.toISOString(),
        readings: during.length,
        top3Readings: top3.length,
        hoursToTop3: firstTop3 ? (firstTop3.at - start) / HOUR : null,
        maxScore: scores.length > 0 ? Math.max(...scores) : null,
        hoursOutOfTop3AfterEnd: out ? (out.at - end) / HOUR : null,
        hoursCalmAfterEnd: calm ? (calm.at - end) / HOUR : null,
        peakVesselsWaiting: peak,
        hoursQueueClearedAfterEnd: cleared ? (cleared.at - end) / HOUR : null,
      });
    }
  }
  const episodeReadings = figures.reduce((sum, e) => sum + e.readings, 0);
  const episodeTop3 = figures.reduce((sum, e) => sum + e.top3Readings, 0);
  return {
    steps: boards.length,
    calmReadings,
    calmCalmReadings: calmCalm,
    calmShare: calmReadings > 0 ? calmCalm / calmReadings : null,
    calmWorstPort: worst?.port ?? null,
    calmWorstShare: worst?.share ?? null,
    calmMaxScore: calmMax?.score ?? null,
    calmMaxPort: calmMax?.port ?? null,
    episodeReadings,
    episodeTop3Readings: episodeTop3,
    episodeTop3Share: episodeReadings > 0 ? episodeTop3 / episodeReadings : null,
    goneAfterEnd: figures.filter(
      (e) => e.hoursOutOfTop3AfterEnd !== null && e.hoursOutOfTop3AfterEnd <= window.intervalMs / HOUR,
    ).length,
    episodePorts: figures.length,
    episodes: figures,
  };
}
