import { AsyncLocalStorage } from "node:async_hooks";

/**
 * An `AsyncLocalStorage` that is switched off whenever none of its runs is in flight. On Node 20 an
 * enabled `AsyncLocalStorage` keeps the process's promise hooks on, and every promise made anywhere
 * then pays for carrying the store, also long after the last run: an `await` loop ran 2.5 times
 * slower, and a kept compat answer spent 3 to 4 % of its CPU there (issue 37's profile), although
 * the stores (an answer being built for the cache, a write gathering its changes) live only for their
 * runs. Off between runs, the hooks cost nothing on the read path; a store is never needed outside
 * its run, since what reads it (the clock's watch, a change announced) is awaited inside it.
 */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  /** Runs `fn` with `store` as the store of everything it awaits. */
  async run<R>(store: T, fn: () => Promise<R>): Promise<R> {
    this.running++;
    try {
      return await this.storage.run(store, fn);
    } finally {
      this.running--;
      if (this.running === 0) this.storage.disable();
    }
  }

  /** Runs `fn` outside the current store (what it starts does not belong to the run). */
  exit<R>(fn: () => R): R {
    return this.storage.exit(fn);
  }

  /** The store of the run this async path belongs to, if any is in flight. */
  getStore(): T | undefined {
    return this.running === 0 ? undefined : this.storage.getStore();
  }
}
