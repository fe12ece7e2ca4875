import type { Logger } from "../observability/logger";
import { inSpan } from "../observability/tracing";

/**
 * Runs `tick` every `intervalMs`, never overlapping itself; when a tick found a full batch it runs
 * again at once, so a backlog drains without waiting for the clock. `stop` aborts the tick's signal
 * and waits for it: a batch checks the signal between its items, so the item in progress finishes
 * (or is abandoned before it writes) and no new one starts.
 */
export class PeriodicWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly tick: (stop: AbortSignal) => Promise<{ full: boolean }>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.schedule(this.intervalMs);
  }

  /** Runs one tick now (tests and `npm run bench` drive workers this way). */
  async runOnce(): Promise<{ full: boolean }> {
    return this.traced();
  }

  /** A tick is a trace of its own: `job refresh`, `job discovery` ... with its SQL and carrier calls. */
  private traced(): Promise<{ full: boolean }> {
    return inSpan(
      `job ${this.name}`,
      { root: true, attributes: { "quayside.job": this.name } },
      async (span) => {
        const result = await this.tick(this.stopping.signal);
        span?.setAttribute("quayside.job.full_batch", result.full);
        return result;
      },
    );
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.traced()
        .then(
          ({ full }) => this.schedule(full ? 0 : this.intervalMs),
          (error: unknown) => {
            this.logger.error(
              { err: error, worker: this.name },
              "Worker tick failed; retrying on the next tick",
            );
            this.schedule(this.intervalMs);
          },
        )
        .finally(() => {
          this.running = undefined;
        });
    }, delay);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.stopping.abort();
    await this.running;
  }
}
