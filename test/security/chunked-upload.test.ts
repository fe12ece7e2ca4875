import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MULTIPART_MAX_BYTES } from "../../facades/dashboard/multipart";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { pdfBytes, storedShipment, UPLOAD } from "../support/workspace";

/**
 * Issue 39 item 8: an upload over the cap is 413 however its size shows. With Content-Length it
 * was; sent with `Transfer-Encoding: chunked` (no length up front) it was answered 400 "invalid
 * multipart data".
 */
const MAX = 50_000;
let app: TestApp;
let org: OrgWithKey;
let shipment: string;

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_DOCUMENTS_DIR: mkdtempSync(join(tmpdir(), "quayside-chunked-")),
      QUAYSIDE_DOCUMENTS_MAX_BYTES: String(MAX),
      QUAYSIDE_WORKERS: "off",
    },
  });
  org = await app.fixtures.organization();
  shipment = await storedShipment(app, org, "MSCU1234566");
});
afterAll(() => app?.stop());

const boundary = "quaysideChunkedBoundary";

/** A GraphQL multipart upload of `file`, written in 16 KiB chunks without a Content-Length. */
function uploadChunked(file: Uint8Array): Promise<{ status: number; body: string }> {
  const operations = JSON.stringify({
    query: UPLOAD,
    variables: { type: "OTHER", shipments: [shipment], file: null },
  });
  const body = multipartBody(
    [
      ["operations", operations],
      ["map", '{"0":["variables.file"]}'],
    ],
    ["0", file],
  );
  return postChunked("/graphql", body, { authorization: `Bearer ${org.key}` });
}

/** A multipart/form-data body of text fields and one PDF file part, as a browser writes it. */
function multipartBody(fields: [string, string][], [name, file]: [string, Uint8Array]): Buffer {
  return Buffer.concat([
    Buffer.from(
      fields
        .map(
          ([field, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`,
        )
        .join("") +
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/**
 * Posts `body` in 16 KiB chunks without a Content-Length. The server may answer and close before
 * the last chunk (a refusal while reading): the answer counts, a write cut short after it does not.
 */
function postChunked(
  path: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      `${app.url}${path}`,
      {
        method: "POST",
        agent: false,
        headers: {
          ...headers,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "transfer-encoding": "chunked",
        },
      },
      (res) => {
        answered = true;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
        res.on("error", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    let at = 0;
    const writeMore = (): void => {
      while (at < body.length && !req.destroyed) {
        const piece = body.subarray(at, at + 16_384);
        at += 16_384;
        if (!req.write(piece)) return void req.once("drain", writeMore);
      }
      if (!req.destroyed) req.end();
    };
    writeMore();
  });
}

describe("an upload sent chunked", () => {
  it("over the cap is refused 413 body_too_large, as with a declared length", async () => {
    const res = await uploadChunked(new Uint8Array(MAX + 200_000));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      errors: [{ message: expect.stringMatching(/larger than/), extensions: { reason: "body_too_large" } }],
    });
  });

  it("within the cap is stored like any other", async () => {
    const res = await uploadChunked(pdfBytes());
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ data: { uploadDocument: { documentType: "OTHER" } } });
  });
});

/**
 * The dashboard's documents form reads its multipart body itself: a body without a Content-Length
 * was refused 413 whatever its size, so a browser or proxy sending it chunked could not upload at all.
 */
describe("a dashboard upload sent chunked", () => {
  const PASSWORD = "correct-horse-battery";
  let cookie: string;
  let csrf: string;
  let reference: string;

  beforeAll(async () => {
    const { accounts } = app.services;
    const team = await accounts.createOrganization({
      name: `Chunked ${Math.random().toString(36).slice(2, 8)}`,
    });
    const email = `chunked-${team.id.slice(0, 8)}@example.com`;
    const person = await accounts.createUser({
      organizationId: team.id,
      email,
      role: "owner",
      password: PASSWORD,
    });
    reference = await storedShipment(app, { organizationId: team.id, userId: person.id }, "MSCU7654325");
    const form = await fetch(`${app.url}/dashboard/sign-in`);
    const visitor = form.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
    const signedIn = await fetch(`${app.url}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: visitor },
      body: new URLSearchParams({ _csrf: token, email, password: PASSWORD }).toString(),
    });
    expect(signedIn.status).toBe(303);
    cookie = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("quayside_session="))!
      .split(";")[0]!;
    const page = await fetch(`${app.url}/dashboard/documents`, { headers: { cookie } });
    csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    expect(csrf).not.toBe("");
  });

  const upload = (file: Uint8Array) =>
    postChunked(
      "/dashboard/documents",
      multipartBody(
        [
          ["_csrf", csrf],
          ["documentType", "OTHER"],
          ["shipments", reference],
        ],
        ["file", file],
      ),
      { cookie },
    );

  it("within the cap is stored, and the documents page lists it", async () => {
    const res = await upload(pdfBytes("A chunked dashboard upload"));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/dashboard/documents?uploaded=1");
    const page = await (await fetch(`${app.url}/dashboard/documents`, { headers: { cookie } })).text();
    expect(page).toContain("a.pdf");
  });

  it("over the form's cap is refused 413 as it arrives", async () => {
    const res = await upload(new Uint8Array(MULTIPART_MAX_BYTES + 1024));
    expect(res.status).toBe(413);
    expect(res.body).toContain("The file is too large to upload.");
  });
});
