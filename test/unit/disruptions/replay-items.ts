import type { FeedItem } from "../../../src/domain/disruptions/normalise";
import { type IngestOutcome, ingestItem, type PipelineState } from "../../../src/domain/disruptions/pipeline";

export const DAY = 86_400_000;

/** One news item of a test, `day` days after the replay's start. */
export interface NewsRow {
  day: number;
  publisher: string;
  title: string;
  summary: string;
}

/** Runs news items through the pure pipeline one by one, as ingestion does, from `start`. */
export function replayItems(rows: readonly NewsRow[], start: number) {
  let state: PipelineState = { events: [], seen: [] };
  let next = 1;
  const outcomes: IngestOutcome[] = [];
  for (const [i, row] of rows.entries()) {
    const item: FeedItem = {
      sourceId: "test",
      publisher: row.publisher,
      guid: `g-${i}`,
      link: `https://news.example/${i}`,
      title: row.title,
      summary: row.summary,
      publishedAt: new Date(start + row.day * DAY),
    };
    const step = ingestItem(state, item, () => `event-${next++}`);
    state = step.state;
    outcomes.push(step.outcome);
  }
  return { state, outcomes };
}

/** The event an item joined or made, or null when it was refused. */
export const eventOf = (o: IngestOutcome) => ("event" in o ? o.event.id : null);
