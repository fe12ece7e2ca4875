import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** `whsec_` + 32 random bytes, base64url. The whole string is the HMAC key (as Stripe-style verifiers expect). */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, written without spaces. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${unixSeconds}.${body}`, "utf8").digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}

/** The receiver's check, for our own tests and docs: constant-time compare, 300 s tolerance. */
export function verifySignature(
  secret: string,
  {
    body,
    header,
    nowSeconds,
    toleranceSeconds = 300,
  }: { body: string; header: string; nowSeconds: number; toleranceSeconds?: number },
): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureHeader(secret, body, t).split("v1=")[1]!, "hex");
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
