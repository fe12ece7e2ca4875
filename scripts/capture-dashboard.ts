/**
 * Takes the README's screenshot of the dashboard overview from a running Quayside:
 *   npx tsx scripts/capture-dashboard.ts http://127.0.0.1:8080 demo@quayside.local 'PASSWORD'
 * with Debian's Chromium (playwright-core never downloads a browser here). Track a few containers
 * first (POST /api/v1/track) so the overview has something to show.
 */
import { chromium } from "playwright-core";

const [base = "http://127.0.0.1:8080", email = "demo@quayside.local", password] = process.argv.slice(2);
if (!password) throw new Error("usage: capture-dashboard.ts BASE_URL EMAIL PASSWORD");

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/dashboard`);
  await page.screenshot({ path: "docs/images/dashboard-overview.png" });
} finally {
  await browser.close();
}
