import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { simulatedContainers } from "../support/references";

/**
 * Issue 38 part D in Debian's Chromium: the shipment page's working parts (refresh now within the
 * refresh limits, assign a customer who then has it in their list, documents listed, uploaded and
 * deleted after asking) and the contract terms page for demurrage and detention, reached from the
 * shipment's D&D section (bad input said in words, what was typed kept). axe on every page reached,
 * the answers to a POST included.
 *
 * The service runs on a manual clock started at the machine's minute (the browser keeps the session
 * cookie by its own clock, so the service's may only run ahead of it, and by less than the session's
 * 12 idle hours at a time).
 */
const PASSWORD = "reefer-plug-at-dawn-38d";
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/**
 * A time as the dashboard prints it in a UTC browser, up to its zone: "16 Nov 2026 00:00", "1 Dec 2026
 * 01:45" (the day unpadded, as the server writes it; the page script padded it until the walk met a
 * 1st of the month).
 */
const shown = (at: Date) =>
  `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} ${at.toISOString().slice(11, 16)}`;

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let email: string;
let shipmentUrl: string;
/** A container the simulated carrier has at sea now. */
let reference: string;
const checked: string[] = [];
const violations: string[] = [];

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_WORKERS: "off" },
  });
  const { accounts } = app.services;
  const org = await accounts.createOrganization({ name: "Dawn Reefers", plan: "professional" });
  email = `ops-${org.id.slice(0, 8)}@example.com`;
  await accounts.createUser({
    organizationId: org.id,
    email,
    name: "Olu Ops",
    role: "owner",
    password: PASSWORD,
  });
  // Which of the simulator's boxes is at sea today, asked by another organisation (its world moves
  // with the date, and this walk runs on the machine's).
  const scout = await app.fixtures.organization({ plan: "professional" });
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 12,
    start: 300_000,
  });
  for (const candidate of known) {
    const { body } = await graphql(
      app,
      scout.key,
      `mutation($r: String!) { track(reference: $r) { ... on TrackSuccess { shipment { status } } } }`,
      { r: candidate },
    );
    if ((body.data as any)?.track?.shipment?.status === "IN_TRANSIT") {
      reference = candidate;
      break;
    }
  }
  if (!reference) throw new Error(`none of ${known.join(", ")} is at sea on ${clock.now().toISOString()}`);
  if (hasChromium) browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

