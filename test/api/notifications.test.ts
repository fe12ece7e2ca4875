/**
 * E-mail notifications (issue 22 item 2) against a real SMTP server on loopback: a followed shipment's
 * ETA change is one e-mail, held back during the recipient's quiet hours until they end; the daily
 * digest lists the day's changes; without SMTP the mail lands in the outbox GraphQL shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { type SmtpReceiver, startSmtpServer } from "../support/smtp";

const DAY = 86_400_000;
const ZONE = "America/Los_Angeles";

const UPDATE_PREFS = `mutation($input: NotificationPreferencesInput!) {
  updateNotificationPreferences(input: $input) {
    email emailMasked emailEnabled statusChanges etaChanges etaChangeMinHours vesselArrival
    lastFreeDayReminders disruptions dailyDigest timeZone quietHours { start end } followedShipments
  }
}`;
const FOLLOW = `mutation($shipment: String!, $userId: ID) {
  followShipment(shipment: $shipment, userId: $userId) { id reference followers { id email } }
}`;
const OUTBOX = `{ mailOutbox(first: 100) { id kind to subject text status transport notBefore sentAt } }`;

interface OutboxMail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  status: string;
  transport: string | null;
  notBefore: string;
  sentAt: string | null;
}

async function drain(worker: { runOnce(): Promise<{ full: boolean }> }) {
  for (let i = 0; i < 50 && (await worker.runOnce()).full; i++);
}

async function outbox(app: TestApp, key: string): Promise<OutboxMail[]> {
  const res = await graphql(app, key, OUTBOX);
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.mailOutbox as OutboxMail[];
}

/** Each followed reference's ETA as the core stores it (an instant). */
async function etas(app: TestApp, key: string, references: string[]): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  for (const reference of references) {
    const res = await graphql(app, key, "query($id: String!) { shipment(id: $id) { eta } }", {
      id: reference,
    });
    result.set(reference, (res.body.data!.shipment as { eta: string | null }).eta);
  }
  return result;
}

