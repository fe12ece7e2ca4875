import AxeBuilder from "@axe-core/playwright";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { simulatedContainers } from "../support/references";

/**
 * Issue 34 item 4 in the browser: the dashboard shows a port's time at the port's clock with its zone
 * and the same moment in UTC, from the core's fields (docs/decisions/times.md), and every other time in
 * the reader's zone with that zone's name. Debian's Chromium, the reader in Singapore.
 */
const PASSWORD = "tide-tables-at-dawn-34";
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_WORKERS: "off" },
  });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe.skipIf(!hasChromium)("times on the dashboard", { timeout: 240_000 }, () => {
  it("shows the arrival at the port's clock with its offset and UTC, other times with the reader's zone, and passes axe", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    const email = `times-${org.organizationId.slice(0, 8)}@example.com`;
    await app.services.accounts.createUser({
      organizationId: org.organizationId,
      email,
      name: "Tess Times",
      role: "owner",
      password: PASSWORD,
    });
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 6 });
    const headers = { authorization: `Bearer ${org.key}` };
    for (const number of known) await fetch(`${app.url}/api/v1/container/${number}`, { headers });
    // A shipment arriving at a port off UTC, as the core describes it.
    const READ = `query($id: String!) { shipment(id: $id) { name ata
      summary { arrival arrivalLocalDateTime arrivalUtcOffset } } }`;
    let chosen: {
      name: string;
      summary: { arrival: string; arrivalLocalDateTime: string; arrivalUtcOffset: string };
    } | null = null;
    for (const number of known) {
      const s = ((await graphql(app, org.key, READ, { id: number })).body.data as any).shipment;
      if (!s.ata && s.summary?.arrivalUtcOffset && s.summary.arrivalUtcOffset !== "+00:00") chosen = s;
    }
    expect(chosen, "a tracked shipment arrives at a port off UTC").not.toBeNull();
    const { arrival, arrivalLocalDateTime: local, arrivalUtcOffset: offset } = chosen!.summary;

    const context = await browser.newContext({ timezoneId: "Asia/Singapore" });
    const page = await context.newPage();
    await page.goto(`${app.url}/dashboard/sign-in`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${app.url}/dashboard`);
    await page.goto(`${app.url}/dashboard/shipments/${chosen!.name}`);

    const day = (text: string) =>
      `${Number(text.slice(8, 10))} ${MONTHS[Number(text.slice(5, 7)) - 1]} ${text.slice(0, 4)}`;
    const utcText =
      arrival.slice(0, 10) === local.slice(0, 10)
        ? `${arrival.slice(11, 16)} UTC`
        : `${day(arrival)} ${arrival.slice(11, 16)} UTC`;
    const eta = page
      .locator("dt", { hasText: "Estimated arrival" })
      .locator("xpath=following-sibling::dd[1]");
    await expect
      .poll(() => eta.textContent())
      .toBe(`${day(local)} ${local.slice(11, 16)} UTC${offset} (${utcText})`);
    // The page script leaves a port's time as written (it names its own clock).
    expect(await eta.locator("time").getAttribute("datetime")).toBe(`${local.replace(" ", "T")}${offset}`);
    // Every milestone of the timeline says its zone: the port's offset and UTC, or the reader's zone.
    const whens = await page
      .locator("section[aria-labelledby=timeline] tbody tr td:first-child")
      .allTextContents();
    expect(whens.length).toBeGreaterThan(0);
    for (const when of whens) expect(when).toMatch(/UTC|GMT/);
    // An instant (when the carrier data came) in the reader's zone, with the zone named.
    const synced = page.locator("p", { hasText: "Data from the carrier" }).locator("time").first();
    await expect.poll(() => synced.textContent()).toMatch(/GMT\+8/);

    await page.goto(`${app.url}/dashboard/shipments`);
    const row = page.locator("tr", { hasText: chosen!.name });
    expect(await row.locator("time[data-clock=port]").textContent()).toContain(`UTC${offset}`);

    for (const path of [`/dashboard/shipments/${chosen!.name}`, "/dashboard/shipments", "/dashboard"]) {
      await page.goto(`${app.url}${path}`);
      const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${path}: ${v.id}`)).toEqual([]);
    }
    await context.close();
  });
});
