/**
 * Workspace documents on S3-compatible storage: the app configured with S3_* talks to a real S3 API
 * server on loopback (s3rver, an S3 implementation in Node run as a child of the test, with its own
 * folder), signed requests and all. Upload through GraphQL, the object is in the bucket under the
 * organisation's prefix, download through the app, delete removes the object; another organisation
 * reads nothing.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { pdfBytes, pngBytes, storedShipment, uploadDocument } from "../support/workspace";

const BUCKET = "quayside-documents";
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

let folder: string;
let s3: { close(): Promise<void> };
let endpoint: string;
let client: S3Client;
let app: TestApp;
let a: OrgWithKey;
let b: OrgWithKey;
let shipment: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "quayside-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: folder,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  s3 = server;
  endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({
    region: "us-east-1",
    endpoint,
    credentials: CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  app = await startTestApp({
    env: {
      QUAYSIDE_WORKERS: "off",
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_PREFIX: "tenants/",
    },
  });
  a = await app.fixtures.organization();
  b = await app.fixtures.organization();
  shipment = await storedShipment(app, a, "MSCU1234566");
}, 120_000);

afterAll(async () => {
  await app?.stop();
  client?.destroy();
  await s3?.close();
  await rm(folder, { recursive: true, force: true });
});

const objects = async () =>
  ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key);

describe("documents on S3-compatible storage", () => {
  it("puts the bytes in the bucket, serves them back to their organisation only, and deletes them", async () => {
    const bytes = pdfBytes("stored in S3");
    const up = await uploadDocument(
      app,
      a.key,
      { bytes, name: "bl.pdf", type: "application/pdf" },
      { type: "BILL_OF_LADING", shipments: [shipment] },
    );
    expect(up.body.errors).toBeUndefined();
    const id = up.body.data.uploadDocument.id as string;
    const key = `tenants/${a.organizationId}/${id}`;
    expect(await objects()).toEqual([key]);
    const stored = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(stored.ContentType).toBe("application/pdf");
    const storedBytes = await stored.Body!.transformToByteArray();
    expect(createHash("sha256").update(storedBytes).digest("hex")).toBe(up.body.data.uploadDocument.sha256);

    const mine = await fetch(`${app.url}/api/workspace/documents/${id}/download`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    const theirs = await fetch(`${app.url}/api/workspace/documents/${id}/download`, {
      headers: { authorization: `Bearer ${b.key}` },
    });
    expect(theirs.status).toBe(404);

    const deleted = await graphql(app, a.key, `mutation($id: ID!) { deleteDocument(id: $id) }`, { id });
    expect(deleted.body.data).toEqual({ deleteDocument: true });
    expect(await objects()).toEqual([]);
  });

  it("refuses a file whose bytes are not allowed without writing anything to the bucket", async () => {
    const { body } = await uploadDocument(
      app,
      a.key,
      { bytes: new TextEncoder().encode("<svg onload=alert(1)>"), name: "x.png", type: "image/png" },
      { type: "OTHER", shipments: [shipment] },
    );
    expect(body.errors?.[0]?.extensions?.reason).toBe("file_type_not_allowed");
    expect(await objects()).toEqual([]);
    const ok = await uploadDocument(
      app,
      a.key,
      { bytes: pngBytes(), name: "photo", type: "" },
      { type: "OTHER", shipments: [shipment] },
    );
    expect(ok.body.data.uploadDocument).toMatchObject({ contentType: "image/png", fileName: "photo.png" });
    expect(await objects()).toHaveLength(1);
  });
});
