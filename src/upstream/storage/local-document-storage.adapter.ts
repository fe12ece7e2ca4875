import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { DocumentStorage } from "../../domain/workspace/document-storage";

const SAFE_KEY = /^[A-Za-z0-9-]+(\/[A-Za-z0-9-]+)*$/;

/**
 * Documents in a folder on local disk (by default `documents` in the data folder): one file per key,
 * written to a temporary name and renamed, so a reader never sees half a file; readable by the owner
 * only.
 */
export class LocalDocumentStorage implements DocumentStorage {
  readonly kind = "local";

  constructor(private readonly root: string) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${randomUUID()}.part`;
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, file);
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    // Keys are made by the service from ids; anything else is a bug, never a path to follow.
    if (!SAFE_KEY.test(key)) throw new Error(`Not a document storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }
}
