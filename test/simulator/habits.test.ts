/**
 * The simulator's habits at the wire, and its Commercial Schedules errors in the CS error shape
 * (CS 1.0.3 `ErrorResponse` with `DetailedError` items: `errorCodeText`, `errorCodeMessage`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runSimulatorCli } from "../../simulator/cli";
import { parseHabitsOption } from "../../simulator/habits";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { knownShipments } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";

function* knownShipmentsUpTo(scac: string, now: Date, max: number) {
  let n = 0;
  for (const shipment of knownShipments(scac, now)) {
    if (++n > max) return;
    yield shipment;
  }
}

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({
    port: 0,
    clock: new ManualClock("2026-11-20T12:00:00Z"),
    habits: { MAEU: { habits: ["wrapped-body", "plan-codes"] } },
    auth: { CMDU: { kind: "api-key", header: "keyId", value: "cma-key" } },
  });
});
afterAll(() => simulator.close());

describe("Commercial Schedules errors", () => {
  it.each([
    ["rate-limited", 429],
    ["server-error", 500],
  ] as const)("a %s fault answers %i in the CS error shape, not the T&T one", async (mode, status) => {
    simulator.faults.set("MSCU", { mode });
    try {
      for (const path of [
        "v1/point-to-point-routes?placeOfReceipt=CNSHA&placeOfDelivery=NLRTM",
        "v1/port-schedules?UNLocationCode=CNSHA&date=2026-11-21",
      ]) {
        const res = await fetch(`${simulator.url}/MSCU/${path}`);
        expect(res.status).toBe(status);
        const body = (await res.json()) as { statusCode: number; errors: Record<string, unknown>[] };
        expect(body.statusCode).toBe(status);
        expect(body.errors).toHaveLength(1);
        expect(Object.keys(body.errors[0]!).sort()).toEqual(["errorCodeMessage", "errorCodeText"]);
      }
      // T&T keeps its own shape.
      const tnt = (await (
        await fetch(`${simulator.url}/MSCU/v2/events?equipmentReference=MSCU1000001`)
      ).json()) as {
        errors: Record<string, unknown>[];
      };
      expect(Object.keys(tnt.errors[0]!).sort()).toEqual(["message", "reason"]);
    } finally {
      simulator.faults.clear();
    }
  });

  it("an authentication refusal on a CS resource is in the CS shape too", async () => {
    const res = await fetch(`${simulator.url}/CMDU/v1/port-schedules?UNLocationCode=CNSHA&date=2026-11-21`);
    expect(res.status).toBe(401);
    const body = (await res.json()) as { errors: Record<string, unknown>[] };
    expect(Object.keys(body.errors[0]!).sort()).toEqual(["errorCodeMessage", "errorCodeText"]);
  });
});

describe("habits at the wire", () => {
  it("a carrier started with wrapped-body and plan-codes answers { events } with PLAN for PLN", async () => {
    const now = simulator.clock.now();
    const shipment = [...knownShipmentsUpTo("MAEU", now, 500)].find(
      // Booked lately and sailing for weeks yet, so some of its events are still plans (PLN).
      (s) =>
        !s.cancelled &&
        s.bookedAt.getTime() > now.getTime() - 5 * 86_400_000 &&
        s.completesAt.getTime() > now.getTime() + 40 * 86_400_000,
    )!;
    const url = `${simulator.url}/MAEU/v2/events?transportDocumentReference=${shipment.transportDocumentReference}&limit=1000`;
    const habitual = (await (await fetch(url)).json()) as { events: { eventClassifierCode: string }[] };
    const saved = simulator.habits.get("MAEU")!;
    simulator.habits.clear("MAEU");
    const plain = (await (await fetch(url)).json()) as { eventClassifierCode: string }[];
    simulator.habits.set("MAEU", saved);
    expect(plain.some((e) => e.eventClassifierCode === "PLN")).toBe(true);
    expect(habitual.events).toEqual(
      plain.map((e) => (e.eventClassifierCode === "PLN" ? { ...e, eventClassifierCode: "PLAN" } : e)),
    );
  });

  it("the admin API refuses an unknown habit with 400 and an unknown carrier with 404", async () => {
    const put = (scac: string, body: unknown) =>
      fetch(`${simulator.url}/_admin/habits/${scac}`, { method: "PUT", body: JSON.stringify(body) });
    expect((await put("MSCU", { habits: ["sloppy"] })).status).toBe(400);
    expect((await put("XXXX", { habits: ["bom"] })).status).toBe(404);
  });

  it("--habits reads per-carrier lists and the real carriers' profile", () => {
    expect(parseHabitsOption(["MAEU=wrapped-body,plan-codes;hlcu=per-minute-limit=10"])).toEqual({
      MAEU: { habits: ["wrapped-body", "plan-codes"] },
      HLCU: { habits: [], perMinuteLimit: 10 },
    });
    expect(parseHabitsOption(["real"])).toMatchObject({ EGLV: { habits: ["plan-codes"] } });
    expect(parseHabitsOption(["MAEU=sloppy"])).toMatch(/unknown habit sloppy/);
  });
});

describe("quayside simulator --habits", () => {
  it("starts with the carriers' habits, says which, and refuses an unknown habit", async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const running = runSimulatorCli(
      ["--port", "0", "--habits", "real", "--habits", "ONEY=bom,per-minute-limit=5"],
      {
        signal: stop.signal,
        write: (line) => lines.push(line),
      },
    );
    await vi.waitFor(() => expect(lines.some((line) => line.includes("ONEY habits"))).toBe(true));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(lines[0] ?? "")?.[0] ?? "";
    const state = (await (await fetch(`${url}/_admin/state`)).json()) as {
      habits: Record<string, { habits: string[]; perMinuteLimit?: number }>;
    };
    expect(state.habits.ONEY).toEqual({ habits: ["bom"], perMinuteLimit: 5 });
    expect(state.habits.HLCU).toEqual({ habits: [], perMinuteLimit: 10 });
    expect(lines).toContain("  EGLV habits: plan-codes");
    stop.abort();
    await running;
    await expect(runSimulatorCli(["--port", "0", "--habits", "MAEU=sloppy"])).rejects.toThrow(
      /unknown habit sloppy/,
    );
  });
});
