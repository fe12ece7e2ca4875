import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** How far a signed request's timestamp may be from our clock: a captured request replays no later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `psec_` + 32 random bytes, base64url; the whole string is the HMAC key. */
export function generatePartnerSecret(): string {
  return `psec_${randomBytes(32).toString("base64url")}`;
}

/**
 * The signature a partner sends in `X-Quayside-Signature`: `v1=<hex HMAC-SHA256 of "<timestamp>.<raw
 * body>">`, the timestamp (Unix seconds) in `X-Quayside-Timestamp`. The same construction as our own
 * outbound webhooks, so a partner that verifies ours can sign theirs with the same code.
 */
export function partnerSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "stale" | "forged" | "malformed" };

/** Constant-time; the timestamp is checked first so that a stale request costs no HMAC. */
export function checkPartnerSignature(
  secret: string,
  {
    timestamp,
    signature,
    body,
    nowSeconds,
  }: { timestamp: string | undefined; signature: string | undefined; body: string; nowSeconds: number },
): SignatureCheck {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) return { ok: false, reason: "malformed" };
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS)
    return { ok: false, reason: "stale" };
  const expected = Buffer.from(partnerSignature(secret, timestamp, body));
  // Several signatures (a secret being rotated) may come comma-separated; one genuine one suffices.
  const genuine = signature
    .split(",")
    .map((s) => Buffer.from(s.trim()))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  return genuine ? { ok: true } : { ok: false, reason: "forged" };
}
