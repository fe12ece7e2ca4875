/**
 * A congestion reading raised by a reported stoppage names the disruption that raised it (issue 36):
 * a port at its own normal reads `critical` from the news of a strike, and every surface that shows the
 * reading says which published disruption did it (GraphQL `raisedBy`, v1 `raised_by` on the board and
 * the per-port reading, MCP `get_port_conditions`, the dashboard's congestion board); once the news
 * reports the end, the score is the queue's own and nothing is named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CongestionBoardAnswer, CongestionReadingAnswer } from "../../facades/v1/contract/schemas/congestion";
import { ManualClock } from "../../src/lib/clock";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse("2026-11-20T06:00:00Z");
const PORT = "BEANR";
const PASSWORD = "a long enough dashboard password 42";
const STRIKE = "Strike halts container handling at the Port of Antwerp-Bruges";
const clock = new ManualClock(new Date(START));

let app: TestApp;
let org: OrgWithKey;
let operatorEmail: string;

const v1 = async (route: string) => {
  const res = await fetch(`${app.url}/api/v1${route}`, { headers: { authorization: `Bearer ${org.key}` } });
  expect(res.status, route).toBe(200);
  return res.json();
};

const RAISED = `raisedBy { id headline category severity }`;

async function graphqlReading() {
  const { body } = await graphql(
    app,
    org.key,
    `query($l: String!) {
       portCongestion(locode: $l) { __typename ... on PortCongestion { score bucket ${RAISED} } }
       portCongestionBoard { __typename ... on PortCongestionBoard { items { locode ${RAISED} } } } }`,
    { l: PORT },
  );
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as Record<string, any>;
}

async function dashboardBoard(): Promise<string> {
  const form = await fetch(`${app.url}/dashboard/sign-in`);
  const session = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const signedIn = await fetch(`${app.url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: session, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: token, email: operatorEmail, password: PASSWORD }).toString(),
  });
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
  const page = await fetch(`${app.url}/dashboard/operations/congestion`, { headers: { cookie } });
  expect(page.status).toBe(200);
  return page.text();
}

/** A news report as the feeds deliver it, through the disruption pipeline. */
async function report(title: string, summary: string, at: number): Promise<void> {
  const wire = { id: "test-wire", publisher: "Harbour Wire", kind: "news", authoritative: false };
  clock.set(new Date(at));
  await app.services.disruptions.ingest(wire, [
    {
      sourceId: wire.id,
      publisher: wire.publisher,
      guid: title,
      link: null,
      title,
      summary,
      publishedAt: new Date(at),
    },
  ]);
}

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "professional" });
  const { accounts } = app.services;
  const operator = await accounts.createOrganization({
    name: "Port operator",
    plan: "business",
    operator: true,
  });
  operatorEmail = `ops-${operator.id.slice(0, 8)}@example.com`;
  await accounts.createUser({
    organizationId: operator.id,
    email: operatorEmail,
    role: "owner",
    password: PASSWORD,
  });
  const prisma = app.services.db.prisma;
  const day = (ms: number) => new Date(Date.parse(new Date(ms).toISOString().slice(0, 10)));
  // A hundred days of the port's own normal (a 10-hour wait) and today's waits of the same length: a
  // port whose queue has not moved, so its own score is `normal`.
  await prisma.portCongestionSignal.createMany({
    data: Array.from({ length: 100 }, (_, i) => ({
      locode: PORT,
      day: day(START - (i + 1) * DAY),
      anchorageWaitH: 9 + (i % 3),
      anchorageN: 6,
      arrivals: 40,
      computedAt: day(START - i * DAY),
    })),
  });
  await prisma.portAnchorageWait.createMany({
    data: Array.from({ length: 6 }, (_, i) => ({
      locode: PORT,
      vesselKey: `2440000${i}`,
      anchoredAt: new Date(START - (14 + i) * HOUR),
      lastSeenAt: new Date(START - (4 + i) * HOUR),
      berthedAt: new Date(START - (4 + i) * HOUR),
    })),
  });
  expect((await app.services.congestion.scorePortNow(PORT))?.bucket).toBe("normal");
}, 180_000);

