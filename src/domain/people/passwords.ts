import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Dashboard passwords hashed with scrypt (memory-hard, in Node's own crypto: no native add-on and no
 * install script). The parameters are stored with each hash, so stronger ones can be adopted later
 * without invalidating existing passwords. N = 2^17, r = 8, p = 1 (128 MiB per hash) follows the OWASP
 * password storage cheat sheet's scrypt recommendation.
 */
const COST_LOG2 = 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** scrypt's cost (log2 N), block size (r) and parallelism (p): a stored hash carries its own. */
interface ScryptCost {
  costLog2: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, { costLog2, r, p }: ScryptCost): Promise<Buffer> {
  const N = 2 ** costLog2;
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r, or Node refuses the parameters.
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, { costLog2: COST_LOG2, r: BLOCK_SIZE, p: PARALLELISM });
  return [
    "scrypt",
    COST_LOG2,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, costLog2, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), {
    costLog2: Number(costLog2),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of nothing anyone knows, verified when the e-mail address is unknown, so that an unknown
 * address takes as long to refuse as a wrong password (no account enumeration by timing).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(18).toString("base64url"));
  return decoy;
}

/** Why a new password is not acceptable, or null. Length is what matters (NIST SP 800-63B). */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `A password may have at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}
