/**
 * Shared secrets at rest (docs/decisions/secrets-at-rest.md): partner sources' signing secrets and
 * carrier subscriptions' secrets must be read back in clear (they verify HMACs), so they cannot be
 * hashed; they are sealed with AES-256-GCM under a key from configuration, so a copy of the database
 * alone (a backup, a replica, a dump) does not give them away.
 */

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const PREFIX = "enc:v1:";

export class SecretBox {
  private resolved: Buffer | undefined;

  /**
   * `key` may be a function: it runs at the first seal or open, so a process that never handles a
   * secret (the CLI revoking a key on PostgreSQL) never creates a data folder for the key file.
   */
  constructor(private readonly key: Buffer | (() => Buffer)) {
    if (Buffer.isBuffer(key)) this.resolved = checked(key);
  }

  private get material(): Buffer {
    if (!this.resolved) this.resolved = checked(typeof this.key === "function" ? this.key() : this.key);
    return this.resolved;
  }

  /** `enc:v1:<iv>:<tag>:<ciphertext>`, each base64; a fresh 12-byte IV per seal. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.material, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `${PREFIX}${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${data.toString("base64")}`;
  }

  /**
   * The secret in clear. A value without the prefix is a row written before sealing (the start-up pass
   * seals those); a sealed value that does not open under this key throws: the key is wrong.
   */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const [iv, tag, data] = stored.slice(PREFIX.length).split(":");
    const decipher = createDecipheriv("aes-256-gcm", this.material, Buffer.from(iv ?? "", "base64"));
    decipher.setAuthTag(Buffer.from(tag ?? "", "base64"));
    return Buffer.concat([decipher.update(Buffer.from(data ?? "", "base64")), decipher.final()]).toString(
      "utf8",
    );
  }
}

function checked(key: Buffer): Buffer {
  if (key.length !== 32) throw new Error("The secrets key must be 32 bytes.");
  return key;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/**
 * The configured key, else the data folder's key file (written at first start, owner-only), else a key
 * for this process alone (an in-memory data folder, whose rows do not outlive the process either).
 * The key file is read, or written, at the first secret handled.
 */
export function secretBoxFor(config: { key: Buffer | undefined; keyFile: string | undefined }): SecretBox {
  if (config.key) return new SecretBox(config.key);
  const keyFile = config.keyFile;
  if (!keyFile) return new SecretBox(randomBytes(32));
  return new SecretBox(() => keyFromFile(keyFile));
}

function keyFromFile(keyFile: string): Buffer {
  if (existsSync(keyFile)) {
    const key = Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64");
    if (key.length !== 32) throw new Error(`${keyFile} does not hold base64 of 32 bytes.`);
    return key;
  }
  const key = randomBytes(32);
  mkdirSync(dirname(keyFile), { recursive: true });
  // flag "wx": two processes starting together do not both write; the loser reads the winner's key.
  try {
    writeFileSync(keyFile, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(keyFile, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return keyFromFile(keyFile);
    throw error;
  }
}
