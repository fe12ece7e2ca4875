/**
 * The wire bodies of every tracking answer, byte for byte, against recorded ones: v1 (live fetch,
 * stored shipment with and without `include=full`, the list), compat (/tracking with and without the
 * route, /container, /route, /history and history-by-id), the sandbox, the MCP shipment tools and the
 * share page, about a delivered box with a DROP, a transshipped one, a bill of lading with several
 * boxes, a cancelled bill of lading and a box no carrier knows. One organisation, the embedded carrier
 * simulator and a fixed clock: every byte is decided by the code, so a change of any byte is a change
 * of the contract. The ids of rows the database makes (the shipment's uuid, the share token) are the
 * only things replaced before comparing. A body longer than 64 KiB (a share page: mostly the land of
 * its map) is recorded as its SHA-256, to keep the recording readable.
 *
 * After a deliberate change of the wire, record again with QUAYSIDE_RECORD_GOLDEN=1 and say in the
 * commit which bytes changed and why.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { callTool, httpClient, TRACKING_ENV } from "../mcp/support";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const NOW = "2026-11-20T12:00:00.000Z";
const FIXTURE = new URL("./fixtures/wire-golden.json", import.meta.url);
const RECORD = process.env.QUAYSIDE_RECORD_GOLDEN === "1";

/** References of the simulator's world at NOW (a pure function of the reference and the time). */
const REFERENCES = [
  // Delivered, its last move a DROP at the consignee, a code no surface shows.
  { name: "delivered-with-drop", type: "container", number: "MSCU1000491" },
  // Three boxes on a journey with two transshipments.
  { name: "transshipped", type: "container", number: "MSCU1000064" },
  // Five boxes on one bill of lading, transshipped once.
  { name: "bill-of-lading-five-boxes", type: "bl", number: "MEDUCB780605" },
  // A booking the shipper cancelled (four boxes, none released): a B/L the world issued.
  { name: "cancelled-bill-of-lading", type: "bl", number: "MEDUAM814688" },
  // A box the carrier has no record of.
  { name: "unknown", type: "container", number: "MSCU1000070" },
] as const;

const SANDBOX = [
  "SBXU1004493",
  "SBXU1004739",
  "SBXU1002058",
  "SBXU1007363",
  "SBXU1040377",
  "SBXU1000029",
  "SBXU1000034",
] as const;

let app: TestApp;
let org: OrgWithKey;
let mcp: Client;

beforeAll(async () => {
  // No background work: a discovery job picking up a failed shipment mid-recording would make its
  // answer say "running" on a busy machine and "queued" on an idle one.
  app = await startTestApp({
    env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" },
    clock: new ManualClock(NOW),
  });
  org = await app.fixtures.organization({ plan: "professional" });
  mcp = await httpClient(app, org.key);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** One answer as recorded: the status and the body as the client received it. */
interface Answer {
  status: number;
  body: string;
}

async function http(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Answer> {
  const key = init.key === undefined ? org.key : init.key;
  const res = await fetch(`${app.url}${path}`, {
    ...init,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...init.headers },
  });
  return { status: res.status, body: recorded((await res.text()).replace(UUID, "<uuid>")) };
}

const recorded = (body: string) =>
  body.length <= 65_536
    ? body
    : `sha256 ${createHash("sha256").update(body).digest("hex")}, ${body.length} characters`;

const compat = (path: string, params: Record<string, string>) =>
  http(`/compat${path}?${new URLSearchParams({ api_key: org.key, ...params })}`, { key: null });

async function tool(name: string, reference: string): Promise<Answer> {
  const result = await callTool(mcp, name, { reference });
  return { status: result.isError ? 1 : 0, body: recorded(JSON.stringify(result)) };
}

async function everyAnswer(): Promise<Record<string, Answer>> {
  const answers: Record<string, Answer> = {};
  for (const ref of REFERENCES) {
    const at = (what: string) => `${ref.name} ${what}`;
    // The live fetch tracks the reference (a slot, a stored document); every other call reads it.
    answers[at("v1 live")] = await http(`/api/v1/${ref.type}/${ref.number}`);
    const shipment = `/api/v1/shipments/${ref.number}`;
    answers[at("v1 shipment")] = await http(shipment);
    answers[at("v1 shipment full")] = await http(`${shipment}?include=full`);
    const type = ref.type === "container" ? "CT" : "BL";
    answers[at("compat tracking")] = await compat("/tracking", { number: ref.number, type });
    answers[at("compat tracking route")] = await compat("/tracking", {
      number: ref.number,
      type,
      route: "true",
    });
    if (ref.type === "container") {
      answers[at("compat container")] = await compat("/container", { number: ref.number });
    }
    answers[at("compat route")] = await compat("/route", { number: ref.number, type, sealine: "MSCU" });
    const history = await compat("/history", { number: ref.number, type });
    answers[at("compat history")] = history;
    const first = (JSON.parse(history.body) as { data?: { requests?: { id: number }[] } }).data
      ?.requests?.[0];
    if (first) {
      answers[at("compat history entry")] = await compat("/history", {
        number: ref.number,
        type,
        id: String(first.id),
      });
    }
    answers[at("mcp status")] = await tool("get_shipment_status", ref.number);
    answers[at("mcp timeline")] = await tool("get_shipment_timeline", ref.number);
    const share = await http(`${shipment}/share`, { method: "POST" });
    const url = (JSON.parse(share.body) as { data?: { url?: string } }).data?.url;
    // A shipment no carrier has found is not shared (409 in words): its refusal is the answer kept.
    answers[at("share page")] = url ? await http(new URL(url).pathname, { key: null }) : share;
  }
  answers["v1 shipments"] = await http("/api/v1/shipments");
  answers["v1 bulk track"] = await http("/api/v1/track", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      shipments: REFERENCES.map((ref) => ({ type: ref.type, number: ref.number, sealine: "MSCU" })),
    }),
  });
  answers["sandbox shipments"] = await http("/api/v1/sandbox/shipments", { key: null });
  for (const number of SANDBOX) {
    answers[`sandbox ${number} live`] = await http(`/api/v1/sandbox/container/${number}`, { key: null });
    answers[`sandbox ${number} full`] = await http(`/api/v1/sandbox/shipments/${number}?include=full`, {
      key: null,
    });
  }
  return answers;
}

describe("the wire bodies of every tracking answer", () => {
  it("are byte for byte the recorded ones", async () => {
    const answers = await everyAnswer();
    // The cases are what this file says they are, so the recording covers what it claims to.
    const body = (name: string) => JSON.parse(answers[name]!.body);
    expect(body("delivered-with-drop v1 live").data.status).toBe("DELIVERED");
    expect(body("transshipped v1 live").data.locations_table.map((l: { role: string }) => l.role)).toContain(
      "transshipment",
    );
    expect(body("bill-of-lading-five-boxes v1 live").data.containers_table).toHaveLength(5);
    expect(body("cancelled-bill-of-lading compat tracking").message).toBe("SEALINE_CANCELED_SHIPMENT");
    expect(answers["unknown v1 live"]!.status).toBe(404);
    if (RECORD) {
      writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 1)}\n`);
      return;
    }
    expect(existsSync(FIXTURE), "no recording: run once with QUAYSIDE_RECORD_GOLDEN=1").toBe(true);
    const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, Answer>;
    expect(Object.keys(answers)).toEqual(Object.keys(recorded));
    for (const [name, answer] of Object.entries(answers)) expect(answer, name).toEqual(recorded[name]);
  }, 300_000);
});
