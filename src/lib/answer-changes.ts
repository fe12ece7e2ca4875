/**
 * Writes that feed answers say so here, after their transaction committed and before they are
 * acknowledged; the answer cache (src/graphql/answer-cache.ts) drops every kept answer that holds
 * what changed. With Redis the answers live there, so a write in one process drops them for all.
 *
 * A listener per answer cache in the process (a test process may run several apps). Saying too much
 * changed only costs misses; saying too little would serve a stale answer, so when in doubt a write
 * names the organisation.
 */
export interface AnswerChange {
  /** Shipments whose stored facts changed (a version, terminal facts, a prediction, a match, PATCH). */
  shipments?: readonly { id: string; organizationId: string }[];
  /** Boxes whose terminal record changed (terminal answers and carrier signals are kept per box). */
  containers?: readonly string[];
  /** Carrier documents with a new version or a new confirmation (`last_synced_at`). */
  documents?: readonly string[];
  /**
   * Organisations whose every answer may have changed: a shipment tracked or deleted (pages and
   * totals), contract terms, plan or feature switches.
   */
  organizations?: readonly string[];
  /**
   * GraphQL types without an id whose data changed for everyone (`PortCongestion` when a port is
   * scored): every kept answer holding one, or null where one could be, is dropped.
   */
  types?: readonly string[];
  /** Something every organisation's answers read changed (published tariffs, the carrier directory). */
  everything?: boolean;
}

type Listener = (change: AnswerChange) => Promise<void>;

const listeners = new Set<Listener>();

export function onAnswersChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Drops the answers `change` touches in every answer cache; resolves once they are gone. */
export async function answersChanged(change: AnswerChange): Promise<void> {
  if (listeners.size === 0) return;
  await Promise.all([...listeners].map((listener) => listener(change)));
}
