import type { DocumentStorage } from "../domain/workspace/document-storage";
import { LocalDocumentStorage } from "../upstream/storage/local-document-storage.adapter";
import type { DocumentsConfig } from "../workspace-config";

/**
 * The configured document storage. The S3 client (the AWS SDK, a large module graph) is loaded on the
 * first document read or write, never at start-up, and only when S3 is configured.
 */
export function createDocumentStorage(config: DocumentsConfig["storage"]): DocumentStorage {
  if (config.kind === "local") return new LocalDocumentStorage(config.dir);
  let loading: Promise<DocumentStorage> | undefined;
  const storage = () => {
    loading ??= import("../upstream/storage/s3-document-storage.adapter").then(
      ({ S3DocumentStorage }) => new S3DocumentStorage(config),
    );
    return loading;
  };
  return {
    kind: "s3",
    put: async (key, bytes, contentType) => (await storage()).put(key, bytes, contentType),
    get: async (key) => (await storage()).get(key),
    delete: async (key) => (await storage()).delete(key),
  };
}
