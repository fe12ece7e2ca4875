import type { Clock } from "./clock";
import { ScopedStorage } from "./scoped-storage";

/**
 * What an answer being built for the answer cache depends on besides stored data: whether anything
 * read the clock while building it, and the earliest instant at which a clock-dependent fact in it
 * changes (a port's midnight for D&D's days remaining, a shipment's refresh eligibility, ...).
 *
 * The answer cache (src/graphql/answer-cache.ts) keeps an answer until that instant. An answer that
 * read the clock once more than it said until when its readings hold is not kept at all: a field
 * added later that reads the clock cannot make the cache serve a stale answer, only a miss.
 */
export interface AnswerScope {
  clockReads: number;
  /** Clock reads whose fact said until when it holds (`answerValidUntil`). */
  covered: number;
  /** Epoch milliseconds; Infinity while nothing said when it changes. */
  validUntil: number;
  /**
   * Entities read while building the answer that it does not show with their id (a document a
   * D&D assessment read, for example): the answer is dropped when one of them changes too.
   */
  reads: Set<string>;
  /** Something in the answer said it must not be kept (`answerNotKept`). */
  notKept: boolean;
}

const scopes = new ScopedStorage<AnswerScope>();

/** Runs `build` with a fresh scope and returns what it read with the result. */
export async function inAnswerScope<T>(build: () => Promise<T>): Promise<{ result: T; scope: AnswerScope }> {
  const scope: AnswerScope = {
    clockReads: 0,
    covered: 0,
    validUntil: Number.POSITIVE_INFINITY,
    reads: new Set(),
    notKept: false,
  };
  const result = await scopes.run(scope, build);
  return { result, scope };
}

/** The scope of the answer being built on this async path, if the cache is building one. */
export function currentAnswerScope(): AnswerScope | undefined {
  return scopes.getStore();
}

/**
 * A fact computed from `reads` clock reads holds until `instant` (null: for good): the answer
 * carrying it may be kept until then. Called next to the read by the code that knows the boundary
 * (the core, never a facade); outside a cached answer it does nothing. An answer is kept only when
 * every clock read made while building it was covered so.
 */
export function answerValidUntil(instant: Date | number | null, reads = 1): void {
  const scope = scopes.getStore();
  if (!scope) return;
  scope.covered += reads;
  if (instant === null) return;
  const at = typeof instant === "number" ? instant : instant.getTime();
  if (at < scope.validUntil) scope.validUntil = at;
}

/**
 * The answer being built must not be kept: it says "not here", and the write that changes that need
 * not touch anything it holds (a store that cannot answer yet is answered by `track` next).
 */
export function answerNotKept(): void {
  const scope = scopes.getStore();
  if (scope) scope.notKept = true;
}

/** The answer being built read `typename` `id` (as `answersChanged` names it when it changes). */
export function answerReads(typename: string, id: string): void {
  scopes.getStore()?.reads.add(`${typename}:${id}`);
}

/**
 * The clock every service gets: the same time, but a read made while an answer is being built for
 * the cache is counted, so an answer whose content moved with the clock is never kept by accident.
 * Outside every answer's scope the cost is a counter's read (the storage is off then).
 */
export function watchedClock(clock: Clock): Clock & { unwatched: Clock } {
  return {
    unwatched: clock,
    now() {
      const scope = scopes.getStore();
      if (scope) scope.clockReads++;
      return clock.now();
    },
  };
}
