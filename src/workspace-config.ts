import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ConfigError } from "./config-error";

/**
 * The workspace documents' part of the environment, parsed by `loadConfig` with the rest (src/config.ts
 * stays the one reader of the environment; this file only holds the part's schema and shape).
 */
export const documentEnvironment = {
  QUAYSIDE_DOCUMENTS_MAX_BYTES: z.coerce.number().int().min(1_024).max(104_857_600).default(20_971_520),
  QUAYSIDE_DOCUMENTS_DIR: z.string().optional(),
  S3_BUCKET: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  S3_ENDPOINT: z
    .string()
    .url("S3_ENDPOINT must be a URL such as http://127.0.0.1:9000")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false", ""]).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^$|^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/, "S3_PREFIX looks like quayside/documents/")
    .default(""),
} as const;

export interface DocumentsConfig {
  /** Largest file an upload may carry, in bytes. */
  maxBytes: number;
  storage:
    | { kind: "local"; dir: string }
    | {
        kind: "s3";
        bucket: string;
        region: string;
        endpoint: string | undefined;
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
        forcePathStyle: boolean;
        prefix: string;
      };
}

type DocumentEnvironment = z.output<z.ZodObject<typeof documentEnvironment>>;

export function documentsConfig(e: DocumentEnvironment, dataDir: string): DocumentsConfig {
  const maxBytes = e.QUAYSIDE_DOCUMENTS_MAX_BYTES;
  if (e.S3_BUCKET) {
    const hasId = Boolean(e.S3_ACCESS_KEY_ID);
    if (hasId !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
      throw new ConfigError(
        "Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all",
      );
    }
    return {
      maxBytes,
      storage: {
        kind: "s3",
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        credentials: hasId
          ? { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
          : undefined,
        // A custom endpoint is nearly always a server that wants the bucket in the path.
        forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === "true" : Boolean(e.S3_ENDPOINT),
        prefix: e.S3_PREFIX,
      },
    };
  }
  const dir = e.QUAYSIDE_DOCUMENTS_DIR
    ? path.resolve(e.QUAYSIDE_DOCUMENTS_DIR)
    : dataDir === "memory://"
      ? // A throw-away database gets throw-away documents.
        path.join(os.tmpdir(), `quayside-documents-${process.pid}`)
      : path.join(path.resolve(dataDir), "documents");
  return { maxBytes, storage: { kind: "local", dir } };
}
