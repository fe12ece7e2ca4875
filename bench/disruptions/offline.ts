/**
 * The corpora through the pure pipeline, without a service: the same figures as the API run, in a
 * second, for working on the rules against the development corpus. The published figures come from
 * the API run (scenario.ts), which serves the items as RSS to a running service.
 */
import { ingestItem, type PipelineState, sweepSilentEvents } from "../../src/domain/disruptions/pipeline";
import type { CorpusItem, FinalDisruption, ItemObservation } from "./metrics";

const DAY = 86_400_000;

export function replayOffline(corpus: readonly CorpusItem[]): {
  observations: ItemObservation[];
  finals: FinalDisruption[];
} {
  const ordered = [...corpus].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  let state: PipelineState = { events: [], seen: [] };
  let next = 1;
  const observations: ItemObservation[] = [];
  for (const item of ordered) {
    const step = ingestItem(
      state,
      {
        sourceId: "aggregated",
        publisher: item.publisher,
        guid: item.guid ?? null,
        link: item.link,
        title: item.title,
        summary: item.summary,
        publishedAt: new Date(item.at),
        categoryPrior: null,
        alertLevel: null,
        authoritative: false,
      },
      () => `event-${next++}`,
    );
    state = step.state;
    const o = step.outcome;
    // A fragment merged into the event: its items are that event's now, as the API shows them.
    if (o.kind === "joined")
      for (const gone of o.absorbed)
        for (const seen of observations) if (seen.disruptionId === gone) seen.disruptionId = o.event.id;
    observations.push(
      o.kind === "joined" || o.kind === "created"
        ? {
            itemId: item.id,
            disruptionId: o.event.id,
            category: o.event.category,
            severity: o.event.severity,
          }
        : { itemId: item.id, disruptionId: null, category: null, severity: null },
    );
  }
  const last = Date.parse(ordered.at(-1)!.at);
  const finals = sweepSilentEvents(state.events, new Date(last + 30 * DAY)).map((e) => ({
    id: e.id,
    category: e.category,
    severity: e.severity,
    status: e.status,
    resolvedAt: e.resolvedAt?.toISOString() ?? null,
    entities: e.entities,
    publishers: e.publishers,
  }));
  return { observations, finals };
}
