/**
 * Runs the work given for one key one after another, in the order it came, and work for different
 * keys side by side. A caller waits here, in memory, instead of holding one of the database pool's
 * connections while it waits for a lock another request of the same key holds: a burst of one
 * organisation's new shipments once held every connection of a process waiting for its slot lock,
 * and the requests behind them found no connection within the pool's wait (answered 503).
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    // The key's tail settles whatever this work does, so one failure never blocks the key.
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return mine;
  }
}
