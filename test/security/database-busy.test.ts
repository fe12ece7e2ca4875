import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

/**
 * Issue 39 item 1: a database too busy to start a transaction in time (Prisma P2028 "Unable to start
 * a transaction in the given time") is the database being unavailable, answered 503 with
 * Retry-After like an outage, never a 500. The test holds every connection of the app's own pool
 * (PGlite has one; the PostgreSQL pool ten) while a lookup is about to write: the carrier below
 * takes the hold first, then answers "not found", whose first write is a transaction.
 */
let app: TestApp;
let org: OrgWithKey;
let carrier: Server;
/** Called by the carrier when a lookup reaches it; resolves when the carrier may answer. */
let onCarrierCall: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  carrier = createServer((_req, res) => {
    void onCarrierCall().then(() => res.writeHead(200, { "content-type": "application/json" }).end("[]"));
  });
  await new Promise<void>((resolve) => carrier.listen(0, "127.0.0.1", resolve));
  const registry = join(mkdtempSync(join(tmpdir(), "quayside-busy-")), "carriers.registry.json");
  writeFileSync(
    registry,
    JSON.stringify({
      carriers: {
        MSCU: {
          name: "MSC",
          adapter: "dcsa-tnt-2.2",
          baseUrl: `http://127.0.0.1:${(carrier.address() as AddressInfo).port}`,
          auth: { kind: "none" },
        },
      },
    }),
  );
  app = await startTestApp({
    env: {
      QUAYSIDE_CARRIER_REGISTRY: registry,
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_WORKERS: "off",
    },
  });
  org = await app.fixtures.organization();
});
afterAll(async () => {
  await app?.stop();
  carrier?.close();
});

describe("a database too busy to start a transaction", () => {
  it("answers 503 database_unavailable with Retry-After, not 500", async () => {
    const { db } = app.services;
    const held: Promise<unknown>[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every connection taken for 4 s, well past the 2 s a transaction waits for one.
    const HOLD_MS = 4_000;
    let heldAt = 0;
    onCarrierCall = async () => {
      const connections = db.kind === "postgres" ? 10 : 1;
      let taken = 0;
      const allTaken = new Promise<void>((resolve) => {
        for (let i = 0; i < connections; i++) {
          held.push(
            db.prisma.$transaction(
              async (tx) => {
                await tx.$queryRaw`SELECT 1`;
                if (++taken === connections) resolve();
                await released;
              },
              { maxWait: 10_000, timeout: 20_000 },
            ),
          );
        }
      });
      await allTaken;
      heldAt = performance.now();
      setTimeout(release, HOLD_MS);
    };
    try {
      const res = await fetch(`${app.url}/api/v1/container/MSCU1234566?sealine=MSCU`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await res.json()).toMatchObject({
        success: false,
        statusCode: 503,
        data: { error: "database_unavailable" },
      });
      expect(app.logs.some((l) => l.outcome === "database_unavailable")).toBe(true);
      // On PostgreSQL the pool's wait is bounded, so the answer comes before the hold ends; PGlite's
      // one connection has no such wait, and Prisma reports the timeout once it gets the connection.
      if (db.kind === "postgres") expect(performance.now() - heldAt).toBeLessThan(HOLD_MS);
    } finally {
      release();
      await Promise.all(held);
      onCarrierCall = async () => undefined;
    }
    // Once the hold ends, the same lookup is answered.
    const after = await fetch(`${app.url}/api/v1/container/MSCU1234566?sealine=MSCU`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(after.status).toBe(404);
  }, 60_000);
});
