import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp({ env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0" } });
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe.skipIf(!hasChromium)("the public share page in Chromium", () => {
  it("renders status, ETA, milestones, containers and a server-drawn map, with no external request, and disappears when revoked", async () => {
    const org = await app.fixtures.organization();
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 1,
      start: 500_000,
    });
    const headers = { authorization: `Bearer ${org.key}` };
    await fetch(`${app.url}/api/v1/container/${known[0]}`, { headers });
    const created = await fetch(`${app.url}/api/v1/shipments/${known[0]}/share`, { method: "POST", headers });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    expect(data.url).toMatch(/\/share\/[A-Za-z0-9_-]{32}$/);

    const page = await browser.newPage({ javaScriptEnabled: false });
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    const response = await page.goto(data.url);
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe(known[0]);
    expect(await page.getByTestId("status").textContent()).toMatch(/Planned|In transit|Delivered/);
    expect(await page.getByTestId("eta").textContent()).toMatch(/\d{4}-\d\d-\d\d/);
    expect(await page.locator("svg.route-map path.land").count()).toBe(1);
    expect(await page.locator("svg.route-map path.route").getAttribute("d")).toMatch(/^M/);
    expect(await page.locator("svg.route-map .stop").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator("text=Milestones").count()).toBe(1);
    expect(await page.locator(`td:has-text("${known[0]}")`).count()).toBe(1);
    expect(requested.every((u) => u.startsWith(app.url))).toBe(true);
    const html = await page.content();
    expect(html).not.toContain(org.key);
    expect(html).not.toMatch(/@example\.com|Org \d/);

    const revoked = await fetch(`${app.url}/api/v1/shipments/${known[0]}/share`, {
      method: "DELETE",
      headers,
    });
    expect(await revoked.json()).toMatchObject({ success: true, revoked: true });
    const gone = await page.goto(data.url);
    expect(gone?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toMatch(/not available/);
    await page.close();
  });
});
