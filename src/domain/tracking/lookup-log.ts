import type { PrismaClient } from "../../generated/prisma/client";
import type { ReferenceKind } from "../../generated/prisma/enums";

/** One entry of the lookup log (compat `/history`): it references the version served, never a copy. */
export interface LookupEntry {
  organizationId: string;
  apiKeyId: string | null;
  surface: string;
  reference: string;
  referenceType: ReferenceKind;
  referenceKey: string;
  carrierScac: string | null;
  outcome: string;
  fromCache: boolean;
  documentVersionId: string | null;
  createdAt: Date;
}

/** How often logged lookups are written to the database. */
export const LOOKUP_FLUSH_MS = 1_000;

interface Pending {
  entry: LookupEntry;
  number: Promise<number>;
  settle: (number: number) => void;
  fail: (error: unknown) => void;
}

/**
 * Lookups answered from the store are logged without a write on the request's path: entries wait
 * here and are inserted together, every second, before the history is read, when a caller asks for
 * an entry's number, and at shutdown. The per-organisation number is still the trigger's, assigned
 * in the order the entries were logged. An entry waits at most a second; nothing logged is dropped
 * (a failed insert keeps its entries for the next flush).
 */
export class LookupLog {
  private pending: Pending[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly prisma: PrismaClient) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), LOOKUP_FLUSH_MS);
    this.timer.unref();
  }

  /** Logs an entry; its history number, when somebody needs it, comes from `number()`. */
  append(entry: LookupEntry): () => Promise<number> {
    let settle!: (number: number) => void;
    let fail!: (error: unknown) => void;
    const number = new Promise<number>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    // Nobody may ever ask: an unobserved rejection must not end the process.
    number.catch(() => undefined);
    this.pending.push({ entry, number, settle, fail });
    return async () => {
      await this.flush();
      return number;
    };
  }

  /** Inserts every waiting entry in one statement, in the order they were logged. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      const batch = this.pending;
      if (batch.length === 0) return;
      this.pending = [];
      try {
        const rows = await this.prisma.trackingLookup.createManyAndReturn({
          data: batch.map((p) => p.entry),
          select: { number: true },
        });
        // PostgreSQL returns the rows of one INSERT ... VALUES in the order of its VALUES.
        for (const [i, p] of batch.entries()) p.settle(rows[i]!.number);
      } catch (error) {
        this.pending = [...batch, ...this.pending];
        throw error;
      }
    });
    this.flushing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    for (const p of this.pending) p.fail(new Error("the lookup log closed before this entry was written"));
  }
}
