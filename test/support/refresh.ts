import type { ManualClock } from "../../src/lib/clock";
import { TRACKING_ENV } from "../mcp/support";
import { type OrgWithKey, startTestApp, type TestApp } from "./app";

/**
 * The app a "refresh now" test asks: the embedded simulator as the carriers, on the test's manual
 * clock (the refresh gap is counted on it), without background workers (nothing refreshes a shipment
 * but the test), for a professional organisation (whose plan allows refreshing on demand).
 */
export async function startRefreshTestApp(clock: ManualClock): Promise<{ app: TestApp; org: OrgWithKey }> {
  const app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  const org = await app.fixtures.organization({ plan: "professional" });
  return { app, org };
}
