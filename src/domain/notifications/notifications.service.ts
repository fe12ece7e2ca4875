import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient, User } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../observability/logger";
import { shipmentName, shipmentNumberOf } from "../shipments/shipment-id";
import type { DomainEvent } from "../webhooks/events";
import { type BoxLastFreeDay, lastFreeDayDeadline } from "./last-free-day";
import { lastWallTime, localDate, quietHoursEnd } from "./local-time";
import type { MailTransport } from "./mail-transport";
import {
  type ChangeData,
  changeMail,
  digestMail,
  disruptionMail,
  lastFreeDayMail,
  type MailKind,
} from "./messages";
import {
  DIGEST_HOUR,
  LFD_REMINDER_HOURS,
  type NotificationPrefs,
  type PreferencesUpdate,
  prefsOf,
} from "./preferences";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
type Db = Tx | PrismaClient;

/** A claimed message is this sender's for this long; a crash's claims are sent again after it. */
export const MAIL_LEASE_MS = 5 * 60_000;
/** Attempts per message (the first included), 1, 2, 4 ... minutes apart, capped at an hour. */
export const MAIL_MAX_ATTEMPTS = 10;
const SHIPMENT_EVENTS = new Set([
  "shipment.updated",
  "shipment.arrived",
  "shipment.vessel_arrived",
  "eta.changed",
]);