afterAll(() => app?.stop());

describe("a reading the news of a strike raised", () => {
  it("names nothing while the queue alone sets the score", async () => {
    const data = await graphqlReading();
    expect(data.portCongestion).toMatchObject({ bucket: "normal", raisedBy: [] });
    const board = CongestionBoardAnswer.parse(await v1("/ports/congestion"));
    expect(board.data.find((p) => p.locode === PORT)?.raised_by).toEqual([]);
  });

  it("names the strike on GraphQL, v1's board and reading, MCP and the dashboard", async () => {
    await report(STRIKE, "Strike by pilots: berths worked at a third of capacity.", START + HOUR);
    const strike = await app.services.db.prisma.disruption.findFirstOrThrow({
      where: { ports: { has: PORT }, status: "active" },
    });
    const scored = await app.services.congestion.scorePortNow(PORT);
    expect(scored).toMatchObject({ score: strike.severity === 4 ? 90 : 75, vesselsWaiting: 0 });
    const named = { id: strike.id, headline: strike.headline, category: "labor", severity: strike.severity };

    const data = await graphqlReading();
    expect(data.portCongestion.raisedBy).toEqual([named]);
    expect(
      data.portCongestionBoard.items.find((p: { locode: string }) => p.locode === PORT).raisedBy,
    ).toEqual([named]);

    // v1: on the board item and the per-port reading, each as its contract describes it.
    const board = CongestionBoardAnswer.parse(await v1("/ports/congestion"));
    expect(board.data.find((p) => p.locode === PORT)?.raised_by).toEqual([named]);
    const reading = CongestionReadingAnswer.parse(await v1(`/ports/${PORT}/congestion`));
    expect(reading.data).toMatchObject({ bucket: scored!.bucket, raised_by: [named] });
    // The id is the disruption the v1 API answers (the plan includes disruptions or says it does not).
    expect(
      (
        await fetch(`${app.url}/api/v1/disruptions/${strike.id}`, {
          headers: { authorization: `Bearer ${org.key}` },
        })
      ).status,
    ).not.toBe(404);

    // MCP: the key and the sentence.
    const mcp = await httpClient(app, org.key);
    const conditions = (await callTool(mcp, "get_port_conditions", { port: PORT })).structuredContent as any;
    expect(conditions.congestion.raised_by).toEqual([named]);
    expect(conditions.summary).toContain(`Raised by the news of a closure or strike: "${strike.headline}"`);
    await mcp.close();

    // The dashboard's congestion board, the port's row.
    const page = await dashboardBoard();
    const row = page.split("<tr>").find((r) => r.includes(PORT))!;
    expect(row).toContain(`News: ${strike.headline.replace(/&/g, "&amp;")}`);
    expect(row).toContain(`severity ${strike.severity}`);
  });

  it("names nothing once the news reports the end and the score is the queue's own", async () => {
    await report(
      "Strike ends at the Port of Antwerp-Bruges; terminals reopened",
      "Work resumed and the backlog is being cleared.",
      START + 2 * HOUR,
    );
    expect((await app.services.congestion.scorePortNow(PORT))?.bucket).toBe("normal");
    expect((await graphqlReading()).portCongestion.raisedBy).toEqual([]);
    const reading = CongestionReadingAnswer.parse(await v1(`/ports/${PORT}/congestion`));
    expect(reading.data.raised_by).toEqual([]);
    const mcp = await httpClient(app, org.key);
    const conditions = (await callTool(mcp, "get_port_conditions", { port: PORT })).structuredContent as any;
    expect(conditions.congestion.raised_by).toEqual([]);
    expect(conditions.summary).not.toContain("Raised by");
    await mcp.close();
    const row = (await dashboardBoard()).split("<tr>").find((r) => r.includes(PORT))!;
    expect(row).not.toContain("News:");
    expect(row).toContain("Its queue");
  });
});
