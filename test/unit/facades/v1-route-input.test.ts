import type { AddressInfo } from "node:net";
import express, { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FacadeDeps, handler } from "../../../facades/facade";
import type { RouteContract } from "../../../facades/v1/contract/routes";
import { checked } from "../../../facades/v1/input";
import { createV1Handlers, mountV1Contract } from "../../../facades/v1/router";
import { jsonBody } from "../../../src/http/input-guard";

/**
 * The v1 handlers as the router mounts them, without a core: `run` fails the request if input the
 * contract refuses ever got past the router's check, so every 400 here is the contract's own.
 */
const noCore = {
  run: () => {
    throw new Error("the core was asked although the input was refused");
  },
  baseUrl: "http://quayside.test",
} as unknown as FacadeDeps;

/** A route no handler file knows of: what a new route gets from its contract alone. */
const berthWindows = {
  method: "get",
  path: "/berths/{locode}/windows",
  operationId: "berthWindows",
  tag: "Lookups",
  summary: "Berth windows at a port",
  params: z.object({
    locode: z.string().regex(/^[A-Z]{2}[A-Z0-9]{3}$/, "locode must be a 5-character UN/LOCODE, e.g. NLRTM"),
  }),
  query: z.object({ days: z.coerce.number().int().min(1).max(14, "days is at most 14").default(7) }),
  responses: {},
  errors: {},
} as const satisfies RouteContract;

let base = "";
let server: ReturnType<ReturnType<typeof express>["listen"]>;
const answered: unknown[] = [];

beforeAll(async () => {
  const app = express();
  const router = Router();
  router.use(jsonBody("1mb"));
  mountV1Contract(router, createV1Handlers(noCore), () => []);
  router.get(
    "/berths/:locode/windows",
    handler(
      checked(berthWindows, async (_req, res, { params, query }) => {
        answered.push({ locode: params.locode, days: query.days });
        res.json({ success: true, data: { locode: params.locode, days: query.days } });
      }),
    ),
  );
  app.use("/api/v1", router);
  server = app.listen(0);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const refusal = (message: string, data: Record<string, unknown>) => ({
  status: 400,
  body: {
    success: false,
    statusCode: 400,
    statusMessage: "Bad Request",
    message,
    data: { error: "invalid_parameter", ...data },
  },
});

describe("v1 input is refused from the route's contract, before the core is asked", () => {
  it.each([
    [
      "a query value",
      "GET",
      "/ports?search=a",
      undefined,
      "search needs at least 2 characters.",
      { param: "search" },
    ],
    [
      "a repeated query parameter",
      "GET",
      "/carriers?search=ma&search=ms",
      undefined,
      "search must be a single string.",
      { param: "search" },
    ],
    [
      "a path parameter",
      "GET",
      "/ports/RTM/congestion",
      undefined,
      "locode must be a 5-character UN/LOCODE, e.g. CNSHA",
      { param: "locode" },
    ],
    [
      "a query value of a route with path parameters",
      "GET",
      "/shipments/SHP-1000?include=all",
      undefined,
      "include accepts only 'full'.",
      { param: "include" },
    ],
    [
      "an unknown body field",
      "PATCH",
      "/shipments/SHP-1000",
      { colour: "red" },
      "Unknown field: colour",
      { param: "body" },
    ],
    [
      "a body field, in the route's one sentence",
      "POST",
      "/shipments/retry-failed",
      { shipment_ids: "SHP-1000" },
      "shipment_ids must be an array of strings.",
      { param: "shipment_ids" },
    ],
  ])("%s", async (_label, method, path, body, message, data) => {
    expect(await call(method, path, body)).toEqual(refusal(message, data));
  });

  it("names a nested field by its whole path and calls a wrong frame a malformed body", async () => {
    expect(await call("POST", "/track", { shipments: [{ type: "container" }] })).toEqual(
      refusal("shipments.0.number: Invalid input: expected string, received undefined", {
        error: "malformed_body",
        param: "shipments.0.number",
      }),
    );
    expect(await call("POST", "/partner-sources/ps_1/events", {})).toEqual(
      refusal('events is required: {"events": [...]} with 1 to 100 events.', {
        error: "malformed_body",
        param: "events",
      }),
    );
  });
});

describe("a new route", () => {
  it("is refused with its contract's message, with no validation of its own", async () => {
    expect(await call("GET", "/berths/rotterdam/windows")).toEqual(
      refusal("locode must be a 5-character UN/LOCODE, e.g. NLRTM", { param: "locode" }),
    );
    expect(await call("GET", "/berths/NLRTM/windows?days=30")).toEqual(
      refusal("days is at most 14", { param: "days" }),
    );
    expect(answered).toEqual([]);
  });

  it("gets its input parsed as the contract says (a number, a default)", async () => {
    expect(await call("GET", "/berths/NLRTM/windows?days=3")).toEqual({
      status: 200,
      body: { success: true, data: { locode: "NLRTM", days: 3 } },
    });
    expect(await call("GET", "/berths/NLRTM/windows")).toEqual({
      status: 200,
      body: { success: true, data: { locode: "NLRTM", days: 7 } },
    });
  });
});
