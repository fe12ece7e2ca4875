/**
 * Issue 43 on one manual clock with a real SMTP server on loopback: the moments that matter are each
 * mailed once and on time (or not at all once passed), with a working dashboard link and a one-click
 * unsubscribe (RFC 8058) that stops that kind of mail; no mail carries an internal code; one
 * disruption touching 50 followed shipments is one mail per person; a box has one last free day on
 * every surface and in mail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealStoredSecrets } from "../../src/app/seal-secrets";
import { lastFreeDayDeadline } from "../../src/domain/notifications/last-free-day";
import { sailingMoments } from "../../src/domain/notifications/moments";
import { signUnsubscribe } from "../../src/domain/notifications/unsubscribe";
import type { TrackingDocument } from "../../src/domain/tracking/model";
import { answersChanged } from "../../src/lib/answer-changes";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { drain, startMailTestApp } from "../support/mail";
import { simulatedContainers } from "../support/references";
import type { ReceivedMail, SmtpReceiver } from "../support/smtp";

const HOUR = 3_600_000;
const PUBLIC_URL = "https://track.example.com";
const ZONE = "America/Los_Angeles";

const FOLLOW = `mutation($shipment: String!) { followShipment(shipment: $shipment) { id } }`;
const UPDATE_PREFS = `mutation($input: NotificationPreferencesInput!) {
  updateNotificationPreferences(input: $input) { etaChanges vesselDeparture vesselArrival statusChanges }
}`;

/**
 * The simulator asked box by box: on a loaded machine a kept-alive socket is sometimes reset between
 * requests (ECONNRESET), which says nothing about mail; the search is asked again.
 */
async function boxes(app: TestApp, wanted: { known: number; start: number }): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", wanted)).known;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

