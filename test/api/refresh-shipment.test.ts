/**
 * POST /api/v1/shipments/{id}/refresh (issue 38): the dashboard's "Refresh now" on the native API.
 * The core's refreshShipment decides; v1 answers its refusals as the outcome table says (429
 * refresh_too_soon with Retry-After and the instant, 400 with the reason), the carrier's new answer
 * as GET /container does. The sandbox's answers are in test/api/sandbox.test.ts and openapi.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import type { OrgWithKey, TestApp } from "../support/app";
import { startRefreshTestApp } from "../support/refresh";

const clock = new ManualClock("2026-11-15T12:00:00.000Z");
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  ({ app, org } = await startRefreshTestApp(clock));
}, 120_000);
afterAll(() => app?.stop());

async function v1(method: string, path: string, key: string | null = org.key) {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("POST /shipments/{id}/refresh", () => {
  it("refuses within the refresh gap with 429, the wait and the instant, then answers the carrier's new document once it has passed", async () => {
    clock.set("2026-11-15T12:00:00.000Z");
    const tracked = await v1("GET", "/container/MSCU1038521");
    expect(tracked.res.status).toBe(200);
    const id = (await v1("GET", "/shipments/MSCU1038521")).body.data.name as string;
    expect(id).toMatch(/^SHP-\d+$/);

    clock.set("2026-11-15T13:00:00.000Z");
    const shown = (await v1("GET", "/shipments/MSCU1038521")).body.data;
    expect(shown.refresh_eligible_now).toBe(false);
    const refused = await v1("POST", `/shipments/${id}/refresh`);
    expect(refused.res.status).toBe(429);
    const wait = (Date.parse(shown.next_refresh_eligible_at) - Date.parse("2026-11-15T13:00:00.000Z")) / 1000;
    expect(wait).toBeGreaterThan(0);
    expect(refused.res.headers.get("retry-after")).toBe(String(wait));
    expect(refused.body).toEqual({
      success: false,
      statusCode: 429,
      statusMessage: "Too Many Requests",
      message: expect.stringMatching(/less than one refresh gap ago/),
      data: {
        error: "refresh_too_soon",
        retryAfter: wait,
        // The instant GET /shipments/{id} shows: the answer and the read never disagree.
        next_refresh_eligible_at: shown.next_refresh_eligible_at,
      },
    });
    // Nothing was asked of the carrier.
    expect((await v1("GET", "/shipments/MSCU1038521")).body.data.last_synced_at).toBe(shown.last_synced_at);

    clock.set("2026-11-20T12:00:00.000Z");
    const refreshed = await v1("POST", "/shipments/MSCU1038521/refresh");
    expect(refreshed.res.status).toBe(200);
    expect(refreshed.body.success).toBe(true);
    expect(refreshed.body.data.reference_number).toBe("MSCU1038521");
    // The carrier's moved arrival, as the GraphQL test of the same world finds it.
    expect(refreshed.body.data.eta).not.toBe(shown.eta);
    expect(refreshed.res.headers.get("x-service-refresh-hint")).toMatch(/^read=\/api\/v1\/shipments\//);
    const after = (await v1("GET", "/shipments/MSCU1038521")).body.data;
    expect(after.last_synced_at).toBe("2026-11-20T12:00:00.000Z");
    // And the gap starts again from this answer.
    expect((await v1("POST", "/shipments/MSCU1038521/refresh")).res.status).toBe(429);
  });

  it("answers 400 with the reason for a delivered shipment, and 404 for one the organisation does not track", async () => {
    clock.set("2026-11-20T12:00:00.000Z");
    expect((await v1("GET", "/container/MSCU1030053")).res.status).toBe(200);
    clock.set("2026-11-22T12:00:00.000Z");
    const delivered = await v1("POST", "/shipments/MSCU1030053/refresh");
    expect(delivered.res.status).toBe(400);
    expect(delivered.res.headers.get("retry-after")).toBeNull();
    expect(delivered.body.data).toEqual({ error: "invalid_parameter", reason: "not_moving" });
    expect(delivered.body.message).toMatch(/delivered or cancelled/);

    const stranger = await app.fixtures.organization({ plan: "professional" });
    const other = await v1("POST", "/shipments/MSCU1030053/refresh", stranger.key);
    expect(other.res.status).toBe(404);
    expect(other.body.data).toEqual({ error: "shipment_not_found" });
  });

  it("is any teammate's to ask, refused to a view-only key and to a request without a key", async () => {
    clock.set("2026-11-22T12:00:00.000Z");
    const mate = await app.fixtures.teammate(org.organizationId);
    // The teammate reaches the shipment the owner tracked (refused only by the refresh limits).
    const asked = await v1("POST", "/shipments/MSCU1038521/refresh", mate.key);
    expect(asked.res.status).toBe(200);
    const viewer = await app.fixtures.teammate(org.organizationId, { viewOnly: true });
    const viewOnly = await v1("POST", "/shipments/MSCU1038521/refresh", viewer.key);
    expect(viewOnly.res.status).toBe(403);
    expect((await v1("POST", "/shipments/MSCU1038521/refresh", null)).res.status).toBe(401);
  });
});