describe("e-mail through a real SMTP server", () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  let org: OrgWithKey;
  const clock = new ManualClock("2026-11-22T10:00:00Z"); // 02:00 in Los Angeles: inside the quiet hours

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({
      clock,
      env: {
        QUAYSIDE_WORKERS: "off",
        QUAYSIDE_SIMULATOR: "embedded",
        QUAYSIDE_SIMULATOR_PORT: "0",
        QUAYSIDE_CARRIER_ATTEMPTS: "1",
        SMTP_URL: smtp.url,
        QUAYSIDE_MAIL_FROM: "Quayside Alerts <alerts@quayside.test>",
      },
    });
    org = await app.fixtures.organization();
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it("mails one ETA change per followed shipment, none during quiet hours until they end, and a digest of the day's changes", async () => {
    const teammate = await app.fixtures.teammate(org.organizationId);
    const prefs = await graphql(app, org.key, UPDATE_PREFS, {
      input: {
        statusChanges: false,
        vesselArrival: false,
        etaChanges: true,
        etaChangeMinHours: 0,
        dailyDigest: true,
        timeZone: ZONE,
        quietHours: { start: "22:00", end: "07:00" },
      },
    });
    expect(prefs.body.errors).toBeUndefined();
    const address = (prefs.body.data!.updateNotificationPreferences as { email: string }).email;
    expect(address).toMatch(/@example\.com$/);
    expect(prefs.body.data!.updateNotificationPreferences).toMatchObject({
      etaChanges: true,
      statusChanges: false,
      timeZone: ZONE,
      quietHours: { start: "22:00", end: "07:00" },
      emailMasked: expect.stringMatching(/^u\*\*\*@e\*\*\*\.com$/),
    });
    // The teammate wants nothing but follows nothing either: no mail of theirs may appear.
    await graphql(app, teammate.key, UPDATE_PREFS, { input: { etaChangeMinHours: 0 } });

    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 8,
      start: 710_000,
    });
    const tracked = await fetch(`${app.url}/api/v1/track`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        shipments: known.map((number) => ({ type: "container", number, sealine: "MSCU" })),
      }),
    });
    expect(((await tracked.json()) as { tracked: number }).tracked).toBe(known.length);
    for (const number of known) {
      const followed = await graphql(app, org.key, FOLLOW, { shipment: number });
      expect(followed.body.errors).toBeUndefined();
      expect((followed.body.data!.followShipment as { followers: { id: string }[] }).followers).toEqual([
        expect.objectContaining({ id: org.userId }),
      ]);
    }

    // Day by day (10:00 UTC, 02:00 in Los Angeles) until a refresh moves some ETAs.
    let before = await etas(app, org.key, known);
    let moved: string[] = [];
    for (let day = 0; day < 40 && moved.length === 0; day++) {
      clock.set(Date.parse("2026-11-22T10:00:00Z") + (day + 1) * DAY);
      await drain(app.workers.refresh);
      const after = await etas(app, org.key, known);
      moved = [...after]
        .filter(([ref, eta]) => before.has(ref) && before.get(ref) && eta !== before.get(ref))
        .map(([ref]) => ref);
      if (moved.length === 0) before = after;
    }
    expect(moved.length).toBeGreaterThan(0);
    const changeDay = clock.now();

    // Queued at once, but 02:00 is inside 22:00-07:00: nothing is sent, however often the worker runs.
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    expect(smtp.received).toEqual([]);
    const waiting = (await outbox(app, org.key)).filter((m) => m.kind === "eta_changed");
    expect(waiting).toHaveLength(moved.length);
    for (const mail of waiting) {
      expect(mail.status).toBe("pending");
      // 07:00 in Los Angeles (PST, UTC-8) is 15:00 UTC on the same date.
      expect(mail.notBefore).toBe(new Date(changeDay.getTime() + 5 * 3_600_000).toISOString());
    }

    clock.set(changeDay.getTime() + 5 * 3_600_000 - 60_000); // 06:59: still quiet
    await drain(app.workers.notifications);
    expect(smtp.received).toEqual([]);

    clock.set(changeDay.getTime() + 5 * 3_600_000); // 07:00: the quiet hours are over
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const etaMails = smtp.received.filter((m) => m.subject.startsWith("ETA changed:"));
    expect(etaMails).toHaveLength(moved.length);
    expect(smtp.received).toHaveLength(moved.length);
    const after = await etas(app, org.key, known);
    for (const reference of moved) {
      const mails = etaMails.filter((m) => m.subject.includes(reference));
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.to).toEqual([address]);
      expect(mail.headers.from).toBe("Quayside Alerts <alerts@quayside.test>");
      expect(mail.headers["x-quayside-notification"]).toMatch(/^eta_changed:/);
      // Both estimates, in the recipient's zone.
      expect(mail.text).toContain(`(${ZONE})`);
      expect(mail.text).toContain(reference);
      const eta = new Date(after.get(reference)!);
      const local = new Intl.DateTimeFormat("sv-SE", {
        timeZone: ZONE,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
      }).format(eta);
      expect(mail.subject).toContain(local);
    }
    const sent = (await outbox(app, org.key)).filter((m) => m.kind === "eta_changed");
    expect(sent.every((m) => m.status === "sent" && m.transport === "smtp")).toBe(true);

    // The digest at 08:00 in Los Angeles (16:00 UTC) lists the changes of the 24 hours before.
    clock.set(changeDay.getTime() + 6 * 3_600_000 - 60_000);
    await drain(app.workers.notifications);
    expect(smtp.received.filter((m) => m.subject.startsWith("Daily digest"))).toEqual([]);
    clock.set(changeDay.getTime() + 6 * 3_600_000);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const digests = smtp.received.filter((m) => m.subject.startsWith("Daily digest"));
    expect(digests).toHaveLength(1);
    const digest = digests[0]!;
    for (const reference of moved)
      expect(digest.text).toMatch(new RegExp(`${reference} \\(SHP-\\d+\\): ETA `));
    expect(digest.subject).toMatch(
      /^Daily digest \d{4}-\d{2}-\d{2}: \d+ changes? on the shipments you follow$/,
    );
  }, 300_000);
});