/** What a reader must never see (the unit test scans the templates; this scans what was delivered). */
const CODES: [string, RegExp][] = [
  ["a status enum", /\b(PLANNED|IN_TRANSIT|DELIVERED|CANCELLED|UNKNOWN)\b/],
  ["a raw UN/LOCODE", /\b[A-Z]{2}[A-Z2-9]{3}\b(?<!\bUSDA|\bSHP)/],
  ["a SCAC alone", /\b(MSCU|MAEU|HLCU|CMDU)\b/],
  ["a snake_case code", /\b[a-z]+_[a-z_]+\b/],
  ["a raw id", /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/],
  ["(0 h)", /\(\s*[+-]?\d+(\.\d+)?\s*h\)/],
];
const prose = (text: string) => text.replace(/https?:\/\/\S+?(?=["\s<]|$)/g, "").replace(/<[^>]+>/g, " ");

function expectPlainWords(mails: ReceivedMail[]) {
  for (const mail of mails) {
    for (const body of [mail.subject, mail.text, mail.html ?? ""]) {
      for (const [what, pattern] of CODES) {
        expect(prose(body).match(pattern), `${mail.subject}: ${what}`).toBeNull();
      }
    }
    expect(mail.html, mail.subject).toMatch(/^<!doctype html>/);
    expect(mail.text, mail.subject).toContain(
      `Choose what you receive: ${PUBLIC_URL}/dashboard/notifications`,
    );
    expect(mail.headers["list-unsubscribe"], mail.subject).toMatch(
      /^<https:\/\/track\.example\.com\/unsubscribe\/\S+>$/,
    );
    expect(mail.headers["list-unsubscribe-post"], mail.subject).toBe("List-Unsubscribe=One-Click");
  }
}

async function documentOf(app: TestApp, shipmentId: string): Promise<TrackingDocument | null> {
  const { prisma } = app.services.db;
  const shipment = await prisma.shipment.findUniqueOrThrow({
    where: { id: shipmentId },
    include: { document: true },
  });
  if (!shipment.document) return null;
  const version = await prisma.documentVersion.findUniqueOrThrow({
    where: {
      documentId_version: { documentId: shipment.document.id, version: shipment.document.latestVersion },
    },
  });
  return version.content as unknown as TrackingDocument;
}

/** One-click unsubscribe as a mailbox provider does it: a POST of `List-Unsubscribe=One-Click`, no cookie, no key. */
async function oneClick(app: TestApp, mail: ReceivedMail): Promise<Response> {
  const link = /^<(.+)>$/.exec(mail.headers["list-unsubscribe"]!)![1]!;
  return fetch(`${app.url}${new URL(link).pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
}

describe("the moments of followed shipments, on one clock, through a real SMTP server", () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  let org: OrgWithKey;
  const start = Date.parse("2026-11-22T10:00:00Z");
  const clock = new ManualClock(start);

  beforeAll(async () => {
    ({ app, smtp, org } = await startMailTestApp({ clock, env: { QUAYSIDE_PUBLIC_URL: PUBLIC_URL } }));
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it("mails each sailing, transshipment and arrival once and on time, links to the shipment, and one click stops that kind of mail", async () => {
    await graphql(app, org.key, UPDATE_PREFS, { input: { etaChangeMinHours: 0, timeZone: ZONE } });
    const known = await boxes(app, {
      known: 14,
      start: 710_000,
    });
    const tracked = await fetch(`${app.url}/api/v1/track`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        shipments: known.map((number) => ({ type: "container", number, sealine: "MSCU" })),
      }),
    });
    expect(tracked.status).toBe(200);
    for (const number of known)
      expect((await graphql(app, org.key, FOLLOW, { shipment: number })).body.errors).toBeUndefined();

    // Six-hour steps for two weeks: refreshes bring the carriers' news, the worker mails it.
    const receivedAt: number[] = [];
    const step = async () => {
      clock.set(clock.now().getTime() + 6 * HOUR);
      await drain(app.workers.refresh);
      await drain(app.workers.notifications);
      await drain(app.workers.notifications);
      while (receivedAt.length < smtp.received.length) receivedAt.push(clock.now().getTime());
    };
    for (let i = 0; i < 4 * 14; i++) await step();

    const { prisma } = app.services.db;
    const shipments = await prisma.shipment.findMany({
      where: { organizationId: org.organizationId, deletedAt: null },
    });
    let departures = 0;
    for (const shipment of shipments) {
      const doc = await documentOf(app, shipment.id);
      const pol = doc?.route.pol.locationKey;
      const departed = doc?.containers
        .flatMap((c) => c.events)
        .filter((e) => e.eventCode === "DEPA" && e.actual && e.locationKey === pol && e.instant)
        .map((e) => Date.parse(e.instant!))
        .sort()[0];
      const sailed = smtp.received
        .map((mail, i) => ({ mail, at: receivedAt[i]! }))
        .filter(
          ({ mail }) =>
            mail.subject.startsWith("Sailed from ") && mail.subject.endsWith(`: ${shipment.reference}`),
        );
      if (departed === undefined || departed < start) {
        // Sailed before the follow began (old news) or not yet: no sailing mail.
        expect(sailed, shipment.reference).toEqual([]);
        continue;
      }
      departures++;
      expect(sailed, shipment.reference).toHaveLength(1);
      const { mail, at } = sailed[0]!;
      // On time: after it happened, within a refresh (12 h) and a step of it.
      expect(at).toBeGreaterThanOrEqual(departed);
      expect(at - departed).toBeLessThanOrEqual(18 * HOUR);
      expect(mail.subject).not.toMatch(/a place the carrier has not named/);
      const name = `SHP-${shipment.number}`;
      expect(mail.text).toContain(`Open the shipment: ${PUBLIC_URL}/dashboard/shipments/${name}`);
      expect(mail.html).toContain(`href="${PUBLIC_URL}/dashboard/shipments/${name}"`);
      // The link's page exists on the deployment (a visitor without a session is sent to sign in).
      const page = await fetch(`${app.url}/dashboard/shipments/${name}`, { redirect: "manual" });
      expect([200, 302, 303]).toContain(page.status);
    }
    expect(departures).toBeGreaterThan(0);

    // Arrival at the port of discharge and each transshipment: once, on time, naming the place.
    let arrivals = 0;
    let transshipments = 0;
    for (const shipment of shipments) {
      const doc = await documentOf(app, shipment.id);
      if (!doc) continue;
      const mailsOf = (prefix: string) =>
        smtp.received
          .map((mail, i) => ({ mail, at: receivedAt[i]! }))
          .filter(
            ({ mail }) => mail.subject.startsWith(prefix) && mail.subject.endsWith(`: ${shipment.reference}`),
          );
      const pod = doc.route.pod;
      const arrived = pod.actual && pod.instant ? Date.parse(pod.instant) : null;
      if (arrived !== null && arrived >= start) {
        arrivals++;
        const mails = mailsOf("Arrived at ");
        expect(mails, shipment.reference).toHaveLength(1);
        expect(mails[0]!.at - arrived).toBeLessThanOrEqual(18 * HOUR);
        expect(mails[0]!.mail.subject).not.toMatch(/a place the carrier has not named/);
      }
      const legs = sailingMoments(doc).filter((m) => m.kind === "transshipment" && Date.parse(m.at) >= start);
      transshipments += legs.length;
      expect(mailsOf("Transshipped at "), shipment.reference).toHaveLength(legs.length);
    }
    expect(arrivals + transshipments).toBeGreaterThan(0);
    expectPlainWords(smtp.received);
    // Every moment once: no two mails share a de-duplication key.
    const keys = smtp.received.map((m) => m.headers["x-quayside-notification"]);
    expect(new Set(keys).size).toBe(keys.length);

    // One click on an ETA mail's List-Unsubscribe: ETA mail stops, the rest keeps coming.
    const etaMail = smtp.received.find((m) => m.subject.startsWith("New arrival estimate"));
    expect(etaMail).toBeDefined();
    const clicked = await oneClick(app, etaMail!);
    expect(clicked.status).toBe(200);
    expect(await clicked.text()).toContain("no longer receives changes of the expected arrival");
    const prefs = await graphql(
      app,
      org.key,
      "{ notificationPreferences { emailEnabled etaChanges vesselDeparture } }",
    );
    expect(prefs.body.data!.notificationPreferences).toEqual({
      emailEnabled: true,
      etaChanges: false,
      vesselDeparture: true,
    });
    const before = smtp.received.length;
    for (let i = 0; i < 4 * 5; i++) await step();
    expect(smtp.received.slice(before).filter((m) => m.subject.startsWith("New arrival estimate"))).toEqual(
      [],
    );

    // A forged or altered link changes nothing and says so.
    const forged = await fetch(`${app.url}/unsubscribe/${org.userId}.all.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(forged.status).toBe(404);
    // Opening a link (as a mail scanner does) only shows what it would do.
    const link = new URL(
      /^<(.+)>$/.exec(etaMail!.headers["list-unsubscribe"]!)![1]!.replace(".etaChanges.", ".x."),
    );
    expect((await fetch(`${app.url}${link.pathname}`)).status).toBe(404);

    // The links' signing key is sealed at rest: the row alone cannot sign a link. A row from before
    // sealing (the key in clear) is sealed by the start-up pass and still signs the same links.
    const keyRow = await prisma.mailSigningKey.findFirstOrThrow();
    expect(keyRow.secret).toMatch(/^enc:v1:/);
    const signingKey = app.services.secrets.open(keyRow.secret);
    expect(keyRow.secret).not.toContain(signingKey);
    const signed = /^<(.+)>$/.exec(etaMail!.headers["list-unsubscribe"]!)![1]!.split("/").pop()!;
    expect(signUnsubscribe(signingKey, org.userId, "etaChanges")).toBe(signed);
    await prisma.mailSigningKey.update({ where: { id: keyRow.id }, data: { secret: signingKey } });
    expect(await sealStoredSecrets(prisma, app.services.secrets)).toMatchObject({ mailSigningKeys: 1 });
    expect(await sealStoredSecrets(prisma, app.services.secrets)).toMatchObject({ mailSigningKeys: 0 });
    const resealed = await prisma.mailSigningKey.findFirstOrThrow();
    expect(resealed.secret).toMatch(/^enc:v1:/);
    expect(app.services.secrets.open(resealed.secret)).toBe(signingKey);
  }, 600_000);
});

describe("last free day reminders: each on time or not at all", () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  let org: OrgWithKey;
  const clock = new ManualClock("2026-11-22T10:00:00Z");
  let reference: string;
  let shipmentId: string;
  let box: string;
  let podLocode: string | null;

  beforeAll(async () => {
    ({ app, smtp, org } = await startMailTestApp({ clock, env: { QUAYSIDE_PUBLIC_URL: PUBLIC_URL } }));
    const known = await boxes(app, {
      known: 12,
      start: 720_000,
    });
    const { prisma } = app.services.db;
    for (const candidate of known) {
      const res = await fetch(`${app.url}/api/v1/container/${candidate}?sealine=MSCU`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(res.status).toBe(200);
      const shipment = await prisma.shipment.findFirstOrThrow({
        where: { organizationId: org.organizationId, reference: candidate },
      });
      if (shipment.status === "IN_TRANSIT") {
        reference = candidate;
        shipmentId = shipment.id;
        break;
      }
    }
    expect(reference!).toBeDefined();
    const doc = (await documentOf(app, shipmentId))!;
    box = doc.containers[0]!.number;
    podLocode = doc.locations.find((l) => l.key === doc.route.pod.locationKey)?.unLocode ?? null;
    await graphql(app, org.key, FOLLOW, { shipment: reference });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  /** The terminal's answer for the box, observed now on the test's clock. */
  const terminalSays = async (lastFreeDay: string, holds: "customs"[] = [], available = false) => {
    const now = clock.now();
    const answer = {
      observedAt: now.toISOString(),
      availableForPickup: available,
      holds: holds.map((type) => ({ type, status: "hold", description: null })),
      lastFreeDayLine: null,
      lastFreeDayTerminal: lastFreeDay,
      yardLocation: null,
      dischargedAt: null,
      gateOutAt: null,
      events: [],
    };
    await app.services.db.prisma.terminalRecord.upsert({
      where: { containerNumber_terminalCode: { containerNumber: box, terminalCode: "TESTT" } },
      create: {
        containerNumber: box,
        terminalCode: "TESTT",
        terminalName: "Test terminal",
        requestedAt: now,
        answer,
        answeredAt: now,
      },
      update: { answer, answeredAt: now },
    });
    // Announced as the terminal records' own writes announce an answer: what is kept from the box
    // (its shipment's free time) follows it.
    await answersChanged({ containers: [box] });
  };
  const deadlineOf = (lastFreeDay: string) =>
    lastFreeDayDeadline([
      { container: box, source: "", lastFreeDay, portLocode: podLocode, gatedOut: false },
    ])!.endsAt.getTime();
  const reminders = () => smtp.received.filter((m) => m.subject.startsWith("Last free day"));
  const run = async () => {
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
  };

  it("sends the 72-hour reminder in its window and the 24-hour one in its own, once each", async () => {
    await terminalSays("2026-12-10");
    const deadline = deadlineOf("2026-12-10");
    clock.set(deadline - 73 * HOUR);
    await run();
    expect(reminders()).toEqual([]);
    clock.set(deadline - 72 * HOUR);
    await terminalSays("2026-12-10");
    await run();
    await run();
    expect(reminders().map((m) => m.subject)).toEqual([`Last free day in 3 days: ${reference}`]);
    expect(reminders()[0]!.text).toContain("ends in 3 days");
    expect(reminders()[0]!.text).toContain("Thursday, 10 December 2026 (given by the terminal)");
    clock.set(deadline - 24 * HOUR);
    await terminalSays("2026-12-10");
    await run();
    await run();
    expect(reminders().map((m) => m.subject)).toEqual([
      `Last free day in 3 days: ${reference}`,
      `Last free day tomorrow: ${reference}`,
    ]);
    expectPlainWords(reminders());
  });

  it("never sends a 72-hour reminder once its moment has passed (the reported 18-hours-before bug)", async () => {
    smtp.received.length = 0;
    // A new last free day first known 18 hours before it ends: only the 24-hour reminder fits.
    await terminalSays("2026-12-20");
    const deadline = deadlineOf("2026-12-20");
    clock.set(deadline - 18 * HOUR);
    await terminalSays("2026-12-20");
    await run();
    await run();
    expect(reminders().map((m) => m.subject)).toEqual([`Last free day tomorrow: ${reference}`]);
    expect(reminders()[0]!.text).toContain("ends in 18 hours");
  });

  it("drops a reminder that quiet hours would hold past its moment", async () => {
    smtp.received.length = 0;
    await graphql(app, org.key, UPDATE_PREFS, { input: {} });
    await graphql(
      app,
      org.key,
      `mutation { updateNotificationPreferences(input: { timeZone: "${ZONE}", quietHours: { start: "22:00", end: "07:00" } }) { timeZone } }`,
    );
    // The 72-hour window ends 48 hours before the deadline; the last free day is first known 49 hours
    // before it, at 02:00 in Los Angeles: quiet until 07:00, past the window. It is never sent.
    const lfd = "2027-01-08";
    const deadline = deadlineOf(lfd);
    const at = deadline - 49 * HOUR;
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: ZONE,
      hour: "2-digit",
      hourCycle: "h23",
    }).format(new Date(at));
    clock.set(at - (Number(local) - 2) * HOUR); // 02:00 there, about 49 hours before
    await terminalSays(lfd);
    await run();
    clock.set(clock.now().getTime() + 6 * HOUR); // 08:00 there: the quiet hours are over
    await terminalSays(lfd);
    await run();
    expect(reminders()).toEqual([]);
    const outbox = await graphql(app, org.key, "{ mailOutbox(first: 100) { kind status } }");
    expect(outbox.body.data!.mailOutbox).toContainEqual({ kind: "lfd_72h", status: "expired" });
  });

  it("drops a 72-hour reminder held by quiet hours once its window has passed, sending only the 24-hour one", async () => {
    smtp.received.length = 0;
    // Quiet hours 22:00-07:00 in Los Angeles (set above). The 72-hour reminder falls due at 02:00 there
    // and waits; the clock then jumps to 18 hours before the deadline (the reported run): the held
    // "3 days" mail is not sent late in the same pass as the 24-hour one.
    const lfd = "2027-01-20";
    const deadline = deadlineOf(lfd);
    const laHour = (t: number) =>
      Number(
        new Intl.DateTimeFormat("en-GB", { timeZone: ZONE, hour: "2-digit", hourCycle: "h23" }).format(
          new Date(t),
        ),
      );
    let at = deadline - 72 * HOUR;
    while (laHour(at) !== 2) at += 30 * 60_000;
    clock.set(at);
    await terminalSays(lfd);
    await run();
    expect(reminders()).toEqual([]);
    // About 18 hours before, outside the quiet hours so the 24-hour one goes at once.
    let later = deadline - 18 * HOUR;
    while (laHour(later) >= 22 || laHour(later) < 7) later += 30 * 60_000;
    clock.set(later);
    await terminalSays(lfd);
    await run();
    await run();
    expect(reminders().map((m) => m.subject)).toEqual([`Last free day tomorrow: ${reference}`]);
  });

  it("mails a hold when placed and when released, again when placed again, and pickup once no hold is left", async () => {
    smtp.received.length = 0;
    const laHour = (t: number) =>
      Number(
        new Intl.DateTimeFormat("en-GB", { timeZone: ZONE, hour: "2-digit", hourCycle: "h23" }).format(
          new Date(t),
        ),
      );
    let at = clock.now().getTime() + HOUR;
    // Each look at the terminal in the day in Los Angeles, outside the quiet hours set above.
    const look = async (holds: "customs"[], available = false) => {
      while (laHour(at) < 8 || laHour(at) > 20) at += 30 * 60_000;
      clock.set(at);
      await terminalSays("2027-03-01", holds, available);
      await run();
      at += 2 * HOUR;
    };
    await look(["customs"]);
    await look(["customs"]);
    await look([]);
    await look([]);
    await look(["customs"]);
    await look(["customs"]);
    await look([]);
    // Available while a hold is on is not available to the trucker: mailed once the hold is gone.
    await look(["customs"], true);
    await look([], true);
    await look([], true);
    const terminalMails = smtp.received
      .filter((m) => /^(Hold |Ready for pickup)/.test(m.subject))
      .map((m) => m.subject.replace(box, "BOX"));
    expect(terminalMails.slice(0, 5)).toEqual([
      "Hold placed on BOX: customs",
      "Hold released on BOX: customs",
      "Hold placed on BOX: customs",
      "Hold released on BOX: customs",
      "Hold placed on BOX: customs",
    ]);
    // The last release and the pickup are news of the same look: both, once.
    expect(terminalMails.slice(5).sort()).toEqual(["Hold released on BOX: customs", "Ready for pickup: BOX"]);
  });
});

describe("one disruption touching 50 followed shipments", () => {
  let app: TestApp;
  let smtp: SmtpReceiver;
  const clock = new ManualClock("2026-11-22T10:00:00Z");

  beforeAll(async () => {
    ({ app, smtp } = await startMailTestApp({ clock, env: { QUAYSIDE_PUBLIC_URL: PUBLIC_URL } }));
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it("sends one mail per person listing every shipment it touches", async () => {
    const org = await app.fixtures.organization();
    const mate = await app.fixtures.teammate(org.organizationId);
    // 50 touched at once, and two the disruption reaches later.
    const known = await boxes(app, {
      known: 52,
      start: 730_000,
    });
    const later = known.splice(50);
    // At most 50 per request, as the contract says: the two later ones in a request of their own.
    for (const batch of [known, later]) {
      const tracked = await fetch(`${app.url}/api/v1/track`, {
        method: "POST",
        headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
        body: JSON.stringify({
          shipments: batch.map((number) => ({ type: "container", number, sealine: "MSCU" })),
        }),
      });
      expect(tracked.status).toBe(200);
    }
    for (const number of [...known, ...later]) {
      await graphql(app, org.key, FOLLOW, { shipment: number });
      await graphql(app, mate.key, FOLLOW, { shipment: number });
    }
    const { prisma } = app.services.db;
    const all = await prisma.shipment.findMany({
      where: { organizationId: org.organizationId, deletedAt: null },
    });
    expect(all).toHaveLength(52);
    const shipments = all.filter((s) => known.includes(s.reference));
    expect(shipments).toHaveLength(50);
    clock.set(clock.now().getTime() + 60_000);
    // What the disruption pipeline stores: the event and its match to each shipment.
    await prisma.disruption.create({
      data: {
        id: "00000000-0000-4000-8000-00000000e050",
        category: "canal_closure",
        severity: 4,
        status: "active",
        ports: [],
        headline: "Suez Canal closed to traffic",
        summary: "A grounded vessel blocks the canal; ships wait at both ends.",
        firstSeen: clock.now(),
        lastUpdated: clock.now(),
        matches: {
          create: shipments.map((s) => ({
            shipmentId: s.id,
            organizationId: org.organizationId,
            matchTypes: ["lane_interest"],
            computedAt: clock.now(),
          })),
        },
      },
    });
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const mails = smtp.received.filter((m) => m.subject.startsWith("Suez Canal closed to traffic"));
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.to[0])).size).toBe(2);
    for (const mail of mails) {
      expect(mail.subject).toBe("Suez Canal closed to traffic: 50 of your shipments");
      for (const number of known) expect(mail.text).toContain(number);
      expect(mail.text).toContain("through its sea route");
    }
    expectPlainWords(mails);
    // Another pass sends nothing more.
    await drain(app.workers.notifications);
    expect(smtp.received.filter((m) => m.subject.startsWith("Suez Canal closed to traffic"))).toHaveLength(2);

    // The closure reaches two more followed shipments later (a refresh moved their routes through it):
    // one follow-up per person, after the batch window, listing only those two.
    const suez = (
      await prisma.disruption.findFirstOrThrow({ where: { headline: "Suez Canal closed to traffic" } })
    ).id;
    await prisma.shipmentDisruption.createMany({
      data: all
        .filter((s) => later.includes(s.reference))
        .map((s) => ({
          shipmentId: s.id,
          disruptionId: suez,
          organizationId: org.organizationId,
          matchTypes: ["lane_interest"],
          computedAt: clock.now(),
        })),
    });
    clock.advance(HOUR);
    await drain(app.workers.notifications);
    expect(smtp.received.filter((m) => m.subject.startsWith("Suez Canal closed to traffic"))).toHaveLength(2);
    clock.advance(6 * HOUR);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    const followUps = smtp.received
      .filter((m) => m.subject.startsWith("Suez Canal closed to traffic"))
      .slice(2);
    expect(followUps.map((m) => m.subject)).toEqual([
      "Suez Canal closed to traffic: 2 more of your shipments",
      "Suez Canal closed to traffic: 2 more of your shipments",
    ]);
    for (const mail of followUps) {
      expect(mail.text).toContain("It now also touches 2 more shipments you follow.");
      for (const number of later) expect(mail.text).toContain(number);
      for (const number of known) expect(mail.text).not.toContain(number);
    }
    expectPlainWords(followUps);
    clock.advance(7 * HOUR);
    await drain(app.workers.notifications);
    expect(smtp.received.filter((m) => m.subject.startsWith("Suez Canal closed to traffic"))).toHaveLength(4);
  }, 300_000);
});

