/**
 * End to end, the shipments' side of the simulator's typhoon (issue 20): containers whose journeys
 * call Shanghai as port of discharge or transshipment while the world's typhoon closes it list the
 * event with `pod` or `transship`, a box that never calls Shanghai or Ningbo does not, the event's
 * `affected` counts the Shanghai ones, MCP get_route_news shows it; once the episode is over and the
 * feeds have moved on, the event resolves and leaves the shipments' lists.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodesBetween } from "../../simulator/world/episodes";
import { shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { callTool, httpClient } from "../mcp/support";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber } from "../support/references";

const HOUR = 3_600_000;
const typhoon = episodesBetween(Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 31)).find(
  (e) => e.kind === "typhoon",
)!;
const during = new Date(typhoon.start.getTime() + 22 * HOUR);
const clock = new ManualClock(during);
const CLOSED = typhoon.ports;

/** Ground truth from the world: MSCU boxes under way during the typhoon, by how they call its ports. */
function containersFromTheWorld(): { pod: string[]; transship: string[]; control: string } {
  const pod: string[] = [];
  const transship: string[] = [];
  let control: string | undefined;
  for (let serial = 100_000; serial < 140_000; serial++) {
    if (pod.length >= 2 && transship.length >= 2 && control) break;
    const number = containerNumber("MSCU", serial);
    const shipment = shipmentFor("MSCU", number, "equipment", during);
    // Under way for the whole test: booked before, back at a depot well after the episode.
    if (!shipment || shipment.cancelled) continue;
    if (shipment.completesAt.getTime() < typhoon.end.getTime() + 10 * 24 * HOUR) continue;
    const loading = shipment.portOfLoading.unLocode;
    const discharge = shipment.portOfDischarge.unLocode;
    const hubs = shipment.transshipmentPorts.map((p) => p.unLocode);
    if (CLOSED.includes(loading)) continue;
    if (discharge === "CNSHA" && !hubs.some((h) => CLOSED.includes(h))) {
      if (pod.length < 2) pod.push(number);
    } else if (hubs.includes("CNSHA") && !CLOSED.includes(discharge)) {
      if (transship.length < 2) transship.push(number);
    } else if (!control && ![discharge, ...hubs].some((p) => CLOSED.includes(p))) {
      control = number;
    }
  }
  if (!control || pod.length === 0 || transship.length === 0) {
    throw new Error("the simulator world has no Shanghai pod/transship or control box in the window");
  }
  return { pod, transship, control };
}

let app: TestApp;
let org: OrgWithKey;
let mcp: Client;
let shanghai: { pod: string[]; transship: string[] };
let control: string;

const v1 = async (path: string) => {
  const ask = () => fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${org.key}` } });
  // The feeds' tick holds this process for seconds (the simulator's digest is dozens of items): the
  // server may close an idle kept-alive socket just as it is reused; a client asks again, once.
  const res = await ask().catch((error: unknown) => {
    if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
    return ask();
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_DISRUPTION_FEEDS: "simulator",
      QUAYSIDE_DISRUPTION_FEED_INTERVAL_MS: "60000",
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
  mcp = await httpClient(app, org.key);
  const found = containersFromTheWorld();
  shanghai = { pod: found.pod, transship: found.transship };
  control = found.control;
  for (const reference of [...found.pod, ...found.transship, control]) {
    expect((await v1(`/container/${reference}`)).status).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

const typhoonOf = (list: Record<string, any>[]) =>
  list.find((d) => d.category === "weather" && d.entities.ports.includes("CNSHA"));

describe("the simulator's typhoon on the shipments calling Shanghai", () => {
  it("lists it on the Shanghai shipments (pod / transship), not on the control, then drops it once resolved", async () => {
    expect((await app.services.feedIngestion!.tick()).failed).toBe(0);
    await app.services.disruptions.rematchChangedShipments(100);

    for (const [reference, expected] of [
      ...shanghai.pod.map((r) => [r, "pod"] as const),
      ...shanghai.transship.map((r) => [r, "transship"] as const),
    ]) {
      const { status, body } = await v1(`/shipments/${reference}/disruptions`);
      expect(status, reference).toBe(200);
      const event = typhoonOf(body.data);
      expect(event, reference).toBeDefined();
      expect(event?.match_types, reference).toContain(expected);
      expect(event?.match_types, reference).not.toContain("pol");
    }
    // The control is tracked and under way too, so its empty list is the matching's doing.
    const controlShipment = await app.services.db.prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, reference: control },
    });
    expect(["DELIVERED", "CANCELLED"]).not.toContain(controlShipment.status);
    const controlList = await v1(`/shipments/${control}/disruptions`);
    expect(controlList.status).toBe(200);
    expect(typhoonOf(controlList.body.data)).toBeUndefined();

    const [typhoonId] = (
      await app.services.disruptions.list({
        severity: 1,
        category: "weather",
        port: "CNSHA",
        carrier: null,
        country: null,
        status: "active",
        since: null,
        page: 1,
        pageSize: 10,
      })
    ).items.map((e) => e.id);
    const detail = await v1(`/disruptions/${typhoonId}`);
    expect(detail.status).toBe(200);
    const tracked = [...shanghai.pod, ...shanghai.transship];
    expect(detail.body.data.affected.count).toBe(tracked.length);
    expect([...detail.body.data.affected.references].sort()).toEqual([...tracked].sort());

    const news = await callTool(mcp, "get_route_news", { reference: shanghai.pod[0]! });
    expect(news.isError ?? false).toBe(false);
    const item = (news.structuredContent as Record<string, any>).items.find(
      (i: Record<string, any>) => i.id === typhoonId,
    );
    expect(item?.matchTypes).toContain("pod");

    // After the episode and the resolution window: the event resolves and leaves the lists.
    clock.set(new Date(typhoon.end.getTime() + 6 * HOUR));
    await app.services.feedIngestion!.tick();
    expect((await app.services.disruptions.get(typhoonId!))!.status).toBe("resolved");
    for (const reference of tracked) {
      const { body } = await v1(`/shipments/${reference}/disruptions`);
      expect(
        body.data.find((d: Record<string, any>) => d.id === typhoonId),
        reference,
      ).toBeUndefined();
    }
  });
});
