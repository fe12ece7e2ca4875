/**
 * Issue 24 item 7: the simulator imitates real carriers' habits, and the service tracks through each of
 * them. For every habit, a known simulated B/L is tracked through the real service (compat API, embedded
 * simulator) with the habit on its carrier, and the journey (containers, events with their times,
 * locations and statuses, route, vessels) equals the one tracked without it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HabitName } from "../../simulator/habits";
import { knownShipments, type Shipment } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { compatGet, SIMULATOR_ENV } from "../compat/support";
import { startTestApp, type TestApp } from "../support/app";

// Whole minute: a per-minute refusal then asks for the full 60 s, which the service does not sleep.
const clock = new ManualClock("2026-11-20T12:00:00Z");
let app: TestApp;

beforeAll(async () => {
  // ONEY is asked 3 events a page, so the paging habits have pages to link.
  const registry = join(mkdtempSync(join(tmpdir(), "quayside-habits-")), "carriers.registry.json");
  const oney = { name: "Ocean Network Express", adapter: "dcsa-tnt-2.2", baseUrl: null, pageSize: 3 };
  writeFileSync(registry, JSON.stringify({ carriers: { ONEY: { ...oney, auth: { kind: "none" } } } }));
  app = await startTestApp({
    env: {
      ...SIMULATOR_ENV,
      QUAYSIDE_CARRIER_REGISTRY: registry,
      QUAYSIDE_CARRIER_TIMEOUT_MS: "15000",
      QUAYSIDE_SIMULATOR_HABITS: "ZIMU=wrapped-body,no-offset,plan-codes",
    },
    clock,
  });
}, 120_000);
afterAll(() => app?.stop());

/**
 * A shipment under way: some events reported (ACT, with offsets), some estimated, and, for a shipment
 * booked in the last week that ends more than 21 days ahead, some planned (PLN): every habit has
 * something to change.
 */
function shipmentUnderWay(scac: string, recent = false): Shipment {
  const now = clock.now().getTime();
  const day = 86_400_000;
  let tried = 0;
  for (const shipment of knownShipments(scac, clock.now())) {
    const booked = shipment.bookedAt.getTime();
    if (
      !shipment.cancelled &&
      (recent ? booked > now - 7 * day && booked < now - day : booked < now - 30 * day) &&
      shipment.completesAt.getTime() > now + (recent ? 30 * day : 0)
    ) {
      return shipment;
    }
    if (++tried >= 2_000) break;
  }
  throw new Error(`no ${scac} shipment under way`);
}

/** What a user reads of a tracking answer, without the moment it was fetched. */
async function journey(scac: string, number: string) {
  // A new organisation each time: nothing stored answers in the carrier's place.
  const org = await app.fixtures.organization({ plan: "business" });
  const answer = await compatGet(app, org.key, "/tracking", {
    number,
    type: "BL",
    sealine: scac,
    force_update: "true",
  });
  if (answer.body.status !== "success") {
    return { refused: `${answer.body.message}`, retryAfter: answer.headers.get("retry-after") };
  }
  const { metadata, ...rest } = answer.body.data as {
    metadata: { from_cache: boolean; stale_reason?: string | null };
  };
  // A carrier that refuses leaves the stored journey in place, marked stale.
  if (metadata.from_cache) return { stale: metadata.stale_reason };
  return rest;
}

