import type { PreparedSql, PreparedStatement } from "../../db/database";
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

/**
 * One INSERT for a whole batch, a parameter per column (`unnest`), whatever the batch's size: at a
 * thousand stored answers a second, Prisma's `createManyAndReturn` compiled a thousand-row plan in
 * WebAssembly every second, the largest cost of a compat answer served from the store after the
 * answer itself. The batch numbers its rows itself, per organisation in the order they were logged:
 * one update of each organisation's counter for the whole batch (the trigger `organization_number`
 * keeps a number a row arrives with; it updated the counter once per row). The counter's row lock
 * holds to the statement's end, so another process's batch or a single lookup numbered by the
 * trigger takes the numbers after these.
 */
const INSERT_LOOKUPS: PreparedStatement = {
  name: "lookup_log_insert_numbered",
  text: `WITH batch AS (
      SELECT u.*,
             row_number() OVER (PARTITION BY u.organization_id ORDER BY u.ord) AS n,
             count(*) OVER (PARTITION BY u.organization_id) AS size
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::"ReferenceKind"[], $6::text[],
                    $7::text[], $8::text[], $9::bool[], $10::text[], $11::timestamp(3)[]) WITH ORDINALITY
          AS u(organization_id, api_key_id, surface, reference, reference_type, reference_key,
               carrier_scac, outcome, from_cache, document_version_id, created_at, ord)
    ), counted AS (
      INSERT INTO organization_counters AS c (organization_id, counter, value)
      SELECT organization_id, 'tracking_lookups', count(*) FROM batch GROUP BY organization_id
      ON CONFLICT (organization_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value
      RETURNING c.organization_id, c.value
    )
    INSERT INTO tracking_lookups (organization_id, api_key_id, surface, reference, reference_type,
      reference_key, carrier_scac, outcome, from_cache, document_version_id, created_at, number)
    SELECT b.organization_id, b.api_key_id, b.surface, b.reference, b.reference_type, b.reference_key,
           b.carrier_scac, b.outcome, b.from_cache, b.document_version_id, b.created_at,
           counted.value - b.size + b.n
      FROM batch b JOIN counted ON counted.organization_id = b.organization_id
     ORDER BY b.ord
    RETURNING organization_id, number`,
};

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

  constructor(private readonly sql: PreparedSql) {
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
        const entries = batch.map((p) => p.entry);
        const rows = await this.sql.query<{ organization_id: string; number: number }>(INSERT_LOOKUPS, [
          entries.map((e) => e.organizationId),
          entries.map((e) => e.apiKeyId),
          entries.map((e) => e.surface),
          entries.map((e) => e.reference),
          entries.map((e) => e.referenceType),
          entries.map((e) => e.referenceKey),
          entries.map((e) => e.carrierScac),
          entries.map((e) => e.outcome),
          entries.map((e) => e.fromCache),
          entries.map((e) => e.documentVersionId),
          entries.map((e) => e.createdAt.toISOString()),
        ]);
        // Each organisation's numbers rise in the order its entries were inserted (the batch's order);
        // matched per organisation, smallest first, so the order RETURNING lists them in never matters.
        const numbers = new Map<string, number[]>();
        for (const row of rows) {
          const list = numbers.get(row.organization_id) ?? [];
          list.push(Number(row.number));
          numbers.set(row.organization_id, list);
        }
        for (const list of numbers.values()) list.sort((a, b) => a - b);
        for (const p of batch) p.settle(numbers.get(p.entry.organizationId)!.shift()!);
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
