/**
 * Where start-up time goes, phase by phase, so a slow restart can be read from one log line
 * ("Started": `phases` in milliseconds, `beforeStartMs` the time Node spent loading modules before
 * the composition root ran). Uses the monotonic clock: the injected clock may be frozen in tests.
 */
export class StartupPhases {
  private readonly started = performance.now();
  private last = this.started;
  private readonly phases: Record<string, number> = {};

  /** Ends the phase running since the previous mark (or the start) under `name`. */
  mark(name: string): void {
    const now = performance.now();
    this.phases[name] = Math.round(now - this.last);
    this.last = now;
  }

  summary(): { totalMs: number; beforeStartMs: number; phases: Record<string, number> } {
    return {
      totalMs: Math.round(performance.now()),
      beforeStartMs: Math.round(this.started),
      phases: { ...this.phases },
    };
  }
}