describe("one last free day per container on every surface", () => {
  let app: TestApp;
  let org: OrgWithKey;
  const clock = new ManualClock("2026-11-22T10:00:00Z");

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      env: {
        QUAYSIDE_WORKERS: "off",
        QUAYSIDE_SIMULATOR: "embedded",
        QUAYSIDE_SIMULATOR_PORT: "0",
        QUAYSIDE_CARRIER_ATTEMPTS: "1",
        QUAYSIDE_PUBLIC_URL: PUBLIC_URL,
      },
    });
    org = await app.fixtures.organization({ plan: "professional" });
  }, 120_000);
  afterAll(() => app?.stop());

  // MCP's get_dnd_status and the dashboard read the same GraphQL fields (DndClockFields).
  it("shows the terminal's day with its source in v1 and GraphQL, and the tariff's before the terminal gives one", async () => {
    const known = await boxes(app, {
      known: 1,
      start: 740_000,
    });
    const reference = known[0]!;
    const read = async () => {
      const v1 = await fetch(`${app.url}/api/v1/shipments/${reference}`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(v1.status).toBe(200);
      const risk = (
        (await v1.json()) as {
          data: { demurrage_risk: { last_free_day: string | null; last_free_day_source: string | null } };
        }
      ).data.demurrage_risk;
      const gql = await graphql(
        app,
        org.key,
        `query($id: String!) { shipmentDnd(id: $id) { ... on ShipmentDnd { containers { container demurrage { lastFreeDay lastFreeDaySource } } } } }`,
        { id: reference },
      );
      const boxes = (
        gql.body.data!.shipmentDnd as {
          containers: {
            container: string;
            demurrage: { lastFreeDay: string | null; lastFreeDaySource: string | null };
          }[];
        }
      ).containers;
      return { risk, boxes };
    };
    const track = await fetch(`${app.url}/api/v1/container/${reference}?sealine=MSCU`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(track.status).toBe(200);
    const before = await read();
    expect(before.boxes).toHaveLength(1);
    const box = before.boxes[0]!.container;
    if (before.risk.last_free_day !== null) {
      expect(before.risk).toMatchObject({ last_free_day_source: "tariff" });
      expect(before.boxes[0]!.demurrage).toEqual({
        lastFreeDay: before.risk.last_free_day,
        lastFreeDaySource: "tariff",
      });
    }

    // The terminal gives its own day: it is the one day everywhere, with its source.
    const now = clock.now();
    const answer = {
      observedAt: now.toISOString(),
      availableForPickup: true,
      holds: [],
      lastFreeDayLine: null,
      lastFreeDayTerminal: "2026-11-24",
      yardLocation: null,
      dischargedAt: null,
      gateOutAt: null,
      events: [],
    };
    await app.services.db.prisma.terminalRecord.create({
      data: {
        containerNumber: box,
        terminalCode: "TESTT",
        terminalName: "Test terminal",
        requestedAt: now,
        answer,
        answeredAt: now,
      },
    });
    const after = await read();
    expect(after.risk).toMatchObject({ last_free_day: "2026-11-24", last_free_day_source: "terminal" });
    expect(after.boxes[0]!.demurrage).toEqual({ lastFreeDay: "2026-11-24", lastFreeDaySource: "terminal" });
    const terminal = await fetch(`${app.url}/api/v1/shipments/${reference}?include=full`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(JSON.stringify(await terminal.json())).not.toMatch(
      /"last_free_day":"(?!2026-11-24)\d{4}-\d{2}-\d{2}"/,
    );

    // And the reminder the mail would send counts down to the same day.
    const days = await (
      app.services.notifications as unknown as {
        deps: {
          lastFreeDays: (s: {
            id: string;
            organizationId: string;
          }) => Promise<{ lastFreeDay: string; source: string }[]>;
        };
      }
    ).deps.lastFreeDays({
      id: (await app.services.db.prisma.shipment.findFirstOrThrow({ where: { reference } })).id,
      organizationId: org.organizationId,
    });
    expect(days).toEqual([
      expect.objectContaining({ container: box, lastFreeDay: "2026-11-24", source: "given by the terminal" }),
    ]);
  }, 120_000);
});