export function mailRetryDelayMs(attempts: number): number {
  return Math.min(3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/** A mail to send: the `enqueueMail` input other features (invitations) use too. */
export interface MailRequest {
  organizationId: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** The recipient user, when it is one: their quiet hours then apply. */
  userId?: string | null;
  kind?: MailKind;
  /** One message per key, ever; a random one when absent (every call sends). */
  dedupeKey?: string;
  shipmentId?: string | null;
  notBefore?: Date;
}

/** Which mail a change makes for a user who follows the shipment, or null when none. */
export function mailKindFor(event: string, data: ChangeData, prefs: NotificationPrefs): MailKind | null {
  if (!prefs.emailEnabled) return null;
  switch (event) {
    case "eta.changed": {
      if (!prefs.etaChanges) return null;
      if (!data.previous_eta || !data.eta) return null;
      const movedMs = Math.abs(Date.parse(data.eta) - Date.parse(data.previous_eta));
      return movedMs >= prefs.etaChangeMinHours * 3_600_000 ? "eta_changed" : null;
    }
    case "shipment.vessel_arrived":
      return prefs.vesselArrival ? "vessel_arrived" : null;
    case "shipment.arrived":
      return prefs.statusChanges ? "delivered" : null;
    case "shipment.updated":
      return prefs.statusChanges ? "status_changed" : null;
    default:
      return null;
  }
}

/**
 * E-mail notifications (issue 22 item 2): preferences per user, followers per shipment, and the
 * mail queue. Changes arrive through the webhook change stream, in the transaction that changed the
 * shipment, so a mail exists if and only if the change does; mails are sent by background work,
 * at least once, one per de-duplication key, never during the recipient's quiet hours.
 */
export class NotificationsService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      transport: MailTransport;
      /** The `From` of every mail. */
      from: string;
      /** A box's last free day from its terminal record's current facts (null: none known). */
      boxLastFreeDay?: (containerNumber: string) => Promise<BoxLastFreeDay | null>;
    },
  ) {}

  get transportKind(): MailTransport["kind"] {
    return this.deps.transport.kind;
  }

  async preferences(userId: string): Promise<NotificationPrefs> {
    return prefsOf(await this.deps.prisma.notificationPreference.findUnique({ where: { userId } }));
  }

  async updatePreferences(user: Pick<User, "id" | "organizationId">, update: PreferencesUpdate) {
    const { quietHours, ...rest } = update;
    const quiet =
      quietHours === undefined
        ? {}
        : { quietHoursStart: quietHours?.start ?? null, quietHoursEnd: quietHours?.end ?? null };
    const now = this.deps.clock.now();
    const row = await this.deps.prisma.notificationPreference.upsert({
      where: { userId: user.id },
      create: { userId: user.id, organizationId: user.organizationId, ...rest, ...quiet, updatedAt: now },
      update: { ...rest, ...quiet, updatedAt: now },
    });
    return prefsOf(row);
  }

  /** The user follows a live shipment of their own organisation; false when either is not theirs. */
  async follow(organizationId: string, shipmentId: string, userId: string): Promise<boolean> {
    const { prisma, clock } = this.deps;
    const [shipment, user] = await Promise.all([
      prisma.shipment.findFirst({ where: { id: shipmentId, organizationId, deletedAt: null } }),
      prisma.user.findFirst({ where: { id: userId, organizationId } }),
    ]);
    if (!shipment || !user) return false;
    await prisma.shipmentFollower.upsert({
      where: { shipmentId_userId: { shipmentId, userId } },
      create: { shipmentId, userId, organizationId, createdAt: clock.now() },
      update: {},
    });
    return true;
  }

  /**
   * The user no longer follows the shipment; false when the user is not of the organisation, so an
   * unfollow answers another organisation's user exactly as a follow does (not found), never as a
   * user who simply follows nothing.
   */
  async unfollow(organizationId: string, shipmentId: string, userId: string): Promise<boolean> {
    const { prisma } = this.deps;
    if (!(await prisma.user.findFirst({ where: { id: userId, organizationId }, select: { id: true } }))) {
      return false;
    }
    await prisma.shipmentFollower.deleteMany({ where: { organizationId, shipmentId, userId } });
    return true;
  }

  async followedCount(userId: string): Promise<number> {
    return this.deps.prisma.shipmentFollower.count({
      where: { userId, shipment: { deletedAt: null } },
    });
  }

  /**
   * The change stream's listener (`WebhooksService.enqueue`, inside the shipment's transaction):
   * every shipment change of a followed shipment is kept for the digest, and each follower whose
   * preferences ask for it gets one mail, keyed by user and change.
   */
  async recordChanges(tx: Tx, organizationId: string, events: DomainEvent[]): Promise<void> {
    const relevant = events.filter((e) => SHIPMENT_EVENTS.has(e.event));
    if (relevant.length === 0) return;
    const now = this.deps.clock.now();
    const numbers = [
      ...new Set(relevant.map((e) => shipmentNumberOf(String(e.data.shipment_id))).filter((n) => n !== null)),
    ];
    const shipments = await tx.shipment.findMany({
      where: { organizationId, number: { in: numbers }, followers: { some: {} } },
      select: { id: true, number: true, followers: { select: { userId: true } } },
    });
    if (shipments.length === 0) return;
    const userIds = [...new Set(shipments.flatMap((s) => s.followers.map((f) => f.userId)))];
    const [users, prefRows] = await Promise.all([
      tx.user.findMany({ where: { id: { in: userIds }, organizationId } }),
      tx.notificationPreference.findMany({ where: { userId: { in: userIds } } }),
    ]);
    const prefs = new Map(prefRows.map((p) => [p.userId, prefsOf(p)]));
    const byName = new Map(shipments.map((s) => [shipmentName(s.number), s]));
    for (const event of relevant) {
      const data = event.data as unknown as ChangeData;
      const shipment = byName.get(String(data.shipment_id));
      if (!shipment) continue;
      const changeId = randomUUID();
      await tx.shipmentChange.create({
        data: {
          id: changeId,
          organizationId,
          shipmentId: shipment.id,
          event: event.event,
          data: event.data as Prisma.InputJsonValue,
          createdAt: now,
        },
      });
      for (const { userId } of shipment.followers) {
        const user = users.find((u) => u.id === userId);
        const pref = prefs.get(userId) ?? prefsOf(null);
        const kind = user ? mailKindFor(event.event, data, pref) : null;
        if (!user || !kind) continue;
        const mail = changeMail(kind, event.event, data, pref.timeZone);
        await this.enqueueIn(
          tx,
          {
            organizationId,
            to: user.email,
            userId,
            kind,
            shipmentId: shipment.id,
            dedupeKey: `${kind}:${userId}:${changeId}`,
            ...mail,
          },
          pref,
        );
      }
    }
  }

  /**
   * Queues one mail (invitations and other features use this too). With a `userId`, the recipient's
   * quiet hours defer it; with a `dedupeKey` already used, nothing is queued and false is answered.
   */
  async enqueueMail(request: MailRequest, db: Db = this.deps.prisma): Promise<boolean> {
    const pref = request.userId ? await this.preferencesIn(db, request.userId) : null;
    return this.enqueueIn(db, request, pref);
  }

  private async preferencesIn(db: Db, userId: string) {
    return prefsOf(await db.notificationPreference.findUnique({ where: { userId } }));
  }

  private async enqueueIn(db: Db, request: MailRequest, pref: NotificationPrefs | null): Promise<boolean> {
    const now = this.deps.clock.now();
    const notBefore = request.notBefore && request.notBefore > now ? request.notBefore : now;
    const quietEnd = pref ? quietHoursEnd(notBefore, pref.timeZone, pref.quietHours) : null;
    const { count } = await db.mailMessage.createMany({
      data: [
        {
          id: randomUUID(),
          organizationId: request.organizationId,
          userId: request.userId ?? null,
          dedupeKey: request.dedupeKey ?? `${request.kind ?? "mail"}:${randomUUID()}`,
          kind: request.kind ?? "mail",
          toAddress: request.to,
          subject: request.subject,
          text: request.text,
          html: request.html ?? null,
          shipmentId: request.shipmentId ?? null,
          nextAttemptAt: quietEnd ?? notBefore,
          createdAt: now,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  /** The earliest last-free-day deadline of a shipment's boxes still at the terminal. */
  private async lastFreeDayOf(summary: unknown): Promise<Date | null> {
    const lookup = this.deps.boxLastFreeDay;
    const boxes = (summary as { containerNumbers?: unknown } | null)?.containerNumbers;
    if (!lookup || !Array.isArray(boxes)) return null;
    const known = await Promise.all(boxes.filter((b): b is string => typeof b === "string").map(lookup));
    return lastFreeDayDeadline(known.filter((b): b is BoxLastFreeDay => b !== null));
  }

  /** Reminders 72 and 24 hours before a followed shipment's last free day (when one is known). */
  async scanLastFreeDays(): Promise<number> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const follows = await prisma.shipmentFollower.findMany({
      where: { shipment: { deletedAt: null, status: { notIn: ["DELIVERED", "CANCELLED"] } } },
      select: {
        userId: true,
        organizationId: true,
        shipment: { select: { id: true, number: true, reference: true, summary: true } },
      },
    });
    let queued = 0;
    for (const follow of follows) {
      const lfd = await this.lastFreeDayOf(follow.shipment.summary);
      if (!lfd || lfd <= now) continue;
      const hours = LFD_REMINDER_HOURS.filter((h) => now.getTime() >= lfd.getTime() - h * 3_600_000);
      // Only the nearest reminder due: a follow made 20 hours before gets the 24-hour one alone.
      const due = hours.at(-1);
      if (due === undefined) continue;
      const pref = await this.preferencesIn(prisma, follow.userId);
      if (!pref.emailEnabled || !pref.lastFreeDayReminders) continue;
      const user = await prisma.user.findUnique({ where: { id: follow.userId } });
      if (!user) continue;
      const kind = due === 72 ? "lfd_72h" : "lfd_24h";
      const mail = lastFreeDayMail(
        due,
        { name: shipmentName(follow.shipment.number), reference: follow.shipment.reference },
        lfd,
        pref.timeZone,
      );
      const added = await this.enqueueIn(
        prisma,
        {
          organizationId: follow.organizationId,
          to: user.email,
          userId: user.id,
          kind,
          shipmentId: follow.shipment.id,
          dedupeKey: `${kind}:${user.id}:${follow.shipment.id}:${lfd.toISOString()}`,
          ...mail,
        },
        pref,
      );
      if (added) queued++;
    }
    return queued;
  }

  /**
   * A disruption first seen after the user began following a shipment it touches: one mail per user,
   * shipment and disruption.
   */
  async scanDisruptions(limit = 200): Promise<number> {
    const { prisma } = this.deps;
    const rows = await prisma.$queryRaw<
      {
        user_id: string;
        email: string;
        organization_id: string;
        shipment_id: string;
        number: bigint;
        reference: string;
        disruption_id: string;
        headline: string;
        severity: number;
        category: string;
        match_types: string[];
        time_zone: string | null;
      }[]
    >`
      SELECT f.user_id, u.email, f.organization_id, s.id AS shipment_id, s.number, s.reference,
             d.id AS disruption_id, d.headline, d.severity, d.category, m.match_types, p.time_zone
        FROM shipment_followers f
        JOIN users u ON u.id = f.user_id
        JOIN shipments s ON s.id = f.shipment_id AND s.deleted_at IS NULL
        JOIN shipment_disruptions m ON m.shipment_id = f.shipment_id
        JOIN disruptions d ON d.id = m.disruption_id AND d.status = 'active' AND d.first_seen >= f.created_at
        LEFT JOIN notification_preferences p ON p.user_id = f.user_id
       WHERE coalesce(p.email_enabled, true) AND coalesce(p.disruptions, true)
         AND NOT EXISTS (SELECT 1 FROM mail_messages mm
                          WHERE mm.dedupe_key = 'disruption:' || f.user_id || ':' || s.id || ':' || d.id)
       LIMIT ${limit}`;
    for (const row of rows) {
      const pref = await this.preferencesIn(prisma, row.user_id);
      const mail = disruptionMail(
        { name: shipmentName(row.number), reference: row.reference },
        {
          id: row.disruption_id,
          headline: row.headline,
          severity: row.severity,
          category: row.category,
          matchTypes: row.match_types,
        },
      );
      await this.enqueueIn(
        prisma,
        {
          organizationId: row.organization_id,
          to: row.email,
          userId: row.user_id,
          kind: "disruption",
          shipmentId: row.shipment_id,
          dedupeKey: `disruption:${row.user_id}:${row.shipment_id}:${row.disruption_id}`,
          ...mail,
        },
        pref,
      );
    }
    return rows.length;
  }

  /**
   * The daily digest: at 08:00 in each subscriber's zone, the changes of the shipments they follow in
   * the 24 hours before, one mail per user and local day; none on a day without changes.
   */
  async scanDigests(): Promise<number> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const subscribers = await prisma.notificationPreference.findMany({
      where: { dailyDigest: true, emailEnabled: true },
    });
    let queued = 0;
    for (const row of subscribers) {
      const pref = prefsOf(row);
      const at = lastWallTime(now, pref.timeZone, DIGEST_HOUR * 60);
      const day = localDate(at, pref.timeZone);
      const dedupeKey = `digest:${row.userId}:${day}`;
      if (await prisma.mailMessage.findUnique({ where: { dedupeKey }, select: { id: true } })) continue;
      const changes = await prisma.shipmentChange.findMany({
        where: {
          organizationId: row.organizationId,
          createdAt: { gte: new Date(at.getTime() - 86_400_000), lt: at },
          shipmentId: {
            in: (
              await prisma.shipmentFollower.findMany({
                where: { userId: row.userId },
                select: { shipmentId: true },
              })
            ).map((f) => f.shipmentId),
          },
        },
        orderBy: { createdAt: "asc" },
      });
      if (changes.length === 0) continue;
      const user = await prisma.user.findUnique({ where: { id: row.userId } });
      if (!user) continue;
      const mail = digestMail(
        day,
        changes.map((c) => ({ event: c.event, data: c.data as unknown as ChangeData, at: c.createdAt })),
        pref.timeZone,
      );
      if (
        await this.enqueueIn(
          prisma,
          {
            organizationId: row.organizationId,
            to: user.email,
            userId: user.id,
            kind: "digest",
            dedupeKey,
            ...mail,
          },
          pref,
        )
      )
        queued++;
    }
    return queued;
  }

  /**
   * Sends up to `limit` due mails: claimed under `FOR UPDATE SKIP LOCKED` with a lease (every process
   * may run this), sent, then marked. A crash between sending and marking sends again after the lease
   * (at least once); receivers may de-duplicate on `X-Quayside-Notification`. A mail whose recipient
   * is now in quiet hours waits for their end without spending an attempt.
   */
  async sendDue(limit = 25): Promise<number> {
    const { prisma, clock, transport, logger } = this.deps;
    const now = clock.now();
    const token = randomUUID();
    const claimed = await prisma.$queryRaw<
      {
        id: string;
        user_id: string | null;
        dedupe_key: string;
        to_address: string;
        subject: string;
        text: string;
        html: string | null;
        attempts: number;
      }[]
    >`
      UPDATE mail_messages m SET leased_until = ${new Date(now.getTime() + MAIL_LEASE_MS)}, lease_token = ${token}
        FROM (SELECT id FROM mail_messages
               WHERE status = 'pending' AND next_attempt_at <= ${now}
                 AND (leased_until IS NULL OR leased_until <= ${now})
               ORDER BY next_attempt_at, created_at
               LIMIT ${limit}
               FOR UPDATE SKIP LOCKED) due
       WHERE m.id = due.id
      RETURNING m.id, m.user_id, m.dedupe_key, m.to_address, m.subject, m.text, m.html, m.attempts`;
    for (const mail of claimed) {
      const mine = { id: mail.id, leaseToken: token };
      const pref = mail.user_id ? await this.preferencesIn(prisma, mail.user_id) : null;
      if (pref && !pref.emailEnabled) {
        await prisma.mailMessage.updateMany({
          where: mine,
          data: {
            status: "cancelled",
            leasedUntil: null,
            leaseToken: null,
            lastError: "e-mail switched off",
          },
        });
        continue;
      }
      const quietEnd = pref ? quietHoursEnd(clock.now(), pref.timeZone, pref.quietHours) : null;
      if (quietEnd) {
        await prisma.mailMessage.updateMany({
          where: mine,
          data: { nextAttemptAt: quietEnd, leasedUntil: null, leaseToken: null },
        });
        continue;
      }
      const attempts = mail.attempts + 1;
      try {
        const { messageId } = await transport.send({
          from: this.deps.from,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          dedupeKey: mail.dedupe_key,
        });
        await prisma.mailMessage.updateMany({
          where: mine,
          data: {
            status: "sent",
            attempts,
            sentAt: clock.now(),
            transport: transport.kind,
            messageId,
            lastError: null,
            leasedUntil: null,
            leaseToken: null,
          },
        });
      } catch (error) {
        const failed = attempts >= MAIL_MAX_ATTEMPTS;
        logger.warn({ err: error, mailId: mail.id, attempts }, "mail not accepted; retrying later");
        await prisma.mailMessage.updateMany({
          where: mine,
          data: {
            status: failed ? "failed" : "pending",
            attempts,
            lastError: error instanceof Error ? error.message.slice(0, 500) : "send failed",
            nextAttemptAt: new Date(clock.now().getTime() + mailRetryDelayMs(attempts)),
            leasedUntil: null,
            leaseToken: null,
          },
        });
      }
    }
    return claimed.length;
  }

  /** One pass of the background work: scans that queue mail, then sending. */
  async tick(batch: number): Promise<{ full: boolean }> {
    await this.scanDisruptions();
    await this.scanLastFreeDays();
    await this.scanDigests();
    return { full: (await this.sendDue(batch)) === batch };
  }

  /** The organisation's mail, newest first: what the dashboard shows as the outbox. */
  outbox(organizationId: string, first: number) {
    return this.deps.prisma.mailMessage.findMany({
      where: { organizationId },
      orderBy: { createdAt: "desc" },
      take: first,
    });
  }

  close(): Promise<void> {
    return this.deps.transport.close?.() ?? Promise.resolve();
  }
}
