/**
 * Where workspace documents' bytes live: a folder on local disk (the default, under the data folder)
 * or an S3-compatible bucket. Keys are chosen by the service (`<organisation id>/<document id>`), never
 * from client input. Implemented in src/upstream/storage.
 */
export interface DocumentStorage {
  readonly kind: "local" | "s3";
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the bytes; a key with nothing stored is not an error. */
  delete(key: string): Promise<void>;
}
