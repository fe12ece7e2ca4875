import { ScopedStorage } from "./scoped-storage";

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
   * Carrier subscriptions created, accepted, renewed, lost, pushed to or removed, by reference
   * (`<scac>|<reference type>|<reference key>`): the carrier push a shipment shows.
   */
  subscriptions?: readonly string[];
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

interface Registered {
  listener: Listener;
  /** Hears a write's changes once, gathered, when the write is done (see `asOneWrite`). */
  oncePerWrite: boolean;
}

const listeners = new Set<Registered>();

/** The changes announced so far inside the current `asOneWrite`, for its once-per-write listeners. */
const write = new ScopedStorage<AnswerChange[]>();

/**
 * `oncePerWrite`: the listener recomputes facts from what changed (a shipment's free time), so inside
 * `asOneWrite` it hears the write's changes once, merged, at its end, instead of after each step (a
 * track stores a version, each box's terminal record and a prediction: its free time was computed
 * four times). Outside one it hears each change as it comes.
 */
export function onAnswersChanged(listener: Listener, options: { oncePerWrite?: boolean } = {}): () => void {
  const registered = { listener, oncePerWrite: options.oncePerWrite ?? false };
  listeners.add(registered);
  return () => listeners.delete(registered);
}

/**
 * Drops the answers `change` touches in every answer cache; resolves once they are gone. `derived`:
 * the change is facts recomputed from other changes (free time), which the listeners that recompute
 * facts do not hear again.
 */
export async function answersChanged(
  change: AnswerChange,
  options: { derived?: boolean } = {},
): Promise<void> {
  if (listeners.size === 0) return;
  const gathered = options.derived ? undefined : write.getStore();
  gathered?.push(change);
  await Promise.all(
    [...listeners]
      .filter((l) => !(l.oncePerWrite && (gathered || options.derived)))
      .map((l) => l.listener(change)),
  );
}

/**
 * Runs one write of several steps (a track: the version, the terminal records, the shipment, the
 * prediction). Answer caches still hear each step as it commits; the once-per-write listeners hear
 * the steps' changes merged when `run` settles (failed too: what committed before the failure
 * changed), before the write is acknowledged. A write inside another is part of it.
 */
export async function asOneWrite<T>(run: () => Promise<T>): Promise<T> {
  if (write.getStore()) return run();
  const gathered: AnswerChange[] = [];
  try {
    return await write.run(gathered, run);
  } finally {
    if (gathered.length > 0) {
      const merged = mergeChanges(gathered);
      // Outside the write: what the listeners announce in turn goes out at once.
      await write.exit(() =>
        Promise.all([...listeners].filter((l) => l.oncePerWrite).map((l) => l.listener(merged))),
      );
    }
  }
}

function mergeChanges(changes: readonly AnswerChange[]): AnswerChange {
  const shipments = new Map<string, { id: string; organizationId: string }>();
  const containers = new Set<string>();
  const documents = new Set<string>();
  const subscriptions = new Set<string>();
  const organizations = new Set<string>();
  const types = new Set<string>();
  let everything = false;
  for (const change of changes) {
    for (const shipment of change.shipments ?? []) shipments.set(shipment.id, shipment);
    for (const box of change.containers ?? []) containers.add(box);
    for (const document of change.documents ?? []) documents.add(document);
    for (const key of change.subscriptions ?? []) subscriptions.add(key);
    for (const organization of change.organizations ?? []) organizations.add(organization);
    for (const type of change.types ?? []) types.add(type);
    everything ||= change.everything ?? false;
  }
  return {
    ...(shipments.size > 0 && { shipments: [...shipments.values()] }),
    ...(containers.size > 0 && { containers: [...containers] }),
    ...(documents.size > 0 && { documents: [...documents] }),
    ...(subscriptions.size > 0 && { subscriptions: [...subscriptions] }),
    ...(organizations.size > 0 && { organizations: [...organizations] }),
    ...(types.size > 0 && { types: [...types] }),
    ...(everything && { everything }),
  };
}
