import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storiesActiveAt } from "../../simulator/news-stories";
import type { DayOneReport } from "../../src/app/day-one";
import { DEMO_ORGANIZATION } from "../../src/domain/accounts/demo";
import { callTool, httpClient } from "../mcp/support";
import { startTestApp, type TestApp } from "../support/app";
import { migratedDataFolder } from "../support/data-folder";

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
    // Migrated already, as after `quayside migrate` (day one is the subject, not the migrations), and
    // in memory: a fresh folder on the temporary folder's disk ran PGlite's initdb and every migration.
    dataDir = await migratedDataFolder();
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
        // The simulator's news, as `npm start` reads it (auto with the embedded simulator).
        QUAYSIDE_DISRUPTION_FEEDS: "simulator",
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

  it("shows active disruptions matched to the demo's shipments: v1, GraphQL, MCP and the dashboard", async () => {
    // The world's running news (simulator/news-stories.ts) has a story going in each family now.
    expect(storiesActiveAt(Date.now()).length).toBe(4);
    // The workers stop first: the live world keeps moving (a refresh can carry a box past the hub a
    // story names, a new report can end a story), and every surface below must read one stored state.
    // What they do on their own interval is done now instead: the feeds read, new shipments matched.
    await app.workers.stop();
    await app.services.feedIngestion!.tick();
    await app.services.disruptions.rematchChangedShipments(200);

    const active = await get("/disruptions?page_size=100");
    expect(active.status).toBe(200);
    const listed = active.body.data as { id: string; sources: { publisher: string }[] }[];
    expect(listed.length).toBeGreaterThan(0);
    // The digest's items name their own publishers (RSS <source>), so stories are corroborated.
    expect(listed.some((d) => new Set(d.sources.map((s) => s.publisher)).size >= 3)).toBe(true);

    const shipments = (await get("/shipments?limit=100")).body.data as { name: string; reference: string }[];
    let matched: { name: string; reference: string; disruption: { id: string; headline: string } } | null =
      null;
    for (const shipment of shipments) {
      const own = await get(`/shipments/${shipment.name}/disruptions`);
      expect(own.status).toBe(200);
      const first = (own.body.data as { id: string; headline: string }[])[0];
      if (first) {
        matched = { ...shipment, disruption: first };
        break;
      }
    }
    expect(matched, "a demo shipment touched by an active disruption").not.toBeNull();
    const { disruption } = matched!;
    expect(listed.map((d) => d.id)).toContain(disruption.id);
    const detail = (await get(`/disruptions/${disruption.id}`)).body.data as {
      affected: { count: number; references: string[] };
    };
    expect(detail.affected.count).toBeGreaterThan(0);

    const graphql = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${DEMO_KEY}` },
      body: JSON.stringify({
        query:
          "{ disruptions(touchingMyShipments: true, pageSize: 100) { __typename ... on DisruptionPage { total items { id affected { count } } } } }",
      }),
    });
    const page = ((await graphql.json()) as { data: { disruptions: Record<string, any> } }).data.disruptions;
    expect(page.__typename).toBe("DisruptionPage");
    expect(page.items.map((d: { id: string }) => d.id)).toContain(disruption.id);

    const mcp = await httpClient(app, DEMO_KEY);
    try {
      const news = await callTool(mcp, "get_route_news", { mine: true });
      expect(news.isError ?? false).toBe(false);
      const items = (news.structuredContent as { items: { id: string }[] }).items;
      expect(items.map((i) => i.id)).toContain(disruption.id);
    } finally {
      await mcp.close();
    }

    // The dashboard's shipment page, signed in as a teammate of the demo organisation.
    const organization = await app.services.db.prisma.organization.findFirstOrThrow({
      where: { name: DEMO_ORGANIZATION },
    });
    const password = "day-one-teammate-password";
    await app.services.accounts.createUser({
      organizationId: organization.id,
      email: "day-one-teammate@example.com",
      role: "member",
      password,
    });
    const visit = await fetch(`${app.url}/dashboard/sign-in`);
    const session = (visit.headers.get("set-cookie") ?? "").split(";")[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await visit.text())?.[1] ?? "";
    const signedIn = await fetch(`${app.url}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: session, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: token, email: "day-one-teammate@example.com", password }).toString(),
    });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get("set-cookie") ?? session).split(";")[0]!;
    const html = await (
      await fetch(`${app.url}/dashboard/shipments/${matched!.name}`, { headers: { cookie } })
    ).text();
    expect(html).toContain('<h2 id="disruptions">Disruptions</h2>');
    expect(html).not.toContain("No active disruption touches this shipment.");
    expect(html).not.toContain("not part of this plan");
    const headlineStart = disruption.headline.split(/[—&<>"']/)[0]!.trim();
    expect(html).toContain(headlineStart);
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
