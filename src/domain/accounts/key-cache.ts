import type { ApiKey, Organization, User } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";

/** What `authenticate` reads for a key: the key row with its user and organisation. */
export type KeyRow = ApiKey & { user: User; organization: Organization };

interface Entry {
  row: KeyRow;
  storedAt: number;
}

/**
 * Key rows by key hash for a short time, so a repeat request does not pay Prisma's per-call query
 * compilation (~1,000 µs of CPU, bench/analysis.md) for its key. Only keys that exist are held: an
 * unknown key is never stored, so guessing cannot fill the cache. Time-dependent checks (expiry,
 * last use) are not cached; they run on the row on every request.
 *
 * Writes made through this process invalidate at once (AccountsService calls `forget*`); writes by
 * other processes are seen when the entry ages out after `ttlMs`.
 *
 * An entry in use is read again ahead of its end (`claimRenewal`, past half its life): the request
 * that notices is answered from the entry while one lookup renews it. Without it, every request of a
 * busy key waited on the database once per `ttlMs`, behind whatever held it (on PGlite, a worker's
 * pass), which made the open loop's slowest answers. An entry is still never served past `ttlMs`.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Bumped by every invalidation. A lookup that started before an invalidation may have read the old
   * row; `store` refuses it, so an invalidation can never be undone by a slow lookup that finishes after it.
   */
  private epoch = 0;
  /** Keys whose renewal is under way: one lookup at a time per key. */
  private readonly renewing = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The token to hand back to `store` with the row a lookup read. */
  begin(): number {
    return this.epoch;
  }

  get(keyHash: string): KeyRow | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    const age = this.clock.now().getTime() - entry.storedAt;
    // A clock moved backwards (tests set it) also ends the entry rather than extending it.
    if (age < 0 || age >= this.ttlMs) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.row;
  }

  /**
   * True once for an entry past half its life with no renewal under way: the caller looks the key up
   * and hands the row to `store` (or calls `renewalEnded` when it fails).
   */
  claimRenewal(keyHash: string): boolean {
    const entry = this.entries.get(keyHash);
    if (!entry || this.renewing.has(keyHash)) return false;
    if (this.clock.now().getTime() - entry.storedAt < this.ttlMs / 2) return false;
    this.renewing.add(keyHash);
    return true;
  }

  renewalEnded(keyHash: string): void {
    this.renewing.delete(keyHash);
  }

  store(keyHash: string, row: KeyRow, token: number): void {
    if (token !== this.epoch) return;
    // Re-inserting moves the key to the end, so the map's order is the order of storage: oldest first.
    this.entries.delete(keyHash);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { row, storedAt: this.clock.now().getTime() });
  }

  forgetKey(keyHash: string): void {
    this.epoch++;
    this.entries.delete(keyHash);
  }

  /** Every key of the organisation: its plan, developer mode, switches or billing changed. */
  forgetOrganization(organizationId: string): void {
    this.epoch++;
    for (const [hash, entry] of this.entries) {
      if (entry.row.organizationId === organizationId) this.entries.delete(hash);
    }
  }
}
