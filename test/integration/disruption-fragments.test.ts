/**
 * Fragments of one event merged in storage (issue 35): two reports of one dock strike at two ports
 * start apart; the report of its end names both ports, and from then on v1 lists one resolved
 * disruption holding all three reports, with the three publishers as its sources; the fragment's id
 * keeps answering as the disruption it became, on v1, GraphQL and MCP (a client may have stored it),
 * and an id never published still answers 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedItem } from "../../src/domain/disruptions/normalise";
import { ManualClock } from "../../src/lib/clock";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const clock = new ManualClock(new Date("2026-06-05T12:00:00Z"));
const DAY = 86_400_000;
let app: TestApp;
let business: OrgWithKey;

function item(publisher: string, daysAgo: number, title: string, summary: string): FeedItem {
  return {
    sourceId: publisher,
    publisher,
    guid: `${publisher}-${title}`,
    link: `https://news.example/${encodeURIComponent(title)}`,
    title,
    summary,
    publishedAt: new Date(clock.now().getTime() - daysAgo * DAY),
  };
}

async function listed(status: "active" | "resolved") {
  const res = await fetch(`${app.url}/api/v1/disruptions?status=${status}`, {
    headers: { authorization: `Bearer ${business.key}` },
  });
  expect(res.status).toBe(200);
  return (
    (await res.json()) as {
      data: {
        id: string;
        entities: { ports: string[] };
        sources: { publisher: string }[];
        resolved_at: string | null;
      }[];
    }
  ).data;
}

beforeAll(async () => {
  app = await startTestApp({ clock });
  business = await app.fixtures.organization({ plan: "business" });
}, 120_000);
afterAll(() => app?.stop());

describe("fragments of one event", () => {
  let fragments: string[] = [];

  it("two ports' walkouts reported apart are two disruptions at first", async () => {
    const source = (publisher: string) => ({ id: publisher, publisher, kind: "news", authoritative: false });
    await app.services.disruptions.ingest(source("Tideline News"), [
      item(
        "Tideline News",
        3,
        "Dockworkers strike at the Port of Santos over pay",
        "A walkout halted container handling at Brazil's largest port.",
      ),
    ]);
    await app.services.disruptions.ingest(source("Berth Report"), [
      item(
        "Berth Report",
        2,
        "Paranagua terminals idle as dockers walk out",
        "Container handling stopped at the Port of Paranagua.",
      ),
    ]);
    const active = await listed("active");
    expect(active).toHaveLength(2);
    fragments = active.map((d) => d.id);
  });

  it("the end report naming both ports leaves one resolved disruption with all three publishers", async () => {
    await app.services.disruptions.ingest(
      { id: "Seaboard Courier", publisher: "Seaboard Courier", kind: "news", authoritative: false },
      [
        item(
          "Seaboard Courier",
          0,
          "Strike at the ports of Santos and Paranagua ends after pay deal",
          "Dockworkers at both ports returned to work after the union accepted the offer.",
        ),
      ],
    );
    expect(await listed("active")).toEqual([]);
    const resolved = await listed("resolved");
    expect(resolved).toHaveLength(1);
    const [strike] = resolved;
    expect(strike!.entities.ports).toEqual(["BRPNG", "BRSSZ"]);
    expect(strike!.sources.map((s) => s.publisher).sort()).toEqual([
      "Berth Report",
      "Seaboard Courier",
      "Tideline News",
    ]);
    expect(strike!.resolved_at).toBe(clock.now().toISOString());
    expect(fragments).toContain(strike!.id);
    const items = await app.services.db.prisma.disruptionItem.findMany({ select: { disruptionId: true } });
    expect(items.map((i) => i.disruptionId)).toEqual([strike!.id, strike!.id, strike!.id]);
  });

  it("the merged fragment's id answers the disruption it became on v1, GraphQL and MCP", async () => {
    const [strike] = await listed("resolved");
    const merged = fragments.find((id) => id !== strike!.id)!;
    const v1 = await fetch(`${app.url}/api/v1/disruptions/${merged.toUpperCase()}`, {
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(v1.status).toBe(200);
    const body = (await v1.json()) as {
      success: boolean;
      data: { id: string; entities: { ports: string[] } };
    };
    expect(body.success).toBe(true);
    // The answer is the surviving disruption, under its own id: the one to store from now on.
    expect(body.data.id).toBe(strike!.id);
    expect(body.data.entities.ports).toEqual(["BRPNG", "BRSSZ"]);

    const { body: gql } = await graphql(
      app,
      business.key,
      `query($id: String!) { disruption(id: $id) { __typename ... on Disruption { id status } } }`,
      { id: merged },
    );
    expect(gql.data?.disruption).toEqual({ __typename: "Disruption", id: strike!.id, status: "resolved" });

    const client = await httpClient(app, business.key);
    try {
      const result = await callTool(client, "get_disruption_detail", { id: merged });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { id: string }).id).toBe(strike!.id);
    } finally {
      await client.close();
    }
  });

  it("an id never published still answers 404 disruption_not_found", async () => {
    const res = await fetch(`${app.url}/api/v1/disruptions/00000000-0000-4000-8000-0000000000ff`, {
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { data: { error: string } }).data.error).toBe("disruption_not_found");
  });
});

describe("one report of the end of two coasts' lockouts", () => {
  const source = (publisher: string) => ({ id: publisher, publisher, kind: "news", authoritative: false });
  let before: string[] = [];

  it("ends both on v1 and keeps them two, each with its own ports", async () => {
    before = (await listed("resolved")).map((d) => d.id);
    await app.services.disruptions.ingest(source("Pacific Box Review"), [
      item(
        "Pacific Box Review",
        6,
        "Vancouver terminal employers lock out foremen, idling container berths",
        "Container terminals at Vancouver and Prince Rupert stopped work after the employers' lockout.",
      ),
    ]);
    await app.services.disruptions.ingest(source("Atlantic Cargo Daily"), [
      item(
        "Atlantic Cargo Daily",
        2,
        "Montreal port employers declare lockout at container terminals",
        "Dockworkers at Montreal were locked out after rejecting the employers' offer.",
      ),
    ]);
    expect((await listed("active")).map((d) => d.entities.ports)).toEqual(
      expect.arrayContaining([["CAPRR", "CAVAN"], ["CAMTR"]]),
    );
    await app.services.disruptions.ingest(source("Harbour Freight Wire"), [
      item(
        "Harbour Freight Wire",
        0,
        "Canadian port lockouts end as Ottawa orders binding arbitration",
        "The labour minister directed work to restart at Vancouver, Prince Rupert and Montreal.",
      ),
    ]);
    expect(await listed("active")).toEqual([]);
    const lockouts = (await listed("resolved")).filter((d) => !before.includes(d.id));
    expect(lockouts.map((d) => d.entities.ports).sort()).toEqual([["CAMTR"], ["CAPRR", "CAVAN"]]);
    for (const lockout of lockouts) expect(lockout.resolved_at).toBe(clock.now().toISOString());
  });
});