const main = () => page.locator("main").innerText();
/** axe on the page as it is now (an answer to a POST cannot be visited again later). */
async function axe(name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  for (const v of results.violations)
    violations.push(`${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  checked.push(name);
}

describe.skipIf(!hasChromium)(
  "the shipment page's tools and the contract terms",
  { timeout: 240_000 },
  () => {
    let trackedAt: Date;

    it("signs in and tracks a shipment at sea", async () => {
      context = await browser.newContext({ timezoneId: "UTC" });
      page = await context.newPage();
      await page.goto(`${app.url}/dashboard/sign-in`);
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${app.url}/dashboard`);
      await page.goto(`${app.url}/dashboard/track`);
      await page.getByLabel("Container, bill-of-lading or booking numbers").fill(reference);
      trackedAt = clock.now();
      await page.getByRole("button", { name: "Track", exact: true }).click();
      await page.getByRole("link", { name: reference }).click();
      await page.waitForURL(/\/dashboard\/shipments\/SHP-\d+$/);
      shipmentUrl = page.url();
    });

    it("refuses a refresh within the gap saying from when, and refreshes once it has passed", async () => {
      clock.advance(60 * 60_000);
      await page.getByRole("button", { name: "Refresh now" }).click();
      const refused = await page.getByRole("alert").innerText();
      expect(refused).toMatch(
        /Not refreshed\. The carrier answered for this shipment less than one refresh gap ago/,
      );
      // From when: the carrier's answer plus the gap (12 hours, or 4 while arriving).
      const allowed = /The next refresh is allowed from (\d{1,2} \w{3} \d{4} \d{2}:\d{2}) \S+\./.exec(
        refused,
      );
      expect(allowed, refused).not.toBeNull();
      const gapHours = [12, 4].find(
        (h) => allowed![1] === shown(new Date(trackedAt.getTime() + h * 3_600_000)),
      );
      expect(gapHours, allowed![1]).toBeDefined();
      expect(await page.locator("section[aria-labelledby='glance']").innerText()).toContain(
        `Data from the carrier ${shown(trackedAt)}`,
      );
      await axe("refresh-refused");

      // At the instant it is allowed, the carrier is asked again: the page shows that answer's time.
      clock.set(trackedAt.getTime() + gapHours! * 3_600_000);
      await page.getByRole("button", { name: "Refresh now" }).click();
      expect(await page.getByRole("status").first().innerText()).toContain(
        "Refreshed: the page shows the carrier's answer of just now.",
      );
      expect(await page.locator("section[aria-labelledby='glance']").innerText()).toContain(
        `Data from the carrier ${shown(clock.now())}`,
      );
      await axe("refreshed");
    });

    it("assigns a customer, who then has the shipment in their list", async () => {
      await page.goto(shipmentUrl);
      expect(await page.locator("section[aria-labelledby='customer']").innerText()).toContain(
        "No customer yet.",
      );
      await page.getByLabel(/^Customer \(an existing name/).fill("Harbour Foods");
      await page.getByRole("button", { name: "Assign customer" }).click();
      const name = shipmentUrl.split("/").pop()!;
      expect(await page.getByRole("status").first().innerText()).toContain(
        `${name} is now Harbour Foods's: it is listed on Harbour Foods's shipments.`,
      );
      expect(await page.locator("section[aria-labelledby='glance']").innerText()).toMatch(
        /Customer\s+Harbour Foods/,
      );
      await axe("customer-assigned");
      await page.getByRole("link", { name: "Harbour Foods's shipments" }).click();
      await page.waitForURL(/\/dashboard\/shipments\?customer=Harbour/);
      const rows = page.locator("main tbody tr");
      expect(await rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain(reference);
      await page.goto(`${app.url}/dashboard/customers`);
      expect(await page.locator("main table").innerText()).toMatch(/Harbour Foods\s+1\s+1/);
    });

    it("uploads a document to the shipment, and deletes it only after asking", async () => {
      await page.goto(`${shipmentUrl}#documents`);
      const section = page.locator("section[aria-labelledby='documents']");
      expect(await section.innerText()).toContain("No document is attached to this shipment yet.");
      await page.getByLabel("File (PDF, PNG, JPEG, TIFF, XLSX or CSV)").setInputFiles({
        name: "bill-of-lading.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"),
      });
      await section.getByLabel("Type").selectOption("BILL_OF_LADING");
      await section.getByLabel(/^Name/).fill("Original bill");
      await page.getByRole("button", { name: "Upload and attach" }).click();
      expect(await page.getByRole("status").first().innerText()).toContain(
        "Original bill is attached to this shipment.",
      );
      const listed = page.getByTestId("shipment-document");
      expect(await listed.count()).toBe(1);
      expect(await listed.innerText()).toMatch(
        /Original bill[\s\S]*bill-of-lading\.pdf[\s\S]*Bill of lading/,
      );
      await axe("document-uploaded");

      await page.getByRole("link", { name: "Delete Original bill…" }).click();
      expect(await page.locator("h1").innerText()).toBe('Delete the document "Original bill"?');
      await axe("document-delete-confirm");
      // Cancelling changes nothing and leads back to the shipment's documents.
      await page.getByRole("link", { name: /Cancel/ }).click();
      await page.waitForURL(`${shipmentUrl}#documents`);
      expect(await page.getByTestId("shipment-document").count()).toBe(1);
      await page.getByRole("link", { name: "Delete Original bill…" }).click();
      await page.getByRole("button", { name: "Delete Original bill" }).click();
      expect(await page.getByRole("status").first().innerText()).toContain(
        "Document deleted, with its stored file.",
      );
      expect(await page.getByTestId("shipment-document").count()).toBe(0);
      expect(await app.services.db.prisma.workspaceDocument.count()).toBe(0);
    });

    it("edits the contract terms from the D&D section: bad input in words, what was typed kept", async () => {
      await page.goto(shipmentUrl);
      await page.getByRole("link", { name: "Your contract terms for demurrage and detention" }).click();
      await page.waitForURL(`${app.url}/dashboard/dnd-terms`);
      expect(await main()).toContain("No contract terms yet");
      await axe("dnd-terms");

      await page.getByLabel("Carrier SCAC (empty: every carrier)").fill("MSCU");
      await page.getByLabel("Port UN/LOCODE (empty: whole country or everywhere)").fill("NLRTM");
      await page.getByLabel("Free days", { exact: true }).fill("five");
      await page.getByLabel("Currency (ISO code, such as USD)").fill("EUR");
      await page.getByLabel("Valid from (YYYY-MM-DD)").fill("2026-01-01");
      await page.locator("#slab1-to").fill("5");
      await page.locator("#slab1-rate").fill("50");
      await page.locator("#slab2-from").fill("7");
      await page.locator("#slab2-rate").fill("120");
      await page.getByRole("button", { name: "Save contract terms" }).click();
      expect(await page.getByRole("alert").innerText()).toContain(
        "Free days: enter a whole number of days, such as 5.",
      );
      expect(await page.getByLabel("Free days", { exact: true }).inputValue()).toBe("five");
      expect(await page.getByLabel("Carrier SCAC (empty: every carrier)").inputValue()).toBe("MSCU");
      await axe("dnd-terms-refused");

      // The core's refusal, in the form's words: no API field named.
      await page.getByLabel("Free days", { exact: true }).fill("4");
      await page.getByRole("button", { name: "Save contract terms" }).click();
      const refused = await page.getByRole("alert").innerText();
      expect(refused).toContain("The terms were not saved: Rate step 2 must start on day 6.");
      expect(refused).not.toMatch(/slabs|freeDays|carrierScac/);
      expect(await page.locator("#slab2-from").inputValue()).toBe("7");
      expect(await page.locator("#slab1-rate").inputValue()).toBe("50");

      await page.locator("#slab2-from").fill("6");
      await page.getByRole("button", { name: "Save contract terms" }).click();
      await page.waitForURL(`${app.url}/dashboard/dnd-terms?added=1`);
      const row = page.getByTestId("terms");
      expect(await row.innerText()).toMatch(
        /Demurrage[\s\S]*MSCU[\s\S]*NLRTM[\s\S]*4 calendar days[\s\S]*day 1–5: 50\.00 EUR[\s\S]*day 6 on: 120\.00 EUR[\s\S]*1 Jan 2026 – open/,
      );
      await axe("dnd-terms-saved");

      await page.getByRole("link", { name: "Remove demurrage with MSCU at NLRTM…" }).click();
      await axe("dnd-terms-remove-confirm");
      await page.getByRole("button", { name: "Remove these terms" }).click();
      expect(await page.getByRole("status").first().innerText()).toContain("Contract terms removed.");
      expect(await page.getByTestId("terms").count()).toBe(0);
    });

    it("has no axe violation on any page of this walk", () => {
      expect(violations).toEqual([]);
      expect(checked).toHaveLength(9);
    });
  },
);
