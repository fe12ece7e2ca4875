import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DayOneReport } from "../../src/app/day-one";
import { startTestApp, type TestApp } from "../support/app";

/**
 * Day one (issue 36, docs/day-one.md): a fresh embedded install samples the simulator's recent past in
 * the background. What a newcomer notices: the server is ready at once, and minutes later the board,
 * per-port readings with all five components and their 90-day history, and the demo's shipments with
 * predictive ETA and D&D are there, on the demo key.
 */
const DEMO_KEY = "qs_day_one_demo_key_0123456789abcdef";

describe("day one on a fresh embedded install", { timeout: 600_000 }, () => {
  let app: TestApp;
  let dataDir: string;
  let readyBeforeDayOne = false;
  let report: DayOneReport | null;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "quayside-day-one-"));
    app = await startTestApp({
      env: {
        // What `npm start` is: a PGlite folder (on the PostgreSQL pass, day one is asked for), the
        // embedded simulator, the workers and the demo.
        QUAYSIDE_DATA_DIR: dataDir,
        QUAYSIDE_DAY_ONE: "on",
        QUAYSIDE_SIMULATOR: "embedded",
        QUAYSIDE_SIMULATOR_PORT: "0",
        QUAYSIDE_WORKERS: "on",
        QUAYSIDE_DEMO: "true",
        QUAYSIDE_DEMO_KEY: DEMO_KEY,
        QUAYSIDE_LOG_LEVEL: "info",
      },
    });
    // Readiness answers while day one still samples: it does not wait for it.
    let settled = false;
    void app.dayOne.finally(() => {
      settled = true;
    });
    const ready = await fetch(`${app.url}/readyz`);
    readyBeforeDayOne = ready.status === 200 && !settled;
    report = await app.dayOne;
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (route: string) => {
    const res = await fetch(`${app.url}/api/v1${route}`, {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    });
    return { status: res.status, body: (await res.json()) as { total?: number; data: unknown } };
  };

  it("is ready before the recent past is in", () => {
    expect(readyBeforeDayOne).toBe(true);
    expect(report).not.toBeNull();
  });

  it("fills the board, with ports reading all five components and a 90-day history", async () => {
    const board = await get("/ports/congestion");
    expect(board.status).toBe(200);
    expect(board.body.total).toBeGreaterThan(40);
    expect(report!.boardPortsWithAllComponents).toBeGreaterThan(0);

    // The demo's ports: where its tracked boxes were discharged.
    const shipments = (await get("/shipments?limit=100")).body.data as {
      name: string;
      destination: string | null;
      predictive_eta: unknown;
      demurrage_risk: unknown;
    }[];
    expect(shipments.length).toBeGreaterThanOrEqual(20);
    let fullReadings = 0;
    for (const { locode } of board.body.data as { locode: string }[]) {
      const reading = (await get(`/ports/${locode}/congestion`)).body.data as {
        components: { name: string }[];
        history: { date: string }[];
        computed_at: string;
      };
      expect(reading.history.length, locode).toBe(90);
      if (reading.components.length === 5) fullReadings++;
    }
    expect(fullReadings).toBeGreaterThan(0);
    expect(fullReadings).toBe(report!.boardPortsWithAllComponents);
  });

  it("tracks the demo's shipments, with predictive ETA at sea and D&D once discharged", async () => {
    const shipments = (await get("/shipments?limit=100")).body.data as {
      status: string;
      predictive_eta: unknown;
      demurrage_risk: unknown;
    }[];
    expect(shipments.filter((s) => s.status === "IN_TRANSIT" && s.predictive_eta).length).toBeGreaterThan(0);
    expect(shipments.filter((s) => s.demurrage_risk).length).toBeGreaterThan(0);
    // The demo's plan shows every capability: disruptions answer, not 403.
    expect((await get("/disruptions")).status).toBe(200);
  });

  it("does not sample again on the next start (the database already holds the past)", async () => {
    const { needsDayOne } = await import("../../src/app/day-one");
    expect(await needsDayOne(app.services)).toBe(false);
  });
});

describe("the sandbox world built at start", { timeout: 300_000 }, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: { QUAYSIDE_SANDBOX_WORLD: "start", QUAYSIDE_WORKERS: "off" } });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("answers 503 with Retry-After at once while it builds, then answers from the world", async () => {
    const started = performance.now();
    const first = await fetch(`${app.url}/api/v1/sandbox/shipments`);
    const firstMs = performance.now() - started;
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("5");
    expect(await first.json()).toMatchObject({
      success: false,
      statusCode: 503,
      data: { error: "sandbox_starting" },
    });
    // Answered at once, not held for the build (which takes tens of seconds).
    expect(firstMs).toBeLessThan(5_000);

    let answer: Response | undefined;
    for (let i = 0; i < 240; i++) {
      // As a client following Retry-After would; a kept-alive connection the server closed while the
      // build held its thread is simply tried again.
      answer = await fetch(`${app.url}/api/v1/sandbox/shipments`).catch(() => undefined);
      if (answer && answer.status !== 503) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(answer!.status).toBe(200);
    const body = (await answer!.json()) as { total: number; mode?: string };
    expect(body.total).toBe(8);
  });
});
