/**
 * Where a delta sync (shipments synced at or after a moment) continues: the last row it returned, as
 * its sync time and its number. Rows are read in (`last_synced_at`, `number`) order, so a page that
 * ends inside a run of rows synced in the same millisecond continues with the next row of that run;
 * a time alone would either repeat the run or skip the rest of it.
 *
 * On the wire the position is one opaque string (base64url of `<ISO instant>~<number>`), so clients
 * pass it back unchanged rather than building one.
 */
export interface DeltaPosition {
  syncedAt: Date;
  /** The shipment's number within its organisation (the digits of `SHP-<digits>`). */
  number: bigint;
}

export type DeltaCursorResult = { ok: true; position: DeltaPosition } | { ok: false; message: string };

const INVALID = "This is not a delta cursor the API gave: pass the previous page's cursor unchanged.";
const DECODED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)~(\d{1,18})$/;

export function encodeDeltaCursor(position: DeltaPosition): string {
  return Buffer.from(`${position.syncedAt.toISOString()}~${position.number}`, "utf8").toString("base64url");
}

export function parseDeltaCursor(cursor: string): DeltaCursorResult {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return { ok: false, message: INVALID };
  const match = DECODED.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) return { ok: false, message: INVALID };
  const syncedAt = new Date(match[1]!);
  // A string of the right shape can still name no instant (month 13) or another one (Feb 30).
  if (Number.isNaN(syncedAt.getTime()) || syncedAt.toISOString() !== match[1]) {
    return { ok: false, message: INVALID };
  }
  return { ok: true, position: { syncedAt, number: BigInt(match[2]!) } };
}
