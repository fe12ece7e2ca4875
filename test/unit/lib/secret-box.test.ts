import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isSealed, secretBoxFor } from "../../../src/lib/secret-box";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function keyFileInNewFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "quayside-secrets-"));
  folders.push(folder);
  return path.join(folder, "data", "secrets.key");
}

describe("the secrets key from the data folder", () => {
  it("is not written until a secret is sealed, then is owner-only", () => {
    const keyFile = keyFileInNewFolder();
    const box = secretBoxFor({ key: undefined, keyFile });
    expect(existsSync(path.dirname(keyFile))).toBe(false);

    const sealed = box.seal("whsec_partner");
    expect(isSealed(sealed)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(box.open(sealed)).toBe("whsec_partner");
  });

  it("is shared by every process on the same folder", () => {
    const keyFile = keyFileInNewFolder();
    const sealed = secretBoxFor({ key: undefined, keyFile }).seal("whsec_partner");
    expect(secretBoxFor({ key: undefined, keyFile }).open(sealed)).toBe("whsec_partner");
  });

  it("a configured key of the wrong length is refused at once", () => {
    expect(() => secretBoxFor({ key: Buffer.alloc(16), keyFile: undefined })).toThrow("32 bytes");
  });
});
