import { createHash, randomBytes } from "node:crypto";

/**
 * Raw keys look like `qs_<43 base64url characters>` (256 bits). Only a SHA-256 hash is stored: the
 * keys carry enough entropy that a slow password hash buys nothing, and a fast hash keeps the
 * per-request lookup to one indexed read.
 */
export const KEY_PREFIX = "qs_";

export function generateRawKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashKey(rawKey: string): string {
  return createHash("sha256").update(rawKey, "utf8").digest("hex");
}

/** Enough of the key to recognise it in a list, not enough to use it. */
export function displayPrefix(rawKey: string): string {
  return rawKey.slice(0, KEY_PREFIX.length + 6);
}

/** Cheap shape check before touching the database (keys are ASCII, no spaces). */
export function looksLikeKey(value: string): boolean {
  return value.length >= 16 && value.length <= 200 && /^[A-Za-z0-9_-]+$/.test(value);
}
