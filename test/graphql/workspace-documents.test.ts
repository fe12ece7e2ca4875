/**
 * Workspace documents through GraphQL (multipart upload) and the download route: metadata, sniffed
 * types whatever the client declares, sanitised names, the size cap, attach/detach/delete, and one
 * organisation's document invisible to another on every surface. Storage is the local folder here;
 * test/integration/workspace-documents-s3.test.ts runs the same through a real S3-compatible server.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { pdfBytes, pngBytes, storedShipment, uploadDocument, xlsxBytes } from "../support/workspace";

let app: TestApp;
let dir: string;
let a: OrgWithKey;
let b: OrgWithKey;
let shipmentA: string;
let secondA: string;
let shipmentB: string;

const MAX = 50_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "quayside-docs-test-"));
  app = await startTestApp({
    env: { QUAYSIDE_DOCUMENTS_DIR: dir, QUAYSIDE_DOCUMENTS_MAX_BYTES: String(MAX), QUAYSIDE_WORKERS: "off" },
  });
  a = await app.fixtures.organization();
  b = await app.fixtures.organization();
  shipmentA = await storedShipment(app, a, "MSCU1234566");
  secondA = await storedShipment(app, a, "MSCU7654321");
  shipmentB = await storedShipment(app, b, "MSCU1234566");
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function ask(key: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(app, key, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as Record<string, any>;
}

const download = (key: string, id: string) =>
  fetch(`${app.url}/api/workspace/documents/${id}/download`, { headers: { authorization: `Bearer ${key}` } });

const storedFiles = async () =>
  (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;

describe("uploading", () => {
  it("stores a PDF with its metadata, the type sniffed and the name stripped of its folders", async () => {
    const bytes = pdfBytes();
    const { status, body } = await uploadDocument(
      app,
      a.key,
      // Declared as a PNG, named with a path: neither is believed.
      { bytes, name: "../../etc/BL 4711.pdf", type: "image/png" },
      { type: "BILL_OF_LADING", shipments: [shipmentA, "mscu 765432-1"] },
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const doc = body.data.uploadDocument;
    expect(doc).toMatchObject({
      name: "BL 4711.pdf",
      documentType: "BILL_OF_LADING",
      fileName: "BL 4711.pdf",
      contentType: "application/pdf",
      sizeBytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      source: "upload",
      shipments: [
        { shipmentId: shipmentA, reference: "MSCU1234566" },
        { shipmentId: secondA, reference: "MSCU7654321" },
      ],
    });
    expect(doc.uploadedBy).toBeTruthy();
    expect(Date.parse(doc.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const read = await ask(
      a.key,
      `query($id: ID!, $s: String!) { workspaceDocument(id: $id) { id sha256 } shipment(id: $s) { documents { id fileName } } }`,
      { id: doc.id, s: secondA },
    );
    expect(read.workspaceDocument).toEqual({ id: doc.id, sha256: doc.sha256 });
    expect(read.shipment.documents).toEqual([{ id: doc.id, fileName: "BL 4711.pdf" }]);

    const res = await download(a.key, doc.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="BL 4711.pdf"; filename*=UTF-8''BL%204711.pdf`,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("takes PNG, XLSX and CSV by their bytes, giving the name the true extension", async () => {
    const png = await uploadDocument(
      app,
      a.key,
      { bytes: pngBytes(), name: "scan.csv", type: "text/csv" },
      { type: "OTHER", shipments: [shipmentA] },
    );
    expect(png.body.data.uploadDocument).toMatchObject({
      contentType: "image/png",
      fileName: "scan.csv.png",
    });
    const xlsx = await uploadDocument(
      app,
      a.key,
      { bytes: xlsxBytes(), name: "packing.xlsx", type: "application/octet-stream" },
      { type: "PACKING_LIST", shipments: [shipmentA], name: "Packing list week 48" },
    );
    expect(xlsx.body.data.uploadDocument).toMatchObject({
      name: "Packing list week 48",
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      fileName: "packing.xlsx",
    });
    const csv = await uploadDocument(
      app,
      a.key,
      { bytes: new TextEncoder().encode("container,seal\nMSCU1234566,SL123\n"), name: "seals", type: "" },
      { type: "OTHER", shipments: [shipmentA] },
    );
    expect(csv.body.data.uploadDocument).toMatchObject({ contentType: "text/csv", fileName: "seals.csv" });
  });

  it("refuses bytes that are not an allowed type whatever they are called or declared", async () => {
    const before = await storedFiles();
    const cases = [
      { bytes: new TextEncoder().encode("<html><script>alert(1)</script></html>"), name: "invoice.pdf" },
      { bytes: new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]), name: "bl.pdf" },
      { bytes: new Uint8Array(Buffer.from("PK\x03\x04 not a spreadsheet at all", "latin1")), name: "a.xlsx" },
      { bytes: new TextEncoder().encode("just one line of prose without a delimiter"), name: "notes.csv" },
    ];
    for (const file of cases) {
      const { status, body } = await uploadDocument(
        app,
        a.key,
        { ...file, type: "application/pdf" },
        { type: "COMMERCIAL_INVOICE", shipments: [shipmentA] },
      );
      expect(status).toBe(200);
      expect(body.data).toBeNull();
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: "BAD_USER_INPUT",
        reason: "file_type_not_allowed",
      });
      expect(body.errors?.[0]?.message).toMatch(/only PDF, PNG, JPEG, TIFF, XLSX and CSV/);
    }
    expect(await storedFiles()).toBe(before);
  });

  it("refuses a file over the cap, an empty one, a shipment the organisation does not track", async () => {
    const big = new Uint8Array(MAX + 1);
    big.set(pdfBytes());
    const tooBig = await uploadDocument(
      app,
      a.key,
      { bytes: big, name: "big.pdf", type: "application/pdf" },
      { type: "OTHER", shipments: [shipmentA] },
    );
    expect(tooBig.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      reason: "file_too_large",
    });
    const huge = await uploadDocument(
      app,
      a.key,
      { bytes: new Uint8Array(MAX + 200_000), name: "huge.pdf", type: "application/pdf" },
      { type: "OTHER", shipments: [shipmentA] },
    );
    expect(huge.status).toBe(413);
    const empty = await uploadDocument(
      app,
      a.key,
      { bytes: new Uint8Array(), name: "e.pdf", type: "application/pdf" },
      { type: "OTHER", shipments: [shipmentA] },
    );
    expect(empty.body.errors?.[0]?.extensions).toMatchObject({ reason: "file_empty" });
    const elsewhere = await uploadDocument(
      app,
      a.key,
      { bytes: pdfBytes(), name: "x.pdf", type: "application/pdf" },
      { type: "OTHER", shipments: ["SHP-999"] },
    );
    expect(elsewhere.body.errors?.[0]).toMatchObject({
      message: "No shipment SHP-999 is tracked by your organisation.",
      extensions: { code: "NOT_FOUND" },
    });
  });

  it("answers a multipart body that is no GraphQL multipart request with a GraphQL error, never a 5xx", async () => {
    for (const body of ['{"query":"{ __typename }"}', "--x\r\nnot a part\r\n--x--\r\n"]) {
      const res = await fetch(`${app.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${a.key}`, "content-type": "multipart/form-data; boundary=x" },
        body,
      });
      const text = await res.text();
      // Yoga answers a broken multipart body 400, a well-formed one without `operations` 200 with errors.
      expect([200, 400], text).toContain(res.status);
      const answer = JSON.parse(text) as { errors: { message: string }[] };
      expect(answer.errors[0]!.message).toMatch(/multipart/i);
      expect(answer.errors[0]!.message).not.toMatch(/at |node_modules|\.ts/);
    }
  });

  it("needs a key that may write, with developer mode on", async () => {
    const viewOnly = await app.fixtures.teammate(a.organizationId, { viewOnly: true });
    const { body } = await uploadDocument(
      app,
      viewOnly.key,
      { bytes: pdfBytes(), name: "x.pdf", type: "application/pdf" },
      { type: "OTHER", shipments: [shipmentA] },
    );
    expect(body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
  });
});

describe("another organisation", () => {
  it("sees nothing of A's document on any surface, and cannot change or delete it", async () => {
    const up = await uploadDocument(
      app,
      a.key,
      { bytes: pdfBytes("private"), name: "private.pdf", type: "application/pdf" },
      { type: "CUSTOMS_ENTRY", shipments: [shipmentA] },
    );
    const id = up.body.data.uploadDocument.id as string;

    const seen = await ask(
      b.key,
      `query($id: ID!, $s: String!) { workspaceDocument(id: $id) { id } workspaceDocuments { id } shipment(id: $s) { documents { id } } }`,
      { id, s: shipmentB },
    );
    // B tracks the same container number: its own shipment has no documents.
    expect(seen).toEqual({ workspaceDocument: null, workspaceDocuments: [], shipment: { documents: [] } });

    const res = await download(b.key, id);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("private");

    for (const mutation of [
      `mutation($id: ID!) { deleteDocument(id: $id) }`,
      `mutation($id: ID!) { attachDocument(id: $id, shipments: ["${shipmentB}"]) { id } }`,
      `mutation($id: ID!) { detachDocument(id: $id, shipments: ["${shipmentB}"]) { id } }`,
    ]) {
      const { body } = await graphql(app, b.key, mutation, { id });
      expect(body.errors?.[0]?.extensions?.code, mutation).toBe("NOT_FOUND");
    }
    // A cannot attach its document to B's shipment either: B's SHP-1 is A's SHP-1, A's own.
    expect((await download(a.key, id)).status).toBe(200);
  });
});

describe("attaching, detaching and deleting", () => {
  it("moves a document between shipments and removes it with its bytes", async () => {
    const up = await uploadDocument(
      app,
      a.key,
      { bytes: pdfBytes("arrival"), name: "an.pdf", type: "application/pdf" },
      { type: "ARRIVAL_NOTICE", shipments: [shipmentA] },
    );
    const id = up.body.data.uploadDocument.id as string;
    const attached = await ask(
      a.key,
      `mutation($id: ID!, $s: [String!]!) { attachDocument(id: $id, shipments: $s) { shipments { shipmentId } } }`,
      {
        id,
        s: [secondA, shipmentA],
      },
    );
    expect(attached.attachDocument.shipments).toEqual([{ shipmentId: shipmentA }, { shipmentId: secondA }]);
    const detached = await ask(
      a.key,
      `mutation($id: ID!, $s: [String!]!) { detachDocument(id: $id, shipments: $s) { shipments { shipmentId } } }`,
      {
        id,
        s: [shipmentA],
      },
    );
    expect(detached.detachDocument.shipments).toEqual([{ shipmentId: secondA }]);

    const before = await storedFiles();
    expect(await ask(a.key, `mutation($id: ID!) { deleteDocument(id: $id) }`, { id })).toEqual({
      deleteDocument: true,
    });
    expect(await storedFiles()).toBe(before - 1);
    expect((await download(a.key, id)).status).toBe(404);
    const again = await graphql(app, a.key, `mutation($id: ID!) { deleteDocument(id: $id) }`, { id });
    expect(again.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("answers the download route's refusals in JSON without reading the document", async () => {
    const noKey = await fetch(
      `${app.url}/api/workspace/documents/00000000-0000-4000-8000-000000000000/download`,
    );
    expect(noKey.status).toBe(401);
    const unknown = await download(a.key, "not-a-uuid");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).data.error).toBe("not_found");
  });
});
