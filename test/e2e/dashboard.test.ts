import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { startReceiver } from "../support/receiver";
import { simulatedContainers } from "../support/references";

/**
 * The dashboard in Debian's Chromium against the real service on loopback (PGlite, or PostgreSQL with
 * QUAYSIDE_TEST_DB=postgres). Screenshots of every page at desktop and phone width go to
 * test-results/dashboard (git-ignored).
 */
const SHOTS = path.resolve("test-results/dashboard");
const OWNER_PASSWORD = "harbour-lights-42";
const MEMBER_PASSWORD = "quay-side-member-7";
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

let app: TestApp;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ownerEmail: string;
let orgId: string;
/** Requests the pages tried to send anywhere but 127.0.0.1 (aborted). */
const outside: string[] = [];
/** Every page visited, for the accessibility and keyboard checks. */
const visited = new Map<string, string>();

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
  receiver = await startReceiver();
  const { accounts } = app.services;
  // The operating organisation of the deployment, so its people see the operator pages too.
  const org = await accounts.createOrganization({
    name: "Harbour Freight",
    plan: "professional",
    operator: true,
  });
  orgId = org.id;
  ownerEmail = `owner-${org.id.slice(0, 8)}@example.com`;
  await accounts.createUser({
    organizationId: org.id,
    email: ownerEmail,
    name: "Olive Owner",
    role: "owner",
    password: OWNER_PASSWORD,
  });
  if (hasChromium) browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await app?.stop();
});

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ timezoneId: "Asia/Singapore" });
  // Every request is routed: only 127.0.0.1 goes through, anything else is aborted and recorded.
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  return context;
}

async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === "quayside_session")?.value;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${app.url}/dashboard`);
  await expect.poll(() => page.url()).toContain("/dashboard/sign-in");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${app.url}/dashboard`);
}

