/**
 * At most so many tasks at once, the rest waiting in arrival order (the composition root gives a
 * counting semaphore). Bulk tracking holds its items and their writes to such lanes.
 */
export interface TaskLanes {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * How a bulk request reports exactly which items it saved when the service stops under it.
 *
 * Each item of a batch may write only through its `ItemCommit`: the item enters it once, after the
 * carrier has answered and before its first write. When the service asks the batch to wrap up, every
 * item that has not entered is refused (it will write nothing, whenever its carrier answers) and the
 * batch answers at once with it as interrupted; an item that entered is waited for (its writes are a
 * few statements). So the answer never calls an item saved that was not, nor the reverse.
 */
export class ItemCommit {
  private state: "open" | "committing" | "refused" = "open";
  private leaveLane: (() => void) | undefined;

  /**
   * `writeLanes`: the process's lanes for bulk writes. An item takes one when it enters and keeps it
   * until `leave`, so bulk items never hold more than the lanes' count of database connections
   * (each write is a short transaction of its own) and single requests always find one free.
   */
  constructor(private readonly writeLanes?: TaskLanes) {}

  /**
   * Called before the item's first write; waits for a write lane, and throws `TrackingCutOff` once
   * the batch was wrapped up (also while it waited: such an item has not started writing).
   */
  async enter(): Promise<void> {
    if (this.state === "refused") throw new TrackingCutOff();
    if (this.state === "committing") return;
    if (this.writeLanes) {
      const lanes = this.writeLanes;
      await new Promise<void>((entered) => {
        void lanes.run(() => {
          entered();
          return new Promise<void>((left) => {
            this.leaveLane = left;
          });
        });
      });
      // Refused while it waited (the getter, not `state`: TypeScript keeps the narrowing across await).
      if (this.refused) {
        this.leave();
        throw new TrackingCutOff();
      }
    }
    this.state = "committing";
  }

  /** The item is done (saved, failed or cut off): its write lane goes to the next item. */
  leave(): void {
    this.leaveLane?.();
    this.leaveLane = undefined;
  }

  /** Whether the wrap-up refused the item: one still waiting for its turn must not start. */
  get refused(): boolean {
    return this.state === "refused";
  }

  /** At the wrap-up: true when the item had not started writing, and now never will. */
  refuse(): boolean {
    if (this.state === "committing") return false;
    this.state = "refused";
    return true;
  }
}

/** Thrown inside an item refused at the wrap-up; the batch reports the item as interrupted. */
export class TrackingCutOff extends Error {
  constructor() {
    super("The service was stopping before this item was saved.");
  }
}

/**
 * The item's outcome, or not done when the wrap-up came before it started writing. An item abandoned
 * this way keeps running until its carrier answers, then stops at its commit without writing; a
 * failure on the way (the database closing under it at the end of the shutdown) has nobody left to
 * answer and is dropped.
 */
export function untilCommittedOrWrappedUp<T>(
  item: Promise<T>,
  commit: ItemCommit,
  wrapUp: AbortSignal,
): Promise<{ done: true; outcome: T } | { done: false }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const settle = (value: { done: true; outcome: T } | { done: false }) => {
      answered = true;
      wrapUp.removeEventListener("abort", onWrapUp);
      resolve(value);
    };
    const onWrapUp = () => {
      if (commit.refuse()) settle({ done: false });
    };
    item.then(
      (outcome) => {
        if (!answered) settle({ done: true, outcome });
      },
      (error: unknown) => {
        if (answered) return;
        if (error instanceof TrackingCutOff) settle({ done: false });
        else {
          answered = true;
          wrapUp.removeEventListener("abort", onWrapUp);
          reject(error);
        }
      },
    );
    if (wrapUp.aborted) onWrapUp();
    else wrapUp.addEventListener("abort", onWrapUp, { once: true });
  });
}
