/**
 * E-mail notifications (issue 22 item 2) against a real SMTP server on loopback: a followed shipment's
 * ETA change is one e-mail, held back during the recipient's quiet hours until they end; the daily
 * digest lists the day's changes; without SMTP the mail lands in the outbox GraphQL shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { when } from "../../src/domain/notifications/messages";
import { answersChanged } from "../../src/lib/answer-changes";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { drain, startMailTestApp } from "../support/mail";
import { simulatedContainers } from "../support/references";
import type { SmtpReceiver } from "../support/smtp";

const DAY = 86_400_000;
const ZONE = "America/Los_Angeles";

const UPDATE_PREFS = `mutation($input: NotificationPreferencesInput!) {
  updateNotificationPreferences(input: $input) {
    email emailMasked emailEnabled statusChanges etaChanges etaChangeMinHours vesselArrival
    lastFreeDayReminders disruptions dailyDigest timeZone quietHours { start end } followedShipments
  }
}`;
const FOLLOW = `mutation($shipment: String!, $userId: ID) {
  followShipment(shipment: $shipment, userId: $userId) { id email }
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
    ({ app, smtp, org } = await startMailTestApp({
      clock,
      env: { QUAYSIDE_MAIL_FROM: "Quayside Alerts <alerts@quayside.test>" },
    }));
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
      expect(followed.body.data!.followShipment).toEqual([expect.objectContaining({ id: org.userId })]);
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
    const etaMails = smtp.received.filter((m) => m.subject.startsWith("New arrival estimate for "));
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
      // Both estimates, in the recipient's zone, in words.
      expect(mail.text).toContain("(Los Angeles time)");
      expect(mail.text).toContain("Previous estimate:");
      expect(mail.text).toContain(reference);
      expect(mail.subject).toContain(when(after.get(reference)!, ZONE));
    }
    const sent = (await outbox(app, org.key)).filter((m) => m.kind === "eta_changed");
    expect(sent.every((m) => m.status === "sent" && m.transport === "smtp")).toBe(true);

    // The digest at 08:00 in Los Angeles (16:00 UTC) lists the changes of the 24 hours before.
    clock.set(changeDay.getTime() + 6 * 3_600_000 - 60_000);
    await drain(app.workers.notifications);
    expect(smtp.received.filter((m) => m.subject.startsWith("Your daily summary"))).toEqual([]);
    clock.set(changeDay.getTime() + 6 * 3_600_000);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const digests = smtp.received.filter((m) => m.subject.startsWith("Your daily summary"));
    expect(digests).toHaveLength(1);
    const digest = digests[0]!;
    for (const reference of moved)
      expect(digest.text).toMatch(new RegExp(`${reference} \\(SHP-\\d+\\): expected arrival now `));
    expect(digest.subject).toMatch(/^Your daily summary for \w+day, \d+ \w+ \d{4}: \d+ changes?$/);
  }, 300_000);
});

describe("preferences and followers through GraphQL", () => {
  let app: TestApp;
  let org: OrgWithKey;
  let other: OrgWithKey;
  let reference: string;

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        QUAYSIDE_WORKERS: "off",
        QUAYSIDE_SIMULATOR: "embedded",
        QUAYSIDE_SIMULATOR_PORT: "0",
        QUAYSIDE_CARRIER_ATTEMPTS: "1",
      },
    });
    org = await app.fixtures.organization();
    other = await app.fixtures.organization();
    // A box still under way: last-free-day reminders are for shipments not delivered yet, and in the
    // simulator's world many boxes have already been delivered by today.
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 12,
      start: 720_000,
    });
    for (const candidate of known) {
      const tracked = await fetch(`${app.url}/api/v1/container/${candidate}?sealine=MSCU`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(tracked.status).toBe(200);
      const shipment = await app.services.db.prisma.shipment.findFirstOrThrow({
        where: { organizationId: org.organizationId, reference: candidate },
      });
      if (shipment.status === "IN_TRANSIT") {
        reference = candidate;
        break;
      }
      // Deleted, as a user would, so the organisation tracks the one shipment the tests follow.
      const deleted = await fetch(`${app.url}/api/v1/shipments/${candidate}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(deleted.status).toBe(200);
    }
    expect(reference!).toBeDefined();
  }, 120_000);
  afterAll(() => app?.stop());

  it("refuses bad values with the field named, saving nothing", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ timeZone: "Mars/Olympus_Mons" }, "timeZone"],
      [{ timeZone: "Europe/Rotterdam" }, "timeZone"],
      [{ quietHours: { start: "25:00", end: "07:00" } }, "quietHours.start"],
      [{ quietHours: { start: "7:00", end: "08:00" } }, "quietHours.start"],
      [{ quietHours: { start: "07:00", end: "07:00" } }, "quietHours"],
      [{ etaChangeMinHours: -1 }, "etaChangeMinHours"],
      [{ etaChangeMinHours: 100_000 }, "etaChangeMinHours"],
      [{ emailEnabled: null }, "emailEnabled"],
      [{ dailyDigest: true, timeZone: "Nowhere" }, "timeZone"],
    ];
    for (const [input, field] of bad) {
      const res = await graphql(app, org.key, UPDATE_PREFS, { input });
      expect(res.status, JSON.stringify(input)).toBe(200);
      expect(res.body.errors?.[0]?.extensions, JSON.stringify(input)).toMatchObject({
        code: "BAD_USER_INPUT",
        field,
      });
    }
    const now = await graphql(
      app,
      org.key,
      "{ notificationPreferences { dailyDigest timeZone quietHours { start } } }",
    );
    expect(now.body.data!.notificationPreferences).toEqual({
      dailyDigest: false,
      timeZone: "UTC",
      quietHours: null,
    });

    const cleared = await graphql(app, org.key, UPDATE_PREFS, {
      input: { quietHours: { start: "23:00", end: "06:00" } },
    });
    expect(cleared.body.errors).toBeUndefined();
    const removed = await graphql(app, org.key, UPDATE_PREFS, { input: { quietHours: null } });
    expect(removed.body.data!.updateNotificationPreferences).toMatchObject({ quietHours: null });
  });

  it("follows only the organisation's own shipments and users; another organisation's are not found", async () => {
    const teammate = await app.fixtures.teammate(org.organizationId);
    const mine = await graphql(app, org.key, FOLLOW, { shipment: reference, userId: teammate.userId });
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data!.followShipment).toEqual([expect.objectContaining({ id: teammate.userId })]);
    // Following twice is still one follow.
    await graphql(app, org.key, FOLLOW, { shipment: reference, userId: teammate.userId });
    const self = await graphql(app, org.key, FOLLOW, { shipment: reference });
    expect(self.body.data!.followShipment).toHaveLength(2);

    const theirs = await graphql(app, other.key, FOLLOW, { shipment: reference });
    expect(theirs.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const foreignUser = await graphql(app, org.key, FOLLOW, { shipment: reference, userId: other.userId });
    expect(foreignUser.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(foreignUser.body.errors?.[0]?.message).toBe("No such shipment or user in your organisation.");

    const unfollowed = await graphql(
      app,
      org.key,
      `mutation($shipment: String!) { unfollowShipment(shipment: $shipment) { id } }`,
      { shipment: reference },
    );
    expect(unfollowed.body.data!.unfollowShipment).toEqual([{ id: teammate.userId }]);
    const listed = await graphql(
      app,
      other.key,
      "query($s: String!) { shipmentFollowers(shipment: $s) { id } }",
      {
        s: reference,
      },
    );
    expect(listed.body.data!.shipmentFollowers).toBeNull();
    const count = await graphql(app, teammate.key, "{ notificationPreferences { followedShipments } }");
    expect(count.body.data!.notificationPreferences).toEqual({ followedShipments: 1 });
  });

  it("reminds followers 72 and 24 hours before a known last free day, once each", async () => {
    const follower = await app.fixtures.teammate(org.organizationId);
    await graphql(app, follower.key, FOLLOW, { shipment: reference });
    const { prisma } = app.services.db;
    const shipment = await prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, reference },
    });
    const profile = await graphql(app, follower.key, "{ notificationPreferences { email } }");
    const address = (profile.body.data!.notificationPreferences as { email: string }).email;
    const reminders = async () =>
      (await outbox(app, follower.key)).filter((m) => m.kind.startsWith("lfd_") && m.to === address);
    // No last free day known (no terminal data yet): no reminder.
    await drain(app.workers.notifications);
    expect(await reminders()).toEqual([]);

    // A terminal answers for the shipment's box with the line's last free day: a whole day whose end at
    // the port of discharge (its midnight, in its time zone) is the deadline reminders count down to.
    const { containerNumbers, arrival, arrivalLocalDateTime } = shipment.summary as {
      containerNumbers: string[];
      arrival: string;
      arrivalLocalDateTime: string;
    };
    const [box] = containerNumbers;
    // The port's offset from UTC, from the arrival given both ways (its wall clock and the instant).
    const portOffset = Date.parse(`${arrivalLocalDateTime.replace(" ", "T")}Z`) - Date.parse(arrival);
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    // The port-local day whose end is the port midnight nearest to `hoursAhead` hours from now (within
    // 12 hours of it either way).
    const dayEndingNear = (hoursAhead: number) => {
      const endOnPortClock = Math.round((Date.now() + hoursAhead * HOUR + portOffset) / DAY) * DAY;
      return new Date(endOnPortClock - DAY).toISOString().slice(0, 10);
    };
    const answerWith = (lastFreeDayLine: string) => ({
      observedAt: new Date().toISOString(),
      availableForPickup: true,
      holds: [],
      lastFreeDayLine,
      lastFreeDayTerminal: null,
      yardLocation: null,
      dischargedAt: null,
      gateOutAt: null,
      events: [],
    });
    const setLastFreeDay = async (hoursAhead: number) => {
      const now = Date.now();
      const answer = answerWith(dayEndingNear(hoursAhead));
      await prisma.terminalRecord.upsert({
        where: { containerNumber_terminalCode: { containerNumber: box!, terminalCode: "TESTT" } },
        create: {
          containerNumber: box!,
          terminalCode: "TESTT",
          terminalName: "Test terminal",
          requestedAt: new Date(now),
          answer,
          answeredAt: new Date(now),
        },
        update: { answer, answeredAt: new Date(now) },
      });
      // Announced as the terminal records' own writes announce an answer: what is kept from the box
      // (its shipment's free time) follows it.
      await answersChanged({ containers: [box!] });
    };
    // Ends 98 to 122 hours from now: before any reminder's window.
    await setLastFreeDay(110);
    await drain(app.workers.notifications);
    expect(await reminders()).toEqual([]);
    // Ends 48 to 72 hours from now: inside the 72-hour reminder's window.
    await setLastFreeDay(60);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    expect((await reminders()).map((m) => m.kind)).toEqual(["lfd_72h"]);
    expect((await reminders())[0]!.subject).toBe(`Last free day in 3 days: ${reference}`);
    // Ends within 24 hours: the 24-hour reminder's window.
    await setLastFreeDay(12);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    expect((await reminders()).map((m) => m.kind).sort()).toEqual(["lfd_24h", "lfd_72h"]);
  });

  it("mails a disruption first seen after the follow began, once, and not older news", async () => {
    const follower = await app.fixtures.teammate(org.organizationId);
    const { prisma } = app.services.db;
    const shipment = await prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, reference },
    });
    const disruption = (id: string, headline: string, firstSeen: Date) =>
      prisma.disruption.create({
        data: {
          id,
          category: "weather",
          severity: 3,
          status: "active",
          ports: [],
          headline,
          summary: headline,
          firstSeen,
          lastUpdated: firstSeen,
          matches: {
            create: {
              shipmentId: shipment.id,
              organizationId: org.organizationId,
              matchTypes: ["pod"],
              computedAt: firstSeen,
            },
          },
        },
      });
    // What the disruption pipeline stores: an event and its match to the shipment.
    await disruption(
      "00000000-0000-4000-8000-00000000d001",
      "Old storm closes the port",
      new Date(Date.now() - 86_400_000),
    );
    await graphql(app, follower.key, FOLLOW, { shipment: reference });
    await disruption(
      "00000000-0000-4000-8000-00000000d002",
      "Typhoon closes the port",
      new Date(Date.now() + 1_000),
    );
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const profile = await graphql(app, follower.key, "{ notificationPreferences { email } }");
    const address = (profile.body.data!.notificationPreferences as { email: string }).email;
    const mails = (await outbox(app, follower.key)).filter(
      (m) => m.kind === "disruption" && m.to === address,
    );
    expect(mails.map((m) => m.subject)).toEqual([`Typhoon closes the port: ${reference}`]);
    expect(mails[0]!.text).toContain("through its port of discharge");
  });

  it("needs a key that may write to change anything", async () => {
    const viewOnly = await app.fixtures.teammate(org.organizationId, { viewOnly: true });
    const res = await graphql(app, viewOnly.key, UPDATE_PREFS, { input: { dailyDigest: true } });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
    const follow = await graphql(app, viewOnly.key, FOLLOW, { shipment: reference });
    expect(follow.body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
  });
});

describe("the outbox when no SMTP server is configured", () => {
  let app: TestApp;
  const clock = new ManualClock("2026-11-22T12:00:00Z");

  beforeAll(async () => {
    app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  }, 60_000);
  afterAll(() => app?.stop());

  it("keeps sent mail in the database for the dashboard, once per key, each organisation seeing its own", async () => {
    const org = await app.fixtures.organization();
    const other = await app.fixtures.organization();
    const { notifications } = app.services;
    const invitation = {
      organizationId: org.organizationId,
      to: "new.colleague@example.org",
      subject: "You are invited to Quayside",
      text: "Join your team on Quayside.",
      html: "<p>Join your team on Quayside.</p>",
      dedupeKey: "invitation:test-1",
    };
    expect(await notifications.enqueueMail(invitation)).toBe(true);
    expect(await notifications.enqueueMail(invitation)).toBe(false);

    const queued = await outbox(app, org.key);
    expect(queued).toEqual([
      expect.objectContaining({
        kind: "mail",
        to: "new.colleague@example.org",
        status: "pending",
        transport: null,
      }),
    ]);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const sent = await outbox(app, org.key);
    expect(sent).toEqual([
      expect.objectContaining({
        subject: "You are invited to Quayside",
        text: "Join your team on Quayside.",
        status: "sent",
        transport: "outbox",
        sentAt: "2026-11-22T12:00:00.000Z",
      }),
    ]);
    expect(await outbox(app, other.key)).toEqual([]);
  });

  it("defers a user's mail through their quiet hours in their own zone", async () => {
    const org = await app.fixtures.organization();
    await graphql(app, org.key, UPDATE_PREFS, {
      input: { timeZone: "Asia/Singapore", quietHours: { start: "19:00", end: "21:30" } },
    });
    // 12:00 UTC is 20:00 in Singapore: quiet until 21:30 there, 13:30 UTC.
    clock.set("2026-11-22T12:00:00Z");
    const profile = await graphql(app, org.key, "{ notificationPreferences { email } }");
    const email = (profile.body.data!.notificationPreferences as { email: string }).email;
    await app.services.notifications.enqueueMail({
      organizationId: org.organizationId,
      userId: org.userId,
      to: email,
      subject: "Quiet hours check",
      text: "Sent after quiet hours.",
    });
    await drain(app.workers.notifications);
    const waiting = await outbox(app, org.key);
    expect(waiting).toEqual([
      expect.objectContaining({ status: "pending", notBefore: "2026-11-22T13:30:00.000Z" }),
    ]);
    clock.set("2026-11-22T13:29:00Z");
    await drain(app.workers.notifications);
    expect((await outbox(app, org.key))[0]!.status).toBe("pending");
    clock.set("2026-11-22T13:30:00Z");
    await drain(app.workers.notifications);
    expect((await outbox(app, org.key))[0]).toMatchObject({
      status: "sent",
      sentAt: "2026-11-22T13:30:00.000Z",
    });
  });
});