/** Records a page for the later checks and takes its screenshots at desktop and phone width. */
async function shoot(page: Page, name: string): Promise<void> {
  visited.set(name, page.url());
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
  // At phone width nothing may overflow the page sideways (tables scroll inside their own box).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} is wider than a phone`).toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const csrfOf = (page: Page) => page.locator('input[name="_csrf"]').first().inputValue();

describe.skipIf(!hasChromium)("the dashboard in Chromium", { timeout: 240_000 }, () => {
  let owner: BrowserContext;
  let page: Page;
  let ownerKeyId: string;
  let openedTicket: string;

  it("signs the owner in with a new session id, and refuses a wrong password", async () => {
    owner = await newContext();
    page = await owner.newPage();
    await page.goto(`${app.url}/dashboard/sign-in`);
    await shoot(page, "sign-in");
    // A visitor has no stored session (issue 39 item 2): only the form's double-submit cookie.
    expect(await sessionCookie(owner)).toBeUndefined();
    const visitor = (await owner.cookies()).find((c) => c.name === "quayside_csrf");
    expect(visitor?.value).toMatch(/^[\w-]{43}$/);
    expect(visitor?.httpOnly).toBe(true);
    expect(visitor?.sameSite).toBe("Strict");

    await page.getByLabel("E-mail address").fill(ownerEmail);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/do not match/);

    await page.getByLabel("Password").fill(OWNER_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${app.url}/dashboard`);
    expect(await sessionCookie(owner)).toMatch(/^[\w-]{43}$/);
    const cookie = (await owner.cookies()).find((c) => c.name === "quayside_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    expect(await page.locator("h1").textContent()).toBe("Overview");
    expect(await page.locator("header").textContent()).toContain("Harbour Freight");
    await shoot(page, "overview-empty");
  });

  it("creates an API key that is shown once and then only by its prefix", async () => {
    await page.goto(`${app.url}/dashboard/keys`);
    await page.getByLabel("Name").fill("CI key");
    await page.getByRole("button", { name: "Create key" }).click();
    const raw = (await page.getByTestId("new-key").textContent())?.trim() ?? "";
    expect(raw).toMatch(/^qs_[\w-]{43}$/);
    await shoot(page, "keys-created");
    // The key works on the API.
    const viewer = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${raw}` },
      body: JSON.stringify({ query: "{ viewer { apiKey { id name } } }" }),
    });
    const body = (await viewer.json()) as { data: { viewer: { apiKey: { id: string; name: string } } } };
    expect(body.data.viewer.apiKey.name).toBe("CI key");
    ownerKeyId = body.data.viewer.apiKey.id;

    await page.goto(`${app.url}/dashboard/keys`);
    expect(await page.content()).not.toContain(raw);
    expect(await page.locator("td code").first().textContent()).toBe(`${raw.slice(0, 9)}…`);
    await shoot(page, "keys");
  });

  it("tracks a container, opens it and shows its map, places table and timeline", async () => {
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 1,
      start: 610_000,
    });
    await page.goto(`${app.url}/dashboard/track`);
    await shoot(page, "track");
    await page.getByLabel("Container, bill-of-lading or booking numbers").fill(known[0]!);
    await page.getByRole("button", { name: "Track" }).click();
    await page.getByRole("link", { name: known[0]! }).click();
    await page.waitForURL(/\/dashboard\/shipments\/SHP-1$/);
    expect(await page.locator("h1").textContent()).toBe(known[0]);
    expect(await page.locator("svg.route-map path.land").count()).toBe(1);
    expect(await page.locator("svg.route-map path.route").getAttribute("d")).toMatch(/^M/);
    const stops = await page.locator("svg.route-map .stop").count();
    expect(stops).toBeGreaterThanOrEqual(2);
    // The table alternative lists the same places as the map.
    expect(await page.getByRole("table", { name: "Places on the route" }).locator("tbody tr").count()).toBe(
      stops,
    );
    expect(await page.locator("#timeline ~ * tbody tr, #timeline + div tbody tr").count()).toBeGreaterThan(0);
    // Instants are shown in the reader's zone (Singapore), named, with UTC on hover; a port's time
    // names its own clock (test/e2e/dashboard-times.test.ts).
    const firstTime = page.locator("main time[datetime]:not([data-clock])").first();
    expect(await firstTime.getAttribute("title")).toMatch(/UTC$/);
    expect(await firstTime.textContent()).not.toMatch(/UTC$/);
    expect(await firstTime.textContent()).toMatch(/GMT\+8/);
    expect(await page.locator("main time[data-clock=port]").first().textContent()).toMatch(/UTC/);
    // The outlook: predictive ETA, terminal and demurrage and detention, each under its own heading.
    for (const heading of ["Predictive ETA", "Terminal", "Demurrage and detention"])
      expect(await page.getByRole("heading", { name: heading, exact: true }).count()).toBe(1);
    expect(await page.locator("#predictive-eta + dl").textContent()).toMatch(
      /Likely arrival \(50 %\)[\s\S]*Arrival by \(80 %\)/,
    );
    const terminal = page.getByRole("table", { name: "Terminal record per box" });
    expect(await terminal.locator("tbody tr").first().textContent()).toMatch(/Finding|Found/);
    const dnd = page.getByRole("table", { name: "Demurrage and detention per box" });
    expect(await dnd.locator("tbody tr").first().textContent()).toMatch(
      new RegExp(`${known[0]}\\s*Demurrage\\s*✓ Within free time`),
    );
    await page.getByRole("button", { name: "Follow this shipment" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/You now follow this shipment/);
    expect(await page.getByRole("button", { name: "Unfollow this shipment" }).count()).toBe(1);
    await shoot(page, "shipment");

    await page.getByRole("button", { name: "Create or show the share link" }).click();
    expect(await page.locator("#share-url").textContent()).toMatch(/\/share\/[\w-]{32}$/);

    await page.goto(`${app.url}/dashboard/shipments`);
    expect(await page.getByRole("link", { name: known[0]! }).count()).toBe(1);
    // Filters live in the URL: a filter that matches nothing, then Back to the full list.
    await page.getByLabel("Status").selectOption("CANCELLED");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/status=CANCELLED/);
    expect(await page.getByRole("link", { name: known[0]! }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("No shipment matches these filters");
    await page.goBack();
    await page.waitForURL(`${app.url}/dashboard/shipments`);
    expect(await page.getByRole("link", { name: known[0]! }).count()).toBe(1);
    await page.goForward();
    await page.waitForURL(/status=CANCELLED/);
    // Saved under a name, it comes back as a link to the same URL.
    await page.getByLabel("Save this filter as").fill("Cancelled boxes");
    await page.getByRole("button", { name: "Save filter" }).click();
    await page.goto(`${app.url}/dashboard/shipments`);
    expect(await page.getByRole("link", { name: "Cancelled boxes" }).count()).toBe(1);
    await page.getByRole("link", { name: "Cancelled boxes" }).click();
    await page.waitForURL(/\/dashboard\/shipments\?status=CANCELLED$/);
    expect(await page.getByLabel("Status").inputValue()).toBe("CANCELLED");
    await page.goto(`${app.url}/dashboard/shipments`);
    expect(await page.getByLabel("Status").inputValue()).toBe("");
    // A port on the box's route finds it; another port does not.
    const row = await app.services.db.prisma.shipment.findFirstOrThrow({ where: { reference: known[0]! } });
    const port = (row.summary as { portLocodes: string[] }).portLocodes[0]!;
    await page.getByLabel("Port (UN/LOCODE)").fill(port.toLowerCase());
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(new RegExp(`port=${port.toLowerCase()}`));
    expect(await page.getByRole("link", { name: known[0]! }).count()).toBe(1);
    await page.getByLabel("Port (UN/LOCODE)").fill("AQZZZ");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page.waitForURL(/port=AQZZZ/);
    expect(await page.getByRole("link", { name: known[0]! }).count()).toBe(0);
    await page.goto(`${app.url}/dashboard/shipments`);
    await shoot(page, "shipments");
    const csv = await page.request.get(`${app.url}/dashboard/shipments.csv`);
    expect(csv.headers()["content-type"]).toMatch(/text\/csv/);
    expect(await csv.text()).toContain(known[0]!);
    await page.goto(`${app.url}/dashboard`);
    await shoot(page, "overview");
  });

  it("saves the owner's notification preferences and shows the mail outbox", async () => {
    await page.getByRole("link", { name: "Notifications" }).click();
    await page.waitForURL(/\/dashboard\/notifications$/);
    expect(await page.locator("main").textContent()).toContain("about the 1 shipment you follow");
    expect(await page.locator("main").textContent()).toMatch(/No e-mail yet|Mail outbox/);
    // A time zone the core does not know is refused in words, and nothing is saved.
    await page.getByLabel(/Time zone/).fill("Mars/Olympus");
    await page.getByRole("button", { name: "Save preferences" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/time ?zone/i);
    await page.goto(`${app.url}/dashboard/notifications`);
    expect(await page.getByLabel(/Time zone/).inputValue()).toBe("UTC");

    await page.getByLabel(/Time zone/).fill("Europe/Amsterdam");
    await page.getByLabel(/Daily digest/i).check();
    await page.getByLabel(/at least \(hours\)/).fill("12");
    await page.getByLabel("From (HH:MM)").fill("22:00");
    await page.getByLabel("Until (HH:MM)").fill("07:00");
    await page.getByRole("button", { name: "Save preferences" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/preferences saved/);
    await page.goto(`${app.url}/dashboard/notifications`);
    expect(await page.getByLabel(/Time zone/).inputValue()).toBe("Europe/Amsterdam");
    expect(await page.getByLabel(/Daily digest/i).isChecked()).toBe(true);
    expect(await page.getByLabel(/at least \(hours\)/).inputValue()).toBe("12");
    expect(await page.getByLabel("Until (HH:MM)").inputValue()).toBe("07:00");
    await shoot(page, "notifications");
  });

  it("opens a support ticket about the shipment, sees it listed and replies to it", async () => {
    await page.getByRole("link", { name: "Support", exact: true }).click();
    await page.waitForURL(/\/dashboard\/tickets$/);
    expect(await page.locator("main").textContent()).toContain("No tickets yet");
    await shoot(page, "tickets-empty");
    await page.getByLabel("Subject").fill("Vessel name looks wrong");
    await page
      .getByLabel("What happened, or what you need")
      .fill("The timeline names another vessel.\nPlease check.");
    await page.getByLabel("Type").selectOption("PROBLEM");
    await page.getByLabel("Priority").selectOption("HIGH");
    await page.getByLabel(/Shipment reference/).fill("SHP-1");
    await page.getByRole("button", { name: "Open ticket" }).click();
    await page.waitForURL(/\/dashboard\/tickets\/TCK-\d+\?opened=1$/);
    const ticketNumber = page.url().match(/TCK-\d+/)![0];
    openedTicket = ticketNumber;
    expect(await page.getByRole("status").first().textContent()).toMatch(/Ticket opened/);
    expect(await page.locator("h1").textContent()).toBe("Vessel name looks wrong");
    expect(await page.locator("main").textContent()).toContain("No reply yet");
    await page.getByLabel("Your reply").fill("It is the second leg.");
    await page.getByRole("button", { name: "Send reply" }).click();
    await page.waitForURL(/#replies$/);
    expect(await page.locator("ol.replies li").first().textContent()).toContain("It is the second leg.");
    await shoot(page, "ticket");

    await page.goto(`${app.url}/dashboard/tickets`);
    const row = page.getByRole("table", { name: "Support tickets" }).locator("tbody tr").first();
    expect(await row.textContent()).toMatch(new RegExp(`${ticketNumber}\\s*Vessel name looks wrong`));
    expect(await row.textContent()).toContain("High");
    // An empty subject is refused in words and the draft stays in the form.
    await page.getByLabel("What happened, or what you need").fill("kept draft");
    await page.getByLabel("Subject").fill(" ");
    await page.getByRole("button", { name: "Open ticket" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/subject/i);
    expect(await page.getByLabel("What happened, or what you need").inputValue()).toBe("kept draft");
    await page.goto(`${app.url}/dashboard/tickets`);
    await shoot(page, "tickets");
    // Another number is not found, in words.
    const missing = await page.request.get(`${app.url}/dashboard/tickets/TCK-999999`);
    expect(missing.status()).toBe(404);
  });

  it("answers the ticket from the operator's support queue, and the customer sees the answer and status", async () => {
    await page.getByRole("link", { name: "Support queue" }).click();
    await page.waitForURL(/\/dashboard\/operations\/tickets$/);
    const row = page
      .getByRole("table", { name: "Support queue" })
      .locator("tbody tr", { hasText: openedTicket });
    expect(await row.textContent()).toMatch(/Harbour Freight\s*Vessel name looks wrong\s*● New/);
    await shoot(page, "support-queue");
    // Filtering by another status leaves an empty state in words.
    await page.getByLabel("Status").selectOption("ON_HOLD");
    await page.getByRole("button", { name: "Show" }).click();
    expect(await page.locator("main").textContent()).toContain("No ticket has this status.");

    await page.goto(`${app.url}/dashboard/operations/tickets`);
    await row.getByRole("link", { name: openedTicket }).click();
    expect(await page.locator("h1").textContent()).toBe(`${openedTicket}: Vessel name looks wrong`);
    expect(await page.locator("ol.replies").textContent()).toContain("It is the second leg.");
    // An empty answer is refused in words, and nothing is sent.
    await page.getByLabel("Answer as Quayside support").fill(" ");
    await page.getByRole("button", { name: "Send answer" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/body is empty/);
    expect(await page.locator("ol.replies li").count()).toBe(1);
    await page.getByLabel("Answer as Quayside support").fill("Fixed: the second leg's vessel is shown now.");
    await page.getByLabel("Then set the status to").selectOption("PENDING");
    await page.getByRole("button", { name: "Send answer" }).click();
    await page.waitForURL(/done=answered#replies$/);
    expect(await page.getByRole("status").first().textContent()).toMatch(/Answer sent/);
    expect(await page.locator("dl.facts").textContent()).toContain("Waiting on the customer");
    await shoot(page, "support-ticket");
    // The core refuses moving a ticket back to NEW; the refusal is shown as text.
    await page.getByLabel("New status").selectOption("NEW");
    await page.getByRole("button", { name: "Change status" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/cannot become new again/);
    expect(await page.locator("dl.facts").textContent()).toContain("Waiting on the customer");

    // The customer's own ticket page shows the staff reply and the new status.
    await page.goto(`${app.url}/dashboard/tickets/${openedTicket}`);
    const last = page.locator("ol.replies li").last();
    expect(await last.textContent()).toContain("Fixed: the second leg's vessel is shown now.");
    expect(await last.textContent()).toContain("(staff)");
    expect(await page.locator("dl.facts").textContent()).toContain("Waiting on you");
    // An unknown id in the queue is not found, in words.
    const missing = await page.request.get(`${app.url}/dashboard/operations/tickets/not-a-ticket`);
    expect(missing.status()).toBe(404);
  });

  it("quotes a customer's freight request from the operator's quote requests", async () => {
    await page.getByRole("link", { name: "Quote requests" }).click();
    await page.waitForURL(/\/dashboard\/operations\/quotes$/);
    expect(await page.locator("main").textContent()).toContain("No organisation has asked for a quote yet");
    await shoot(page, "quote-requests-empty");
    const readyDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const asked = await page.request.post(`${app.url}/graphql`, {
      headers: { "content-type": "application/json", "x-csrf-token": await csrfOf(page) },
      data: JSON.stringify({
        query: `mutation { requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: "40GP", quantity: 2, readyDate: "${readyDate}", commodity: "Bicycles") { request { requestNumber status } } }`,
      }),
    });
    const { requestNumber } = (await asked.json()).data.requestQuote.request;
    await page.reload();
    const row = page.getByRole("table", { name: "Quote requests" }).locator("tbody tr").first();
    expect(await row.textContent()).toMatch(
      new RegExp(`${requestNumber}\\s*Shanghai \\(CNSHA\\) → Rotterdam \\(NLRTM\\)\\s*2 × 40GP`),
    );
    expect(await row.textContent()).toContain("Waiting for a quote");
    await shoot(page, "quote-requests");

    await row.getByRole("link", { name: requestNumber }).click();
    const validUntil = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    // A total that is not a number is refused in words, and the typed values stay.
    await page.getByLabel(/^Total/).fill("lots");
    await page.getByLabel(/^Currency/).fill("EUR");
    await page.getByLabel("Valid until").fill(validUntil);
    await page.getByLabel("Carrier SCAC").fill("MSCU");
    await page.getByLabel("Transit days").fill("31");
    await page.getByRole("button", { name: "Send quote" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/total as a number/);
    expect(await page.getByLabel("Carrier SCAC").inputValue()).toBe("MSCU");
    await page.getByLabel(/^Total/).fill("1850.5");
    await page.getByRole("button", { name: "Send quote" }).click();
    await page.waitForURL(/done=quoted$/);
    const facts = await page.locator("dl.facts").textContent();
    expect(facts).toContain("Quoted");
    expect(facts).toMatch(/1850\.50 EUR, MSCU, 31 days/);
    await shoot(page, "quote-request");

    // The customer's side reads the same quote.
    const mine = await page.request.post(`${app.url}/graphql`, {
      headers: { "content-type": "application/json", "x-csrf-token": await csrfOf(page) },
      data: JSON.stringify({ query: "{ quoteRequests { requestNumber status quote { total currency } } }" }),
    });
    expect((await mine.json()).data.quoteRequests).toContainEqual({
      requestNumber,
      status: "QUOTED",
      quote: { total: 1850.5, currency: "EUR" },
    });

    // A second request is declined with a reason the customer reads.
    const other = await page.request.post(`${app.url}/graphql`, {
      headers: { "content-type": "application/json", "x-csrf-token": await csrfOf(page) },
      data: JSON.stringify({
        query: `mutation { requestQuote(origin: "CNSHA", destination: "USLAX", containerType: "20GP", quantity: 1, readyDate: "${readyDate}", commodity: "Glass") { request { requestNumber } } }`,
      }),
    });
    const declined = (await other.json()).data.requestQuote.request.requestNumber;
    await page.goto(`${app.url}/dashboard/operations/quotes`);
    await page.getByRole("link", { name: declined }).click();
    await page.getByLabel(/^Reason/).fill("No space on this lane this month.");
    await page.getByRole("button", { name: "Decline request" }).click();
    await page.waitForURL(/done=declined$/);
    expect(await page.locator("dl.facts").textContent()).toMatch(
      /Declined[\s\S]*No space on this lane this month\./,
    );
  });

  it("uploads a PDF attached to the shipment, lists it, downloads it with the session and deletes it", async () => {
    await page.getByRole("link", { name: "Documents" }).click();
    await page.waitForURL(/\/dashboard\/documents$/);
    expect(await page.locator("main").textContent()).toContain("No documents yet");
    await shoot(page, "documents-empty");
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
    // Bytes that are not a document are refused in words, whatever the name says.
    await page
      .getByLabel(/^File/)
      .setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just text") });
    await page.getByLabel(/Attach to shipments/).fill("SHP-1");
    await page.getByRole("button", { name: "Upload" }).click();
    expect(await page.getByRole("alert").first().textContent()).toMatch(/only PDF, PNG/);

    await page
      .getByLabel(/^File/)
      .setInputFiles({ name: "bill.pdf", mimeType: "application/pdf", buffer: pdf });
    await page.getByLabel("Type").selectOption("BILL_OF_LADING");
    await page.getByLabel(/^Name/).fill("Original bill");
    await page.getByLabel(/Attach to shipments/).fill("SHP-1");
    await page.getByRole("button", { name: "Upload" }).click();
    await page.waitForURL(/\/dashboard\/documents\?uploaded=1$/);
    expect(await page.getByRole("status").first().textContent()).toMatch(/Document uploaded/);
    const row = page.getByTestId("document");
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toMatch(/Original bill[\s\S]*Bill of lading/);
    // Attached to the shipment: its row links to the shipment page.
    expect(await row.locator(`a[href="/dashboard/shipments/SHP-1"]`).count()).toBe(1);
    await shoot(page, "documents");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download Original bill" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const { readFile } = await import("node:fs/promises");
    expect(Buffer.compare(await readFile(await download.path()), pdf)).toBe(0);
    // Without the session the link is refused (a key or a session is needed).
    const href = (await page.getByRole("link", { name: "Download Original bill" }).getAttribute("href"))!;
    expect((await fetch(`${app.url}${href}`)).status).toBe(401);

    // Deleting asks first (issue 38), on a page of its own.
    await page.getByRole("link", { name: "Delete Original bill…" }).click();
    await page.getByRole("button", { name: "Delete Original bill" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/Document deleted/);
    expect(await page.getByTestId("document").count()).toBe(0);
    expect((await page.request.get(`${app.url}${href}`)).status()).toBe(404);

    // Uploaded again for the later page checks (the list with a row).
    await page
      .getByLabel(/^File/)
      .setInputFiles({ name: "bill.pdf", mimeType: "application/pdf", buffer: pdf });
    await page.getByLabel(/Attach to shipments/).fill("SHP-1");
    await page.getByRole("button", { name: "Upload" }).click();
    await page.waitForURL(/\/dashboard\/documents\?uploaded=1$/);
  });

  it("adds a webhook endpoint, sends a test that is delivered, disables and re-enables it", async () => {
    await page.goto(`${app.url}/dashboard/webhooks`);
    await shoot(page, "webhooks-empty");
    await page.getByLabel("URL (https)").fill(receiver.url);
    await page.getByLabel("shipment.updated").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect(await page.getByTestId("new-secret").textContent()).toMatch(/\S{20,}/);

    await page.getByRole("button", { name: "Send test" }).click();
    await app.workers.webhooks.runOnce();
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/dashboard/webhooks`);
          return page.getByTestId("delivery").first().textContent();
        },
        { timeout: 30_000 },
      )
      .toMatch(/webhook\.test[\s\S]*Delivered/);
    expect(receiver.received.some((r) => r.body.includes("webhook.test"))).toBe(true);
    await shoot(page, "webhooks");
    // The delivery's detail: the request as sent and the answer (issue 38).
    await page
      .getByTestId("delivery")
      .first()
      .getByRole("link", { name: /Request and answers/ })
      .click();
    expect(await page.getByTestId("request-body").textContent()).toContain("webhook.test");
    expect(await page.getByTestId("attempt").first().textContent()).toMatch(/HTTP 200/);
    await shoot(page, "webhook-delivery");
    await page.goto(`${app.url}/dashboard/webhooks`);

    await page.getByRole("button", { name: "Disable" }).click();
    expect(await page.getByTestId("endpoint").textContent()).toContain("Disabled");
    await page.getByRole("button", { name: "Re-enable" }).click();
    expect(await page.getByTestId("endpoint").textContent()).toContain("Enabled");
    expect(await page.getByRole("status").first().textContent()).toMatch(/failure count was cleared/);
  });

  it("invites a teammate who joins as a member and cannot revoke the owner's key", async () => {
    await page.goto(`${app.url}/dashboard/team`);
    const memberEmail = `member-${orgId.slice(0, 8)}@example.com`;
    await page.getByLabel("E-mail address").fill(memberEmail);
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = (await page.getByTestId("invite-link").textContent())?.trim() ?? "";
    expect(link).toMatch(/\/dashboard\/invitations\/[\w-]{43}$/);
    await shoot(page, "team");

    const member = await newContext();
    const mpage = await member.newPage();
    await mpage.goto(link);
    await shoot(mpage, "invitation");
    await mpage.getByLabel("Your name").fill("Max Member");
    await mpage.getByLabel(/Choose a password/).fill(MEMBER_PASSWORD);
    await mpage.getByRole("button", { name: "Join and sign in" }).click();
    await mpage.waitForURL(`${app.url}/dashboard`);
    expect(await mpage.locator("header").textContent()).toContain("(member)");

    await mpage.goto(`${app.url}/dashboard/keys`);
    expect(await mpage.getByRole("button", { name: "Revoke CI key" }).count()).toBe(0);
    // A member may not invite either: the form is not offered, and posting it anyway is refused.
    await mpage.goto(`${app.url}/dashboard/team`);
    expect(await mpage.getByRole("button", { name: "Create invitation" }).count()).toBe(0);
    const invite = await mpage.request.post(`${app.url}/dashboard/team/invitations`, {
      form: { _csrf: await csrfOf(mpage), email: "someone@example.com" },
    });
    expect(invite.status()).toBe(403);
    await mpage.goto(`${app.url}/dashboard/keys`);
    // Posting the revocation anyway (with the member's own CSRF token) is refused and changes nothing.
    const refused = await mpage.request.post(`${app.url}/dashboard/keys/${ownerKeyId}/revoke`, {
      form: { _csrf: await csrfOf(mpage) },
    });
    expect(refused.status()).toBe(404);
    expect(await refused.text()).toContain("No such API key");
    const key = await app.services.db.prisma.apiKey.findUniqueOrThrow({ where: { id: ownerKeyId } });
    expect(key.revokedAt).toBeNull();

    // The invitation link works once.
    const again = await mpage.request.get(link);
    expect(again.status()).toBe(404);

    // The owner manages the team: the member's role, then removing them, which ends their session.
    await page.goto(`${app.url}/dashboard/team`);
    await page.getByLabel("Role of Max Member").selectOption("owner");
    await page.getByRole("button", { name: "Change role of Max Member" }).click();
    expect(await page.getByRole("status").first().textContent()).toContain("Max Member is now owner");
    await page.getByLabel("Role of Max Member").selectOption("member");
    await page.getByRole("button", { name: "Change role of Max Member" }).click();
    expect(await page.getByRole("status").first().textContent()).toContain("Max Member is now member");
    await page.getByRole("link", { name: "Remove Max Member…" }).click();
    await page.getByRole("button", { name: "Remove Max Member" }).click();
    expect(await page.getByRole("status").first().textContent()).toContain("Max Member was removed");
    expect(await page.locator("main").textContent()).not.toContain(memberEmail);
    await mpage.goto(`${app.url}/dashboard/keys`);
    await mpage.waitForURL(/\/dashboard\/sign-in/);
    await member.close();
  });

  it("shows customers, usage and plan, and the operator pages with the carrier just called", async () => {
    await page.goto(`${app.url}/dashboard/customers`);
    expect(await page.locator("main").textContent()).toContain("No customers yet");
    await shoot(page, "customers");
    await page.goto(`${app.url}/dashboard/usage`);
    expect(await page.locator("main").textContent()).toMatch(/1 of \d+ used/);
    await shoot(page, "usage");
    await page.getByRole("link", { name: "Operations" }).click();
    const health = page.getByRole("table", { name: "Carrier network health" });
    expect(await health.locator("tbody tr").first().textContent()).toMatch(/^MSCU\s*1/);
    expect(await page.getByRole("table", { name: "Background queues" }).locator("tbody tr").count()).toBe(3);
    await shoot(page, "operations");
    await page.getByRole("link", { name: "Feed sources" }).click();
    expect(await page.locator("main").textContent()).toContain("No disruption news feeds are configured");
    await shoot(page, "feeds");
    await page.goto(`${app.url}/dashboard/operations/congestion`);
    expect(await page.locator("h1").textContent()).toBe("Congestion board");
    await shoot(page, "congestion");
  });

  it("refuses a state-changing request without the CSRF token, on the pages and on /graphql", async () => {
    const withoutToken = await page.request.post(`${app.url}/dashboard/keys`, { form: { name: "sneaky" } });
    expect(withoutToken.status()).toBe(403);
    const wrongToken = await page.request.post(`${app.url}/dashboard/keys`, {
      form: { name: "sneaky", _csrf: "x".repeat(43) },
    });
    expect(wrongToken.status()).toBe(403);
    const keys = await app.services.db.prisma.apiKey.count({ where: { name: "sneaky" } });
    expect(keys).toBe(0);

    const query = JSON.stringify({ query: "{ viewer { user { email } apiKey { id } } }" });
    const graphqlWithout = await page.request.post(`${app.url}/graphql`, {
      headers: { "content-type": "application/json" },
      data: query,
    });
    expect(graphqlWithout.status()).toBe(403);
    await page.goto(`${app.url}/dashboard/account`);
    const graphqlWith = await page.request.post(`${app.url}/graphql`, {
      headers: { "content-type": "application/json", "x-csrf-token": await csrfOf(page) },
      data: query,
    });
    expect(graphqlWith.status()).toBe(200);
    expect(await graphqlWith.json()).toEqual({
      data: { viewer: { user: { email: ownerEmail }, apiKey: null } },
    });
    await shoot(page, "account");
  });

  it("changes the password and signs out", async () => {
    await page.goto(`${app.url}/dashboard/account`);
    await page.getByLabel("Current password").fill(OWNER_PASSWORD);
    await page.getByLabel(/New password/).fill(`${OWNER_PASSWORD}-new`);
    await page.getByRole("button", { name: "Change password" }).click();
    expect(await page.getByRole("status").first().textContent()).toMatch(/Password changed/);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await page.goto(`${app.url}/dashboard/keys`);
    expect(page.url()).toContain("/dashboard/sign-in");
    await signIn(page, ownerEmail, `${OWNER_PASSWORD}-new`);
  });

  it("has no serious or critical axe violation (WCAG 2.2 AA tags) on any page", async () => {
    const member = await newContext();
    const anon = await member.newPage();
    const failures: string[] = [];
    for (const [name, url] of visited) {
      const p = name === "sign-in" || name === "invitation" ? anon : page;
      if (name === "invitation") continue; // spent; its form is the sign-in form's twin, checked below
      await p.goto(url);
      const results = await new AxeBuilder({ page: p }).withTags(WCAG).analyze();
      for (const v of results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")) {
        failures.push(`${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      }
    }
    await member.close();
    expect(failures).toEqual([]);
    expect(visited.size).toBeGreaterThanOrEqual(10);
  });

  it("reaches every control of every page with the keyboard alone, focus always visible", async () => {
    const missed: string[] = [];
    for (const [name, url] of visited) {
      if (name === "invitation" || name === "sign-in") continue;
      await page.goto(url);
      const controls = await page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLElement>(
            "a[href], button, input:not([type=hidden]):not([hidden]), select, textarea, summary",
          ),
        ]
          .filter((el) => el.offsetParent !== null)
          .map((el, i) => {
            el.dataset.kbd = String(i);
            return String(i);
          }),
      );
      const reached = new Set<string>();
      for (let n = 0; n < controls.length + 5; n++) {
        await page.keyboard.press("Tab");
        const state = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const style = getComputedStyle(el);
          return {
            id: el.dataset.kbd ?? "",
            outline: style.outlineStyle !== "none" || style.boxShadow !== "none",
          };
        });
        if (state?.id) {
          reached.add(state.id);
          if (!state.outline) missed.push(`${name}: control ${state.id} has no visible focus`);
        }
      }
      for (const id of controls)
        if (!reached.has(id)) missed.push(`${name}: control ${id} not reached by Tab`);
    }
    expect(missed).toEqual([]);
  });

  it("made no request outside 127.0.0.1", () => {
    expect(outside).toEqual([]);
  });
});
