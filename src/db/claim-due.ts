import { Prisma, type PrismaClient } from "../generated/prisma/client";

/** A table whose rows are background work falling due: its key column and its due column. */
export interface DueQueue {
  table: "shipments" | "terminal_records" | "port_congestion_schedule";
  key: "id" | "locode";
  due: "eta_due_at" | "next_check_at" | "next_sample_at" | "next_score_at" | "dnd_valid_until";
}

/**
 * Claims up to `limit` rows due at `now` (oldest due first) by moving their due time to `leaseUntil`,
 * and returns their keys. `FOR UPDATE SKIP LOCKED`: two processes claiming at once take different rows,
 * and a process that dies holding a claim loses it when the lease runs out.
 */
export async function claimDue(
  prisma: PrismaClient,
  queue: DueQueue,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<string[]> {
  // Identifiers from the closed set above, never from input.
  const table = Prisma.raw(queue.table);
  const key = Prisma.raw(queue.key);
  const due = Prisma.raw(queue.due);
  const claimed = await prisma.$queryRaw<{ key: string }[]>`
    UPDATE ${table} SET ${due} = ${leaseUntil}
     WHERE ${key} IN (
       SELECT ${key} FROM ${table}
        WHERE ${due} <= ${now}
        ORDER BY ${due}
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING ${key} AS key`;
  return claimed.map((row) => row.key);
}