async function setHabits(scac: string, habits: HabitName[], perMinuteLimit?: number): Promise<void> {
  const res = await fetch(`${app.simulator!.url}/_admin/habits/${scac}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ habits, ...(perMinuteLimit ? { perMinuteLimit } : {}) }),
  });
  expect(res.status).toBe(200);
}

/** The first page as the carrier sends it: body text and the paging headers. */
async function wire(scac: string, number: string) {
  const url = `${app.simulator!.url}/${scac}/v2/events?transportDocumentReference=${number}&limit=3`;
  const firstPage = await fetch(url);
  const whole = await fetch(url.replace("limit=3", "limit=1000"));
  return {
    bytes: Buffer.from(await whole.arrayBuffer()).toString("base64"),
    next: firstPage.headers.get("next-page"),
    link: firstPage.headers.get("link"),
  };
}

async function requestsReaching(scac: string): Promise<number> {
  const state = (await (await fetch(`${app.simulator!.url}/_admin/state`)).json()) as {
    requests: Record<string, number>;
  };
  return state.requests[scac] ?? 0;
}

describe("each habit of a real carrier leaves the tracked journey unchanged", () => {
  // Habits that keep every fact: the journey is the same to the last field.
  const lossless: HabitName[] = [
    "wrapped-body",
    "plan-codes",
    "lower-case-codes",
    "no-offset",
    "bom",
    "relative-paging",
    "link-paging",
  ];

  it.each(lossless)(
    "%s",
    async (habit) => {
      const shipment = shipmentUnderWay("ONEY", true);
      const number = shipment.transportDocumentReference;
      const before = await requestsReaching("ONEY");
      const plain = await journey("ONEY", number);
      expect(plain).not.toHaveProperty("refused");
      expect(await requestsReaching("ONEY")).toBeGreaterThan(before + 1);
      const plainWire = await wire("ONEY", number);
      await setHabits("ONEY", [habit]);
      try {
        // The habit shows on the wire, so the equality below is the service's tolerance, not luck.
        expect(await wire("ONEY", number)).not.toEqual(plainWire);
        expect(await journey("ONEY", number)).toEqual(plain);
      } finally {
        await fetch(`${app.simulator!.url}/_admin/habits/ONEY`, { method: "DELETE" });
      }
    },
    60_000,
  );

  it("all of them at once", async () => {
    const number = shipmentUnderWay("ONEY").transportDocumentReference;
    const plain = await journey("ONEY", number);
    await setHabits("ONEY", [...lossless]);
    try {
      expect(await journey("ONEY", number)).toEqual(plain);
    } finally {
      await fetch(`${app.simulator!.url}/_admin/habits/ONEY`, { method: "DELETE" });
    }
  }, 60_000);

  /**
   * Habits that withhold a fact (the vessel of an arrival, the mode of an inland leg): every event is
   * still there, at the same place and time, actual or not as before. (The route's dates are not compared:
   * the service reads the port of loading from the vessel legs, which these habits hide.)
   */
  const eventsOf = (j: unknown) =>
    (j as { containers: { number: string; events: Record<string, unknown>[] }[] }).containers.map((c) => ({
      number: c.number,
      events: c.events.map((e) => [e.order_id, e.date, e.actual, e.location]),
    }));
  it.each([
    ["no-transport-call", "ONEY"],
    ["unknown-mode", "EGLV"],
  ] as const)(
    "%s: the same events at the same places and times",
    async (habit, scac) => {
      const number = shipmentUnderWay(scac).transportDocumentReference;
      const plain = (await journey(scac, number)) as { route: unknown; locations: unknown };
      await setHabits(scac, [habit]);
      try {
        const odd = (await journey(scac, number)) as { route: unknown; locations: unknown };
        expect(eventsOf(odd)).toEqual(eventsOf(plain));
        expect(eventsOf(odd).flatMap((c) => c.events).length).toBeGreaterThan(3);
        expect(odd.locations).toEqual(plain.locations);
      } finally {
        await fetch(`${app.simulator!.url}/_admin/habits/${scac}`, { method: "DELETE" });
      }
    },
    60_000,
  );

  it("long-retry-after: refused for the hour without calling again, then the same journey", async () => {
    const number = shipmentUnderWay("CMDU").transportDocumentReference;
    await setHabits("CMDU", ["long-retry-after"]);
    const first = await journey("CMDU", number);
    expect(first).toEqual({ refused: "SEALINE_NO_RESPONSE", retryAfter: "3600" });
    const reached = await requestsReaching("CMDU");
    clock.advance(30 * 60_000);
    expect(await journey("CMDU", number)).toMatchObject({ refused: "SEALINE_NO_RESPONSE" });
    expect(await requestsReaching("CMDU")).toBe(reached);
    clock.advance(30 * 60_000);
    const after = await journey("CMDU", number);
    await fetch(`${app.simulator!.url}/_admin/habits/CMDU`, { method: "DELETE" });
    expect(after).toEqual(await journey("CMDU", number));
    expect(after).not.toHaveProperty("refused");
  }, 60_000);

  it("per-minute-limit: the carrier refuses the request over its allowance until the next minute", async () => {
    clock.set(new Date(Math.ceil(clock.now().getTime() / 60_000) * 60_000 + 60_000).toISOString());
    const number = shipmentUnderWay("HLCU").transportDocumentReference;
    await setHabits("HLCU", [], 1);
    try {
      const first = await journey("HLCU", number);
      expect(first).not.toHaveProperty("refused");
      const reached = await requestsReaching("HLCU");
      expect(await journey("HLCU", number)).toEqual({ refused: "SEALINE_NO_RESPONSE", retryAfter: "60" });
      expect(await requestsReaching("HLCU")).toBe(reached + 1);
      clock.advance(60_000);
      expect(await journey("HLCU", number)).toEqual(first);
    } finally {
      await fetch(`${app.simulator!.url}/_admin/habits/HLCU`, { method: "DELETE" });
    }
  }, 60_000);
});

describe("habits asked for at start (QUAYSIDE_SIMULATOR_HABITS)", () => {
  it("the embedded simulator starts with them, and the journey is the one without them", async () => {
    const state = (await (await fetch(`${app.simulator!.url}/_admin/state`)).json()) as { habits: unknown };
    expect(state.habits).toEqual({ ZIMU: { habits: ["wrapped-body", "no-offset", "plan-codes"] } });
    const number = shipmentUnderWay("ZIMU").transportDocumentReference;
    const habitual = await journey("ZIMU", number);
    await fetch(`${app.simulator!.url}/_admin/habits/ZIMU`, { method: "DELETE" });
    expect(habitual).not.toHaveProperty("refused");
    expect(habitual).toEqual(await journey("ZIMU", number));
  }, 60_000);
});
