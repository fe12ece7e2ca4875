import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { simulatedContainers } from "../support/references";

/**
 * Issue 38, part C in Chromium against the real service (embedded simulator): the overview's "ETA
 * moved" exception is a filter of the list counted by the core, the list shows the vessel and the
 * move, a shipment is archived from the list and from its page (and leaves the counts), and a
 * shipment no carrier has found is refused a share link in words instead of given one that 404s.
 */
const PASSWORD = "afternoon-tea-38c";
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let email: string;
let organizationId: string;
let known: string[];
let unknown: string[];
const visited = new Map<string, string>();

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_WORKERS: "off" },
  });
  const { accounts } = app.services;
  const org = await accounts.createOrganization({ name: "Afternoon Freight", plan: "professional" });
  organizationId = org.id;
  email = `lead-${org.id.slice(0, 8)}@example.com`;
  await accounts.createUser({
    organizationId: org.id,
    email,
    name: "Lou Lead",
    role: "owner",
    password: PASSWORD,
  });
  ({ known, unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 2,
    unknown: 1,
    start: 760_000,
  }));
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

const main = () => page.locator("main").innerText();
const tileCount = async (name: RegExp) =>
  Number((await page.getByRole("link", { name }).innerText()).match(/^\d+/)?.[0]);

describe.skipIf(!hasChromium)(
  "exceptions, list columns, archive and share in the dashboard",
  { timeout: 240_000 },
  () => {
    it("signs in and tracks two real shipments and one no carrier knows", async () => {
      context = await browser.newContext({ timezoneId: "Europe/Amsterdam" });
      page = await context.newPage();
      await page.goto(`${app.url}/dashboard/sign-in`);
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${app.url}/dashboard`);
      await page.goto(`${app.url}/dashboard/track`);
      await page
        .getByLabel("Container, bill-of-lading or booking numbers")
        .fill([...known, unknown[0]].join("\n"));
      await page.getByRole("button", { name: "Track", exact: true }).click();
      await page.getByRole("heading", { name: "Results" }).waitFor();
    });

    it("refuses a share link for the shipment no carrier has found, in words, and makes none", async () => {
      await page.goto(`${app.url}/dashboard/shipments`);
      await page.getByRole("link", { name: unknown[0] }).click();
      await page.getByRole("heading", { name: "Not found yet" }).waitFor();
      const name = page.url().split("/").at(-1)!;
      // The page offers no share button; posting the form anyway is answered in words, not with a link.
      await page.evaluate(
        ({ action }) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = action;
          const csrf = document.querySelector<HTMLInputElement>('input[name="_csrf"]')!.cloneNode() as Node;
          form.appendChild(csrf);
          document.body.appendChild(form);
          form.submit();
        },
        { action: `/dashboard/shipments/${name}/share` },
      );
      await page.getByRole("alert").waitFor();
      expect(await page.getByRole("alert").innerText()).toContain(
        `${unknown[0]} cannot be shared yet: no carrier has found it`,
      );
      expect(await main()).not.toContain("Share link ready");
      expect(await app.services.db.prisma.shareLink.count({ where: { organizationId } })).toBe(0);
    });

    it("counts an ETA moved at the last carrier update on the overview, a filter of the list showing the move and the vessel", async () => {
      await page.goto(`${app.url}/dashboard`);
      expect(await tileCount(/ETA moved/)).toBe(0);
      // A carrier update that moved the ETA 30 hours later, as the core stores it on the shipment with
      // the version's summary (the move itself is computed by summaryFactsOf, unit-tested).
      const row = await app.services.db.prisma.shipment.findFirstOrThrow({
        where: { organizationId, reference: known[0] },
      });
      await app.services.db.prisma.shipment.update({
        where: { id: row.id },
        data: { summary: { ...(row.summary as object), etaChangeHours: 30, etaMoved: true } },
      });
      await page.reload();
      expect(await tileCount(/ETA moved/)).toBe(1);
      await page.getByRole("link", { name: /ETA moved/ }).click();
      await page.waitForURL(/eta_moved=true&active=true&sort=arrival$/);
      expect(await page.getByLabel("ETA moved").isChecked()).toBe(true);
      expect(await page.locator("main tbody tr").count()).toBe(1);
      const cells = await page.locator("main tbody tr").innerText();
      expect(cells).toContain(known[0]);
      expect(cells).toContain("ETA 30 h later");
      const headers = await page.locator("main thead th").allInnerTexts();
      for (const column of ["Vessel", "Arrival", "Predicted arrival", "Last free day", "Actions"])
        expect(headers).toContain(column);
      visited.set("eta-moved-list", page.url());
    });

    it("counts last free day soon, passed and on hold on the overview, each a filter of the list with the Holds column", async () => {
      await page.goto(`${app.url}/dashboard`);
      expect(await tileCount(/Last free day within 3 days/)).toBe(0);
      expect(await tileCount(/Last free day passed/)).toBe(0);
      expect(await tileCount(/On hold/)).toBe(0);
      // Free time and holds as the core keeps them on the rows when a version, terminal facts or terms
      // change (computed by ShipmentFreeTime, tested through GraphQL in shipment-free-time.test.ts).
      const { prisma } = app.services.db;
      const rowOf = (reference: string) =>
        prisma.shipment.findFirstOrThrow({ where: { organizationId, reference } });
      const [soon, passed] = [await rowOf(known[0]!), await rowOf(known[1]!)];
      const now = Date.now();
      const day = 86_400_000;
      const keep = (id: string, lastFreeDay: string, startsAt: number, holds: boolean) =>
        prisma.shipment.update({
          where: { id },
          data: {
            freeTime: {
              containers: [],
              lastFreeDay,
              timeZone: null,
              holds: holds ? [{ container: "MSCU1234566", type: "customs", status: "hold" }] : [],
            },
            lastFreeDayStartsAt: new Date(startsAt),
            freeTimeEndsAt: new Date(startsAt + day),
            holdsUntil: holds ? new Date(now + 12 * 3_600_000) : null,
            freeTimeAt: new Date(now + day),
          },
        });
      await keep(soon.id, "2030-01-02", now + day, true);
      await keep(passed.id, "2020-01-02", now - 3 * day, false);
      await page.reload();
      expect(await tileCount(/Last free day within 3 days/)).toBe(1);
      expect(await tileCount(/Last free day passed/)).toBe(1);
      expect(await tileCount(/On hold/)).toBe(1);

      await page.getByRole("link", { name: /Last free day within 3 days/ }).click();
      await page.waitForURL(/lfd=soon&active=true&sort=last_free_day$/);
      expect(await page.locator("main tbody tr").count()).toBe(1);
      const soonRow = await page.locator("main tbody tr").innerText();
      expect(soonRow).toContain(known[0]);
      expect(soonRow).toContain("2030-01-02 ⚠ soon");
      expect(soonRow).toContain("Customs");
      expect(await page.locator("main thead th").allInnerTexts()).toContain("Holds");
      visited.set("lfd-soon-list", page.url());

      await page.goto(`${app.url}/dashboard`);
      await page.getByRole("link", { name: /Last free day passed/ }).click();
      await page.waitForURL(/lfd=passed&active=true&sort=last_free_day$/);
      expect(await page.getByLabel("Last free day").inputValue()).toBe("passed");
      const passedRows = await page.locator("main tbody tr").allInnerTexts();
      expect(passedRows).toHaveLength(1);
      expect(passedRows[0]).toContain(known[1]);
      expect(passedRows[0]).toContain("2020-01-02 ✕ passed");

      await page.goto(`${app.url}/dashboard`);
      await page.getByRole("link", { name: /On hold/ }).click();
      await page.waitForURL(/hold=true&active=true$/);
      expect(await page.getByLabel("On hold").isChecked()).toBe(true);
      const heldRows = await page.locator("main tbody tr").allInnerTexts();
      expect(heldRows).toHaveLength(1);
      expect(heldRows[0]).toContain(known[0]);
      visited.set("on-hold-list", page.url());
    });

    it("archives from the list: the shipment leaves the list and the counts, is shown under Archived only, and comes back with Undo", async () => {
      await page.goto(`${app.url}/dashboard`);
      const failedBefore = await tileCount(/Failed: no carrier found it/);
      expect(failedBefore).toBe(1);
      await page.goto(`${app.url}/dashboard/shipments`);
      await page.getByRole("button", { name: `Archive ${unknown[0]}` }).click();
      await page.getByRole("status").first().waitFor();
      expect(await page.getByRole("status").first().innerText()).toMatch(
        /SHP-\d+ is archived: it left the list and the exceptions, and is still tracked/,
      );
      expect(await page.getByRole("link", { name: unknown[0] }).count()).toBe(0);
      await page.goto(`${app.url}/dashboard`);
      expect(await tileCount(/Failed: no carrier found it/)).toBe(0);

      await page.goto(`${app.url}/dashboard/shipments`);
      await page.getByLabel("Archived only").check();
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/archived=true/);
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Archived shipments");
      expect(await page.getByRole("link", { name: unknown[0] }).count()).toBe(1);
      visited.set("archived-list", page.url());
      await page.getByRole("button", { name: `Unarchive ${unknown[0]}` }).click();
      await page.getByRole("status").first().waitFor();
      expect(await page.getByRole("status").first().innerText()).toMatch(/SHP-\d+ is back in the list/);
      await page.goto(`${app.url}/dashboard`);
      expect(await tileCount(/Failed: no carrier found it/)).toBe(1);
    });

    it("archives from the shipment's page and undoes it from the notice", async () => {
      await page.goto(`${app.url}/dashboard/shipments`);
      await page.getByRole("link", { name: known[1] }).click();
      await page.getByRole("heading", { name: "At a glance" }).waitFor();
      visited.set("shipment", page.url());
      await page.getByRole("button", { name: `Archive ${known[1]}` }).click();
      await page.getByRole("heading", { name: "At a glance" }).waitFor();
      expect(await page.getByRole("status").first().innerText()).toMatch(/is archived/);
      expect(await page.locator("main").innerText()).toMatch(/Archived: out of the list and the exceptions/);
      await page.goto(`${app.url}/dashboard/shipments`);
      expect(await page.getByRole("link", { name: known[1] }).count()).toBe(0);
      await page.goto(`${app.url}/dashboard/shipments?archived=true`);
      await page.getByRole("button", { name: `Unarchive ${known[1]}` }).click();
      await page.getByRole("status").first().waitFor();
      await page.goto(`${app.url}/dashboard/shipments`);
      expect(await page.getByRole("link", { name: known[1] }).count()).toBe(1);
      visited.set("overview", `${app.url}/dashboard`);
    });

    it("names the ports of a quote request where the directory has them, not bare codes", async () => {
      await page.goto(`${app.url}/dashboard/quotes`);
      await page.getByLabel("From (UN/LOCODE, e.g. CNSHA)").fill("CNSHA");
      await page.getByLabel("To (UN/LOCODE, e.g. NLRTM)").fill("NLRTM");
      await page.getByLabel("Container type (e.g. 40HC)").fill("40HC");
      await page.getByLabel("Containers").fill("2");
      await page.getByLabel("Cargo ready on").fill("2027-01-15");
      await page.getByLabel("Commodity").fill("Bicycle parts");
      await page.getByRole("button", { name: "Ask for a quote" }).click();
      await page.getByTestId("quote-request").first().waitFor();
      const row = await page.getByTestId("quote-request").first().innerText();
      expect(row).toMatch(/Shanghai \(CNSHA\) → Rotterdam \(NLRTM\)/);
      visited.set("quotes", page.url());
    });

    it("refuses a time zone it does not know in plain words and keeps what was typed", async () => {
      await page.goto(`${app.url}/dashboard/notifications`);
      await page.getByLabel("Time zone (IANA, e.g. Europe/Amsterdam)").fill("Europe/Rotterdam");
      await page.getByLabel("Mail arrival estimate changes of at least (hours)").fill("36");
      await page.getByRole("button", { name: "Save preferences" }).click();
      await page.getByRole("alert").waitFor();
      const alert = await page.getByRole("alert").innerText();
      expect(alert).toContain("The time zone is not one we know. Use a name such as Europe/Amsterdam");
      expect(alert).not.toContain("timeZone");
      expect(await page.getByLabel("Time zone (IANA, e.g. Europe/Amsterdam)").inputValue()).toBe(
        "Europe/Rotterdam",
      );
      expect(await page.getByLabel("Mail arrival estimate changes of at least (hours)").inputValue()).toBe(
        "36",
      );
    });

    it("has no axe violation on the pages of this walk", async () => {
      const failures: string[] = [];
      for (const [name, url] of visited) {
        await page.goto(url);
        const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
        for (const v of results.violations)
          failures.push(
            `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
          );
      }
      expect(failures).toEqual([]);
      expect(visited.size).toBe(7);
    });
  },
);
