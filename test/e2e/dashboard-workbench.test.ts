import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { startReceiver } from "../support/receiver";

/**
 * Issue 38 part B in Debian's Chromium: the webhook workbench (a failing delivery in words, its
 * request and answers, resend, delete), no one-click destruction (each destructive action asks first,
 * on a page of its own that works without script), the grouped navigation, form errors that keep what
 * was typed, the quotes and reports pages; axe on every page visited.
 */
const PASSWORD = "gantry-crane-at-noon-38";
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let org: OrgWithKey;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** Pages visited, for the accessibility check at the end. */
const visited = new Map<string, string>();

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
  });
  receiver = await startReceiver();
  org = await app.fixtures.organization({ plan: "professional" });
  await app.services.accounts.createUser({
    organizationId: org.organizationId,
    email: `owner-${org.organizationId.slice(0, 8)}@example.com`,
    name: "Wren Workbench",
    role: "owner",
    password: PASSWORD,
  });
  await app.services.accounts.createUser({
    organizationId: org.organizationId,
    email: `member-${org.organizationId.slice(0, 8)}@example.com`,
    name: "Milo Member",
    role: "member",
    password: `${PASSWORD}-m`,
  });
  if (hasChromium) {
    browser = await launchChromium();
    context = await browser.newContext({ timezoneId: "Europe/Amsterdam" });
    page = await context.newPage();
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await app?.stop();
});

const main = () => page.locator("main").textContent();
const seen = (name: string) => visited.set(name, page.url());

