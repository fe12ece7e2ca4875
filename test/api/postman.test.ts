import newman from "newman";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";
import { startReceiver } from "../support/receiver";

let app: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await app?.stop();
});

type Item = { name: string; item?: Item[]; request?: any; event?: unknown[] };

describe("GET /api/v1/postman.json", () => {
  it("is a Postman collection generated from the OpenAPI document, with a baseUrl variable", async () => {
    const res = await fetch(`${app.url}/api/v1/postman.json`);
    expect(res.status).toBe(200);
    const collection = (await res.json()) as {
      info: any;
      item: Item[];
      variable: { key: string; value: string }[];
    };
    expect(collection.info.schema).toContain("collection/v2.1.0");
    expect(collection.variable).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "baseUrl", value: `${app.url}/api/v1` }),
        expect.objectContaining({ key: "bearerToken" }),
      ]),
    );
    const folders = collection.item.map((i) => i.name);
    expect(folders).toEqual(expect.arrayContaining(["Tracking", "Shipments", "Sandbox"]));
    expect(collection.item.find((i) => i.name === "Sandbox")).toMatchObject({ auth: { type: "noauth" } });
    const document = (await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, object>;
    };
    const operations = Object.values(document.paths).reduce((n, p) => n + Object.keys(p).length, 0);
    const requests = (items: Item[]): number =>
      items.reduce((n, i) => n + (i.item ? requests(i.item) : 1), 0);
    expect(requests(collection.item)).toBe(operations);
    // Query values are the document's examples, not strings faked from a pattern.
    const queries = (items: Item[]): { key: string; value: string }[] =>
      items.flatMap((i) => (i.item ? queries(i.item) : (i.request?.url?.query ?? [])));
    const since = queries(collection.item).filter((q) => q.key === "updated_since");
    expect(since.length).toBeGreaterThan(0);
    for (const q of since) expect(q.value).toBe("2026-08-01T00:00:00Z");
  });

  it("runs green with newman against a started server (sandbox requests)", async () => {
    const collection = (await (await fetch(`${app.url}/api/v1/postman.json`)).json()) as { item: Item[] };
    const sandbox = collection.item.find((i) => i.name === "Sandbox")!;
    // Every sandbox request must succeed and say `mode: "sandbox"`, except `?include=full`, which
    // says `stored` in its data instead (spec v1 section 4.3); the fire request goes to a local
    // receiver instead of the example URL (there is no internet here).
    let stored = 0;
    const visit = (items: Item[]) => {
      for (const item of items) {
        if (item.item) visit(item.item);
        else {
          if (item.request?.body?.raw?.includes("example.com/hooks")) {
            item.request.body.raw = JSON.stringify({ url: receiver.url, event: "shipment.updated" });
          }
          const full = (
            (item.request?.url?.query ?? []) as { key: string; value: string; disabled?: boolean }[]
          ).some((q) => q.key === "include" && q.value === "full" && !q.disabled);
          if (full) stored++;
          item.event = [
            {
              listen: "test",
              script: {
                exec: [
                  "pm.test('answers 2xx', () => pm.expect(pm.response.code).to.be.within(200, 299));",
                  full
                    ? "pm.test('says stored', () => { const b = pm.response.json(); pm.expect(b.success).to.equal(true); pm.expect(b).to.not.have.property('mode'); pm.expect(b.data.mode).to.equal('stored'); });"
                    : "pm.test('says sandbox', () => { const b = pm.response.json(); pm.expect(b.success).to.equal(true); pm.expect(b.mode).to.equal('sandbox'); });",
                ],
              },
            },
          ];
        }
      }
    };
    visit(sandbox.item!);
    expect(stored).toBe(1);
    const summary = await new Promise<Parameters<Parameters<typeof newman.run>[1]>[1]>((resolve, reject) =>
      newman.run(
        { collection: { ...collection, item: [sandbox] }, reporters: [], timeoutRequest: 30_000 },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    const failures = summary.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`);
    expect(failures).toEqual([]);
    expect(summary.run.stats.requests.total).toBeGreaterThanOrEqual(17);
    expect(summary.run.stats.assertions.failed).toBe(0);
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
