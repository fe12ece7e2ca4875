/**
 * Time is injected everywhere (rate windows, refresh gaps, caches, the simulator) so tests can move
 * it to the second. Nothing outside this file calls `Date.now()` for domain decisions.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = Date.now()) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string | number): void {
    this.current = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
