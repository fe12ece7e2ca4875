/**
 * Issue 35, sixth pass: a disruption whose own report says how long it lasts ("closed for three
 * weeks") is not closed by the silence rule before then, also when it is read back from storage
 * between two passes of the silence sweep (the date is kept in the event's clustering state).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const DAY = 86_400_000;
const reported = new Date("2026-06-01T08:00:00Z");
const clock = new ManualClock(new Date(reported.getTime() + 10 * DAY));
let app: TestApp;
let business: OrgWithKey;

async function listed(status: "active" | "resolved") {
  const res = await fetch(`${app.url}/api/v1/disruptions?status=${status}`, {
    headers: { authorization: `Bearer ${business.key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { headline: string; resolved_at: string | null }[] }).data;
}

beforeAll(async () => {
  app = await startTestApp({ clock });
  business = await app.fixtures.organization({ plan: "business" });
}, 120_000);
afterAll(() => app?.stop());

describe("a closure said to last three weeks", () => {
  it("is still active ten days on, past the port category's seven days of silence", async () => {
    await app.services.disruptions.ingest(
      { id: "harbour-wire", publisher: "Harbour Wire", kind: "news", authoritative: false },
      [
        {
          sourceId: "harbour-wire",
          publisher: "Harbour Wire",
          guid: "gdansk-crane",
          link: "https://news.example/gdansk-crane",
          title: "Crane collapse closes the container terminal at the Port of Gdansk",
          summary:
            "Port of Gdansk officials said the terminal would stay closed for three weeks while the quay is inspected.",
          publishedAt: reported,
        },
      ],
    );
    await app.services.disruptions.resolveSilent();
    expect(await listed("active")).toHaveLength(1);
    expect(await listed("resolved")).toHaveLength(0);
  });

  it("is resolved by silence once the three weeks have passed, at the date its report gave", async () => {
    clock.set(new Date(reported.getTime() + 22 * DAY));
    expect(await app.services.disruptions.resolveSilent()).toBe(1);
    const resolved = await listed("resolved");
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.resolved_at).toBe(new Date(reported.getTime() + 21 * DAY).toISOString());
  });
});
