/**
 * Issue 39 item 13: a typed client generated from the served document (openapi-typescript, called
 * with openapi-fetch) needs no casts. The document is fetched from a started service, turned into
 * types, and a small client program is type-checked with tsc in a temporary directory: it sends the
 * numeric query parameters as numbers, reads list totals without optional chaining, tells the two
 * shapes of the shipment list apart by their keys, and cannot send a PATCH field the server refuses.
 * A wrong document fails tsc, and the test prints tsc's complaints.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

let app: TestApp;
let document: Record<string, any>;
let dir: string;

beforeAll(async () => {
  app = await startTestApp();
  document = (await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as Record<string, any>;
  dir = await mkdtemp(path.join(tmpdir(), "quayside-typed-client-"));
}, 120_000);
afterAll(async () => {
  await app?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What a client writes against the generated `paths`: no `as`, no `!`, no `any`. */
const CLIENT = `
import createClient from "openapi-fetch";
import type { paths } from "./api.js";

const live = createClient<paths>({ baseUrl: "http://localhost/api/v1", headers: { authorization: "Bearer key" } });

export async function disruptions(): Promise<number> {
  const { data } = await live.GET("/disruptions", {
    params: { query: { severity: 3, page: 1, page_size: 25 } },
  });
  if (!data) return 0;
  const total: number = data.total;
  const pageSize: number = data.page_size;
  return total + pageSize;
}

export async function schedules(): Promise<number> {
  const { data } = await live.GET("/voyage/schedules", {
    params: { query: { origin: "CNSHA", destination: "NLRTM", date: "2026-12-01", week_range: 2 } },
  });
  return data ? data.total : 0;
}

export async function shipmentsPage(): Promise<number> {
  const { data } = await live.GET("/shipments", { params: { query: { page: 1, pageSize: 20 } } });
  if (!data || !("total" in data)) return 0;
  const total: number = data.total;
  const page: number = data.page;
  return total + page;
}

/** Every change since a time: pages until has_more is false, then where the next poll starts. */
export async function changesSince(since: string): Promise<{ seen: string[]; next: string; cursor: string | null }> {
  const seen: string[] = [];
  let next = since;
  let cursor: string | undefined;
  for (;;) {
    const { data } = await live.GET("/shipments", { params: { query: { updated_since: next, cursor } } });
    if (!data || !("has_more" in data)) break;
    for (const row of data.data) seen.push(row.name);
    const count: number = data.count;
    if (count === 0 || data.next_updated_since === null || data.next_cursor === null) break;
    next = data.next_updated_since;
    cursor = data.next_cursor;
    if (!data.has_more) break;
  }
  return { seen, next, cursor: cursor ?? null };
}

export async function sandboxDelta(): Promise<boolean> {
  const sandbox = createClient<paths>({ baseUrl: "http://localhost/api/v1" });
  const { data } = await sandbox.GET("/sandbox/shipments", {
    params: { query: { updated_since: "2000-01-01T00:00:00Z" } },
  });
  return data !== undefined && "has_more" in data && data.has_more;
}

export async function rename(id: string): Promise<string | undefined> {
  const { data } = await live.PATCH("/shipments/{id}", {
    params: { path: { id } },
    body: { customer: "ACME Imports" },
  });
  return data?.data.name;
}

type PatchBody = NonNullable<paths["/shipments/{id}"]["patch"]["requestBody"]>["content"]["application/json"];

/** A field the server refuses is a type error, not a 400 at run time. */
export const refused: PatchBody = {
  customer: "ACME Imports",
  // @ts-expect-error reference_number is not a field of the PATCH body
  reference_number: "MSCU1234566",
};

export async function retype(id: string, body: PatchBody): Promise<boolean> {
  const { response } = await live.PATCH("/shipments/{id}", { params: { path: { id } }, body });
  return response.ok;
}
`;

describe("a typed client generated from /api/v1/openapi.json", () => {
  it("types numeric query parameters as integers, list totals as required, and the PATCH body as closed", () => {
    const parameter = (p: string, name: string) =>
      document.paths[p].get.parameters.find((x: { name: string }) => x.name === name).schema;
    for (const [p, name] of [
      ["/disruptions", "severity"],
      ["/disruptions", "page"],
      ["/disruptions", "page_size"],
      ["/voyage/schedules", "week_range"],
      ["/sandbox/disruptions", "page_size"],
      ["/sandbox/voyage/schedules", "week_range"],
    ] as const) {
      expect(parameter(p, name), `${p} ${name}`).toMatchObject({ type: "integer" });
    }
    const schemas = document.components.schemas;
    expect(schemas.ShipmentPatch.additionalProperties).toBe(false);
    expect(schemas.ShipmentPage.required).toEqual(expect.arrayContaining(["total", "page", "pageSize"]));
    expect(schemas.ShipmentDelta.required).toEqual(
      expect.arrayContaining(["updated_since", "count", "has_more", "next_updated_since", "next_cursor"]),
    );
    expect(schemas.DisruptionList.required).toEqual(expect.arrayContaining(["total", "page", "page_size"]));
    // The sandbox list documents updated_since because it honours it.
    expect(
      document.paths["/sandbox/shipments"].get.parameters.map((x: { name: string }) => x.name),
    ).toContain("updated_since");
  });

  it("type-checks a client program that uses no casts", async () => {
    await writeFile(path.join(dir, "api.ts"), astToString(await openapiTS(document as never)));
    await writeFile(path.join(dir, "client.ts"), CLIENT);
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    await writeFile(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          lib: ["es2022", "dom"],
          skipLibCheck: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: false,
        },
        files: ["client.ts"],
      }),
    );
    await symlink(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    expect(/\bas\s+(any|unknown)\b|!\./.test(CLIENT)).toBe(false);
    const tsc = await run(process.execPath, [
      path.join(root, "node_modules/typescript/bin/tsc"),
      "-p",
      dir,
    ]).then(
      () => ({ ok: true, output: "" }),
      (error: { stdout?: string; stderr?: string }) => ({
        ok: false,
        output: `${error.stdout}${error.stderr}`,
      }),
    );
    expect(tsc.output).toBe("");
    expect(tsc.ok).toBe(true);
  }, 120_000);
});