describe.skipIf(!hasChromium)("the dashboard's workbench", { timeout: 240_000 }, () => {
  it("signs in and shows the navigation in groups", async () => {
    await page.goto(`${app.url}/dashboard/sign-in`);
    await page.getByLabel("E-mail address").fill(`owner-${org.organizationId.slice(0, 8)}@example.com`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${app.url}/dashboard`);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    for (const [group, links] of [
      [
        "Shipments",
        ["Overview", "Shipments", "Track", "Customers", "Quotes", "D&D terms", "Documents", "Reports"],
      ],
      ["Developers", ["API keys", "Webhooks", "Partner sources", "Usage"]],
      ["Account", ["Team", "Notifications", "Support", "Account"]],
    ] as const) {
      const list = nav.getByRole("list", { name: group });
      expect(await list.getByRole("link").allTextContents()).toEqual([...links]);
    }
    // Not the deployment's operator: no Operations group.
    expect(await nav.getByRole("list", { name: "Operations" }).count()).toBe(0);
    // The contract terms page is reached from the navigation, and marked there as the current page.
    await nav.getByRole("link", { name: "D&D terms" }).click();
    await page.waitForURL(`${app.url}/dashboard/dnd-terms`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Demurrage and detention contract terms",
    );
    expect(await nav.getByRole("link", { name: "D&D terms" }).getAttribute("aria-current")).toBe("page");
  });

  it("shows a failing delivery in words with its request, then resends a delivered one and deletes the endpoint after asking", async () => {
    await page.goto(`${app.url}/dashboard/webhooks`);
    // Each event with what it means.
    expect(await main()).toContain("The arrival at the port of discharge moved (never on the first one).");
    // A refused URL is said about the URL, and what was typed stays.
    await page.getByLabel("URL (https)").fill("ftp://hooks.example.com/in");
    await page.getByLabel("eta.changed").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/The URL was not accepted: .*https/);
    expect(await page.getByLabel("URL (https)").inputValue()).toBe("ftp://hooks.example.com/in");
    expect(await page.getByLabel("eta.changed").isChecked()).toBe(true);

    // An endpoint where nothing listens: the delivery fails, said in words.
    const gone = await startReceiver();
    await gone.close();
    await page.getByLabel("URL (https)").fill(gone.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("button", { name: "Send test" }).click();
    await app.workers.webhooks.runOnce();
    await page.goto(`${app.url}/dashboard/webhooks`);
    const failing = page.getByTestId("delivery").first();
    expect(await failing.textContent()).toMatch(
      /Waiting[\s\S]*Nothing answered at the endpoint's address[\s\S]*Next attempt/,
    );
    expect(await main()).not.toMatch(/ECONNREFUSED/);
    seen("webhooks");
    await failing.getByRole("link", { name: /Request and answers/ }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/deliveries\/[\w-]+$/);
    expect(await page.locator("h1").textContent()).toBe("Delivery of webhook.test");
    expect(await page.getByRole("table", { name: "Request headers" }).textContent()).toMatch(
      /x-service-event\s*webhook\.test/,
    );
    expect(await page.getByTestId("request-body").textContent()).toContain('"event": "webhook.test"');
    expect(await page.getByTestId("attempt").textContent()).toMatch(/no answer[\s\S]*Nothing answered/);
    // Still being tried: not offered for resending yet.
    expect(await page.getByRole("button", { name: "Resend this delivery" }).count()).toBe(0);
    seen("delivery-failing");

    // Deleting asks first, and nothing is deleted until the danger button is pressed.
    await page.goto(`${app.url}/dashboard/webhooks`);
    await page.getByRole("link", { name: `Delete ${gone.url}…` }).click();
    expect(await page.locator("h1").textContent()).toBe(`Delete the endpoint ${gone.url}?`);
    seen("webhook-delete-confirm");
    expect(await app.services.db.prisma.webhookEndpoint.count({ where: { url: gone.url } })).toBe(1);
    await page.getByRole("link", { name: /Cancel/ }).click();
    await page.waitForURL(`${app.url}/dashboard/webhooks`);
    expect(await app.services.db.prisma.webhookEndpoint.count({ where: { url: gone.url } })).toBe(1);
    await page.getByRole("link", { name: `Delete ${gone.url}…` }).click();
    await page.getByRole("button", { name: "Delete the endpoint" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/Endpoint deleted/);
    expect(await page.getByTestId("endpoint").count()).toBe(0);

    // A delivered one is resent as a new delivery of the same body.
    await page.getByLabel("URL (https)").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("button", { name: "Send test" }).click();
    await app.workers.webhooks.runOnce();
    await page.goto(`${app.url}/dashboard/webhooks`);
    await page
      .getByTestId("delivery")
      .first()
      .getByRole("link", { name: /Request and answers/ })
      .click();
    expect(await page.getByTestId("delivery-status").textContent()).toContain("Delivered");
    expect(await page.getByTestId("attempt").textContent()).toMatch(/HTTP 200[\s\S]*Acknowledged/);
    seen("delivery-delivered");
    await page.getByRole("button", { name: "Resend this delivery" }).click();
    await page.waitForURL(/resent=1$/);
    expect(await page.getByRole("status").first().textContent()).toMatch(/Sent again/);
    await app.workers.webhooks.runOnce();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);

    // Rotating the secret asks first too.
    await page.goto(`${app.url}/dashboard/webhooks`);
    await page.getByRole("link", { name: `Rotate secret of ${receiver.url}…` }).click();
    expect(await main()).toMatch(/signed with it only/);
    await page.getByRole("button", { name: "Rotate the secret" }).click();
    expect(await page.getByTestId("new-secret").textContent()).toMatch(/^whsec_/);
  });

  it("refuses a second key of the same name in words, keeping what was typed, and revokes only after asking", async () => {
    await page.goto(`${app.url}/dashboard/keys`);
    await page.getByLabel("Name").fill("Nightly sync");
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.getByTestId("new-key").textContent()).toMatch(/^qs_/);
    await page.getByLabel("Name").fill("nightly sync");
    await page.getByLabel(/Expires after/).fill("30");
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.getByRole("alert").textContent()).toContain(
      'A live key is already named "nightly sync"',
    );
    expect(await page.getByLabel("Name").inputValue()).toBe("nightly sync");
    expect(await page.getByLabel(/Expires after/).inputValue()).toBe("30");
    seen("keys-refused");

    await page.getByRole("link", { name: "Revoke Nightly sync…" }).click();
    expect(await page.locator("h1").textContent()).toBe('Revoke the key "Nightly sync"?');
    const live = () =>
      app.services.db.prisma.apiKey.count({
        where: { organizationId: org.organizationId, name: "Nightly sync", revokedAt: null },
      });
    expect(await live()).toBe(1);
    // The confirmation is a plain form: it works with script off as well.
    expect(await page.locator('form[method="post"] button.danger').textContent()).toBe("Revoke Nightly sync");
    seen("key-revoke-confirm");
    await page.getByRole("button", { name: "Revoke Nightly sync" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/revoked/);
    expect(await live()).toBe(0);
  });

  it("removes a teammate only after asking", async () => {
    await page.goto(`${app.url}/dashboard/team`);
    await page.getByRole("link", { name: "Remove Milo Member…" }).click();
    expect(await main()).toMatch(/signed out at once, every API key they hold is revoked/);
    seen("team-remove-confirm");
    expect(await app.services.db.prisma.user.count({ where: { name: "Milo Member", removedAt: null } })).toBe(
      1,
    );
    await page.getByRole("button", { name: "Remove Milo Member" }).click();
    expect(await page.getByRole("status").first().textContent()).toContain("Milo Member was removed");
  });

  it("asks for a freight quote, keeping what was typed when it is refused, and lists it", async () => {
    await page.getByRole("link", { name: "Quotes" }).click();
    await page.waitForURL(`${app.url}/dashboard/quotes`);
    expect(await main()).toContain("No quote requests yet");
    await page.getByLabel(/^From/).fill("CNSHA");
    await page.getByLabel(/^To/).fill("NLRTM");
    await page.getByLabel(/Container type/).fill("40HC");
    await page.getByLabel("Containers").fill("2");
    await page.getByLabel("Cargo ready on").fill("2001-01-01");
    await page.getByLabel("Commodity").fill("Bicycle parts");
    await page.getByRole("button", { name: "Ask for a quote" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/ready/i);
    expect(await page.getByLabel("Commodity").inputValue()).toBe("Bicycle parts");
    expect(await page.getByLabel(/^From/).inputValue()).toBe("CNSHA");
    seen("quotes-refused");
    // Within the year ahead the core accepts (the app runs on the real clock here).
    await page
      .getByLabel("Cargo ready on")
      .fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    await page.getByRole("button", { name: "Ask for a quote" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/Request RFQ-\d+ sent/);
    expect(await page.getByTestId("quote-request").textContent()).toMatch(
      /Shanghai \(CNSHA\) → Rotterdam \(NLRTM\)[\s\S]*2 × 40HC[\s\S]*Waiting for a quote/,
    );
    // One date shape with the zone: a moment in the reader's zone (Amsterdam), a calendar day alone.
    const row = page.getByTestId("quote-request");
    await expect
      .poll(() => row.locator("time").first().textContent())
      .toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} GMT\+[12]$/);
    expect(await row.locator("td").nth(3).textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    seen("quotes");
  });

  it("shows the MIS report and downloads it as an Excel workbook", async () => {
    await page.getByRole("link", { name: "Reports" }).click();
    await page.waitForURL(`${app.url}/dashboard/reports`);
    expect(await page.locator("h1").textContent()).toBe("Reports");
    seen("reports");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Excel workbook/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(await download.path())).subarray(0, 2).toString()).toBe("PK");
  });

  it("switches developer mode off only after asking", async () => {
    await page.goto(`${app.url}/dashboard/account`);
    await page.getByRole("link", { name: "Switch developer mode off…" }).click();
    expect(await main()).toMatch(/refuses the organisation's keys at once/);
    seen("developer-mode-confirm");
    const mode = async () =>
      (await app.services.db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } }))
        .developerMode;
    expect(await mode()).toBe(true);
    await page.getByRole("button", { name: "Switch developer mode off" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/Developer mode is off/);
    expect(await mode()).toBe(false);
    await page.getByRole("button", { name: "Switch developer mode on" }).click();
    expect(await mode()).toBe(true);
  });

  it("has no serious or critical axe violation on any page it visited", async () => {
    const failures: string[] = [];
    for (const [name, url] of visited) {
      await page.goto(url);
      const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
      for (const v of results.violations.filter((v) => v.impact === "serious" || v.impact === "critical"))
        failures.push(`${name}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    }
    expect(failures).toEqual([]);
    expect(visited.size).toBeGreaterThanOrEqual(10);
  });
});
