import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { DocumentStorage } from "../../domain/workspace/document-storage";

export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** An S3-compatible server's URL (MinIO, Ceph, R2 ...); unset: AWS S3 itself. */
  endpoint: string | undefined;
  /** Unset: the SDK's own chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Bucket in the path rather than the host name (most S3-compatible servers want it). */
  forcePathStyle: boolean;
  /** Prepended to every key, e.g. `quayside/`. */
  prefix: string;
}

/** Documents in an S3-compatible bucket, one object per key. */
export class S3DocumentStorage implements DocumentStorage {
  readonly kind = "s3";
  private readonly client: S3Client;

  constructor(private readonly config: S3StorageConfig) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      credentials: config.credentials,
      forcePathStyle: config.forcePathStyle,
      // The SDK's default extra checksums (CRC32 trailers) are not understood by every S3-compatible
      // server; they are sent only when an operation requires them.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.config.prefix + key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.config.bucket, Key: this.config.prefix + key }),
      );
      if (!answer.Body) return null;
      return await answer.Body.transformToByteArray();
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.config.prefix + key }),
    );
  }

  close(): void {
    this.client.destroy();
  }
}
