import { randomUUID } from "node:crypto";
import type { MailSuppression, Prisma, PrismaClient, User } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { Logger } from "../../observability/logger";
import { shipmentName, shipmentNumberOf } from "../shipments/shipment-id";
import type { TerminalFacts } from "../terminals/terminal-facts";
import type { DomainEvent } from "../webhooks/events";
import { type BoxLastFreeDay, keptFreeTimeMayRemind, lastFreeDayDeadline } from "./last-free-day";
import { lastWallTime, localDate, quietHoursEnd } from "./local-time";
import { type MailFeedback, readMailFeedback, suppressionAddress } from "./mail-feedback";
import { MailRecipientRefused, type MailTransport } from "./mail-transport";
import {
  type ChangeData,
  type ComposedMail,
  changeMail,
  digestMail,
  disruptionMail,
  lastFreeDayMail,
  type MailKind,
  type MailShipment,
  type MailTopic,
  momentMail,
  TOPIC_OF_KIND,
} from "./messages";
import { holdWords, MOMENT_FRESH_MS, sailingMoments, terminalMoments } from "./moments";
import {
  DIGEST_HOUR,
  LFD_REMINDER_HOURS,
  LFD_REMINDER_WINDOW_HOURS,
  maskAddress,
  type NotificationPrefs,
  type PreferencesUpdate,
  prefsOf,
} from "./preferences";
import {
  linksFor,
  type MailUrls,
  placeOf,
  type ShipmentForMail,
  shipmentForMail,
  unsubscribeUrl,
} from "./shipment-context";
import {
  mailSigningSecret,
  signUnsubscribe,
  topicWords,
  type UnsubscribeTopic,
  verifyUnsubscribe,
} from "./unsubscribe";

import { audienceOf, type WorkspaceEvent, workspaceEventMail } from "./workspace-mail";

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

/** Shipments a disruption reaches after its first mail are gathered this long into one follow-up. */
export const DISRUPTION_FOLLOW_UP_MS = 6 * 3_600_000;

/** A quote's customer is reminded this long before it expires (once). */
export const QUOTE_REMINDER_MS = 48 * 3_600_000;

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
  /** Not after this: dropped unsent once passed (a reminder whose moment is gone). */
  expiresAt?: Date;
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
      // Departure and arrival have their own mails (and preferences); a status mail is for the rest.
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
      /** Seals the unsubscribe links' signing key at rest. */
      secrets: SecretBox;
      /** The `From` of every mail. */
      from: string;
      /** The deployment's public URL: every link in mail starts with it. */
      publicUrl?: string;
      /**
       * The last free days of a shipment's boxes, one per box (the terminal's when it gives one, else
       * the tariff's computed day): `src/domain/demurrage/last-free-day.ts` through the composition root.
       */
      lastFreeDays?: (shipment: { id: string; organizationId: string }) => Promise<BoxLastFreeDay[]>;
      /** A box's current terminal facts (pickup availability, holds); null when none are current. */
      terminalFacts?: (
        containerNumber: string,
      ) => Promise<{ facts: TerminalFacts; terminal: { name: string; unLocode: string | null } } | null>;
    },
  ) {}

  private secret: string | null = null;

  private get base(): string {
    return (this.deps.publicUrl ?? "http://localhost:3000").replace(/\/$/, "");
  }

  /** Links in mail: the public URL, and the signing key read (or made) once, inside `db`'s transaction. */
  private urls(db: Db): MailUrls {
    return {
      base: this.base,
      secret: async () => {
        this.secret ??= await mailSigningSecret({
          prisma: db,
          now: this.deps.clock.now(),
          secrets: this.deps.secrets,
        });
        return this.secret;
      },
    };
  }

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
    const urls = this.urls(tx);
    const contexts = new Map<string, ShipmentForMail | null>();
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
        if (!contexts.has(shipment.id))
          contexts.set(shipment.id, await shipmentForMail(tx, this.base, shipment.id));
        const context = contexts.get(shipment.id);
        if (!context) continue;
        const mail = changeMail(kind, {
          data,
          shipment: context.shipment,
          zone: pref.timeZone,
          links: await linksFor(urls, userId, kind),
        });
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
    // Held past its moment (quiet hours reach beyond it): kept as expired, so the key is spent and it
    // is never sent late.
    const expired = request.expiresAt !== undefined && (quietEnd ?? notBefore) >= request.expiresAt;
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
          expiresAt: request.expiresAt ?? null,
          ...(expired ? { status: "expired", lastError: "its moment passes during quiet hours" } : {}),
          createdAt: now,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1 && !expired;
  }

  /** Reminders 72 and 24 hours before a followed shipment's last free day, each in its window or never. */
  async scanLastFreeDays(): Promise<number> {
    const { prisma, clock } = this.deps;
    const lookup = this.deps.lastFreeDays;
    if (!lookup) return 0;
    const now = clock.now();
    const follows = await this.liveFollows();
    const urls = this.urls(prisma);
    let queued = 0;
    for (const follow of follows) {
      // Assessed only where the kept free time leaves a reminder possible: every followed shipment
      // assessed on every pass was most of the notification worker's statements.
      if (!keptFreeTimeMayRemind(follow.shipment, now)) continue;
      const deadline = lastFreeDayDeadline(await lookup(follow.shipment));
      if (!deadline || deadline.endsAt <= now) continue;
      // Each reminder has a window from its moment: outside it, it is not sent (late is worse than none).
      const due = LFD_REMINDER_HOURS.find((h) => {
        const from = deadline.endsAt.getTime() - h * 3_600_000;
        return now.getTime() >= from && now.getTime() < from + LFD_REMINDER_WINDOW_HOURS[h] * 3_600_000;
      });
      if (due === undefined) continue;
      const { pref, user } = follow;
      if (!pref.emailEnabled || !pref.lastFreeDayReminders) continue;
      const kind = due === 72 ? "lfd_72h" : "lfd_24h";
      const context = await shipmentForMail(prisma, this.base, follow.shipment.id);
      if (!context) continue;
      const { box } = deadline;
      const mail = lastFreeDayMail(due, {
        shipment: context.shipment,
        due: {
          container: box.container,
          lastFreeDay: box.lastFreeDay,
          source: box.source,
          endsAt: deadline.endsAt,
          now,
        },
        zone: pref.timeZone,
        links: await linksFor(urls, user.id, kind),
      });
      const windowEnd = new Date(
        deadline.endsAt.getTime() - due * 3_600_000 + LFD_REMINDER_WINDOW_HOURS[due] * 3_600_000,
      );
      const added = await this.enqueueIn(
        prisma,
        {
          organizationId: follow.organizationId,
          to: user.email,
          userId: user.id,
          kind,
          shipmentId: follow.shipment.id,
          dedupeKey: `${kind}:${user.id}:${follow.shipment.id}:${box.container}:${box.lastFreeDay}`,
          expiresAt: windowEnd,
          ...mail,
        },
        pref,
      );
      if (added) queued++;
    }
    return queued;
  }

  /** Follows of live shipments (not delivered, cancelled or deleted), with each follower and their choices. */
  private async liveFollows() {
    const { prisma } = this.deps;
    const rows = await prisma.shipmentFollower.findMany({
      where: { shipment: { deletedAt: null, status: { notIn: ["DELIVERED", "CANCELLED"] } } },
      select: {
        userId: true,
        organizationId: true,
        createdAt: true,
        shipment: {
          select: { id: true, organizationId: true, summary: true, freeTime: true, freeTimeAt: true },
        },
      },
    });
    const userIds = [...new Set(rows.map((r) => r.userId))];
    const [users, prefRows] = await Promise.all([
      prisma.user.findMany({ where: { id: { in: userIds } } }),
      prisma.notificationPreference.findMany({ where: { userId: { in: userIds } } }),
    ]);
    const byId = new Map(users.map((u) => [u.id, u]));
    const prefs = new Map(prefRows.map((p) => [p.userId, prefsOf(p)]));
    return rows.flatMap((row) => {
      const user = byId.get(row.userId);
      return user ? [{ ...row, user, pref: prefs.get(row.userId) ?? prefsOf(null) }] : [];
    });
  }

  /**
   * The moments read from a followed shipment's document and its boxes' terminal facts: the vessel
   * sails from the port of loading, a transshipment, a box available for pickup, a hold placed or
   * released. Each once per follower (keyed by place, box and hold), only after the follow began and
   * while still news (`MOMENT_FRESH_MS`).
   */
  async scanMoments(): Promise<number> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const follows = await this.liveFollows();
    const urls = this.urls(prisma);
    const contexts = new Map<string, ShipmentForMail | null>();
    const facts = new Map<string, Awaited<ReturnType<NonNullable<typeof this.deps.terminalFacts>>>>();
    let queued = 0;
    for (const follow of follows) {
      const { pref, user } = follow;
      if (!pref.emailEnabled || (!pref.vesselDeparture && !pref.terminalUpdates)) continue;
      const id = follow.shipment.id;
      if (!contexts.has(id)) contexts.set(id, await shipmentForMail(prisma, this.base, id));
      const context = contexts.get(id);
      if (!context?.document) continue;
      const send = async (kind: MailKind, key: string, mail: ComposedMail, expiresAt: Date) => {
        const added = await this.enqueueIn(
          prisma,
          {
            organizationId: follow.organizationId,
            to: user.email,
            userId: user.id,
            kind,
            shipmentId: id,
            dedupeKey: `${kind}:${user.id}:${id}:${key}`,
            expiresAt,
            ...mail,
          },
          pref,
        );
        if (added) queued++;
      };
      if (pref.vesselDeparture) {
        for (const moment of sailingMoments(context.document)) {
          const at = Date.parse(moment.at);
          if (at < follow.createdAt.getTime() || now.getTime() - at > MOMENT_FRESH_MS) continue;
          const links = await linksFor(urls, user.id, moment.kind);
          await send(
            moment.kind,
            moment.key,
            momentMail(moment, context.shipment, pref.timeZone, links),
            new Date(at + MOMENT_FRESH_MS),
          );
        }
      }
      const lookup = this.deps.terminalFacts;
      if (!pref.terminalUpdates || !lookup) continue;
      for (const container of context.document.containers.map((c) => c.number)) {
        if (!facts.has(container)) facts.set(container, await lookup(container));
        const current = facts.get(container);
        if (!current) continue;
        const seen = terminalMoments(current.facts);
        const place = placeOf(
          current.terminal.unLocode
            ? {
                key: "",
                unLocode: current.terminal.unLocode,
                name: "",
                state: null,
                country: null,
                countryCode: null,
                lat: null,
                lng: null,
                timeZone: null,
              }
            : null,
        );
        const base = { at: seen.at, place, container, terminal: current.terminal.name };
        const expires = new Date(now.getTime() + MOMENT_FRESH_MS);
        const mailOf = async (
          kind: "available_for_pickup" | "hold_placed" | "hold_released",
          hold: string | null,
        ) =>
          momentMail(
            { ...base, kind, hold: hold ? holdWords(hold) : null },
            context.shipment,
            pref.timeZone,
            await linksFor(urls, user.id, kind),
          );
        // Each placing and each release of a hold is mailed once: the n-th placing of a hold is keyed
        // `<hold>:<n>` (the first plain `<hold>`), so a hold placed again after its release is news again.
        const told = await prisma.mailMessage.findMany({
          where: {
            OR: ["hold_placed", "hold_released"].map((kind) => ({
              dedupeKey: { startsWith: `${kind}:${user.id}:${id}:${container}:` },
            })),
          },
          select: { dedupeKey: true },
        });
        const count = (kind: string, hold: string) =>
          told.filter((t) => {
            const [k, , , , h] = t.dedupeKey.split(":");
            return k === kind && h === hold;
          }).length;
        const nth = (hold: string, n: number) =>
          n <= 1 ? `${container}:${hold}` : `${container}:${hold}:${n}`;
        const holdsTold = new Set(
          told.filter((t) => t.dedupeKey.startsWith("hold_placed:")).map((t) => t.dedupeKey.split(":")[4]!),
        );
        for (const hold of seen.holds) {
          const placed = count("hold_placed", hold);
          if (placed > count("hold_released", hold)) continue;
          await send("hold_placed", nth(hold, placed + 1), await mailOf("hold_placed", hold), expires);
        }
        // A hold this follower was told about and the terminal no longer lists: released.
        for (const hold of holdsTold) {
          if (seen.holds.includes(hold)) continue;
          const placed = count("hold_placed", hold);
          if (count("hold_released", hold) >= placed) continue;
          await send("hold_released", nth(hold, placed), await mailOf("hold_released", hold), expires);
        }
        // After the releases, so the last hold's release reads before "ready for pickup".
        if (seen.available && seen.holds.length === 0) {
          await send("available_for_pickup", container, await mailOf("available_for_pickup", null), expires);
        }
      }
    }
    return queued;
  }

  /**
   * A disruption first seen after the user began following shipments it touches: ONE mail per user
   * and disruption, listing every followed shipment it touches (a closure touching 50 followed boxes
   * is one mail, not 50). Shipments it reaches later (a refresh moves a route through it, a box is
   * followed that it already touches) come in one follow-up mail per batch, at most every
   * `DISRUPTION_FOLLOW_UP_MS`, listing only those; `disruption_notices` keeps who was told of which.
   */
  async scanDisruptions(limit = 50): Promise<number> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const pairs = await prisma.$queryRaw<{ user_id: string; disruption_id: string }[]>`
      SELECT DISTINCT f.user_id, d.id AS disruption_id
        FROM shipment_followers f
        JOIN shipments s ON s.id = f.shipment_id AND s.deleted_at IS NULL
        JOIN shipment_disruptions m ON m.shipment_id = f.shipment_id
        JOIN disruptions d ON d.id = m.disruption_id AND d.status = 'active' AND d.first_seen >= f.created_at
        LEFT JOIN notification_preferences p ON p.user_id = f.user_id
       WHERE coalesce(p.email_enabled, true) AND coalesce(p.disruptions, true)
         AND NOT EXISTS (SELECT 1 FROM disruption_notices n
                          WHERE n.user_id = f.user_id AND n.disruption_id = d.id AND n.shipment_id = s.id)
         -- Mailed per shipment before grouping: not again.
         AND NOT EXISTS (SELECT 1 FROM mail_messages mm
                          WHERE mm.dedupe_key = 'disruption:' || f.user_id || ':' || s.id || ':' || d.id)
         -- A follow-up waits for the batch: not within DISRUPTION_FOLLOW_UP_MS of the last mail.
         AND NOT EXISTS (SELECT 1 FROM disruption_notices n
                          WHERE n.user_id = f.user_id AND n.disruption_id = d.id
                            AND n.mailed_at > ${new Date(now.getTime() - DISRUPTION_FOLLOW_UP_MS)})
       LIMIT ${limit}`;
    const urls = this.urls(prisma);
    const contexts = new Map<string, ShipmentForMail | null>();
    for (const pair of pairs) {
      const rows = await prisma.$queryRaw<
        {
          email: string;
          organization_id: string;
          shipment_id: string;
          headline: string;
          summary: string | null;
          severity: number;
          category: string;
          match_types: string[];
        }[]
      >`
        SELECT u.email, f.organization_id, s.id AS shipment_id, d.headline, d.summary, d.severity,
               d.category, m.match_types
          FROM shipment_followers f
          JOIN users u ON u.id = f.user_id
          JOIN shipments s ON s.id = f.shipment_id AND s.deleted_at IS NULL
          JOIN shipment_disruptions m ON m.shipment_id = f.shipment_id AND m.disruption_id = ${pair.disruption_id}
          JOIN disruptions d ON d.id = m.disruption_id AND d.first_seen >= f.created_at
         WHERE f.user_id = ${pair.user_id}
           AND NOT EXISTS (SELECT 1 FROM disruption_notices n
                            WHERE n.user_id = f.user_id AND n.disruption_id = d.id AND n.shipment_id = s.id)
         ORDER BY s.number`;
      const first = rows[0];
      if (!first) continue;
      const touched: { shipment: MailShipment; matchTypes: string[] }[] = [];
      for (const row of rows) {
        if (!contexts.has(row.shipment_id))
          contexts.set(row.shipment_id, await shipmentForMail(prisma, this.base, row.shipment_id));
        const context = contexts.get(row.shipment_id);
        if (context) touched.push({ shipment: context.shipment, matchTypes: row.match_types });
      }
      if (touched.length === 0) continue;
      // Mails about fragments merged into this disruption were mails about it: what comes now is a
      // follow-up (their notices moved to it at the merge, so their shipments are not listed again).
      const ids = [
        pair.disruption_id,
        ...(
          await prisma.disruptionAlias.findMany({
            where: { disruptionId: pair.disruption_id },
            select: { id: true },
          })
        ).map((a) => a.id),
      ];
      const told = await prisma.mailMessage.count({
        where: {
          OR: ids.flatMap((id) => [
            { dedupeKey: `disruption:${pair.user_id}:${id}` },
            { dedupeKey: { startsWith: `disruption:${pair.user_id}:${id}:` } },
          ]),
        },
      });
      const pref = await this.preferencesIn(prisma, pair.user_id);
      const mail = disruptionMail(
        {
          headline: first.headline,
          summary: first.summary,
          severity: first.severity,
          category: first.category,
        },
        {
          touched,
          link: touched.length === 1 ? touched[0]!.shipment.link : `${this.base}/dashboard/shipments`,
          links: await linksFor(urls, pair.user_id, "disruption"),
          followUp: told > 0,
        },
      );
      await this.enqueueIn(
        prisma,
        {
          organizationId: first.organization_id,
          to: first.email,
          userId: pair.user_id,
          kind: "disruption",
          shipmentId: touched.length === 1 ? rows[0]!.shipment_id : null,
          // The first mail keeps the plain key; the n-th follow-up is `:<n + 1>`.
          dedupeKey: `disruption:${pair.user_id}:${pair.disruption_id}${told > 0 ? `:${told + 1}` : ""}`,
          ...mail,
        },
        pref,
      );
      await prisma.disruptionNotice.createMany({
        data: rows.map((row) => ({
          userId: pair.user_id,
          disruptionId: pair.disruption_id,
          shipmentId: row.shipment_id,
          mailedAt: now,
        })),
        skipDuplicates: true,
      });
    }
    return pairs.length;
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
      const contexts = new Map<string, ShipmentForMail | null>();
      const lines = [];
      for (const c of changes) {
        if (!contexts.has(c.shipmentId))
          contexts.set(c.shipmentId, await shipmentForMail(prisma, this.base, c.shipmentId));
        const context = contexts.get(c.shipmentId);
        if (context)
          lines.push({
            event: c.event,
            data: c.data as unknown as ChangeData,
            at: c.createdAt,
            shipment: context.shipment,
          });
      }
      const mail = digestMail(day, {
        changes: lines,
        zone: pref.timeZone,
        link: `${this.base}/dashboard/shipments`,
        links: await linksFor(this.urls(prisma), user.id, "digest"),
      });
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
        kind: string;
        expires_at: Date | null;
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
      RETURNING m.id, m.user_id, m.dedupe_key, m.to_address, m.subject, m.text, m.html, m.attempts,
                m.kind, m.expires_at`;
    // An address that bounced for good or complained is not mailed again until its owner resumes:
    // one read for the whole claim, not one per mail.
    const stopped = new Map(
      (claimed.length === 0
        ? []
        : await prisma.mailSuppression.findMany({
            where: { address: { in: [...new Set(claimed.map((m) => suppressionAddress(m.to_address)))] } },
          })
      ).map((row) => [row.address, row]),
    );
    for (const mail of claimed) {
      const mine = { id: mail.id, leaseToken: token };
      const pref = mail.user_id ? await this.preferencesIn(prisma, mail.user_id) : null;
      const topic = TOPIC_OF_KIND[mail.kind as MailKind] ?? null;
      // Switched off since it was queued (an unsubscribe link, the preferences): never sent.
      const unwanted =
        pref &&
        (!pref.emailEnabled
          ? "e-mail switched off"
          : topic && !pref[topic]
            ? `unsubscribed from ${topicWords(topic)}`
            : null);
      const suppressed = unwanted ? null : stopped.get(suppressionAddress(mail.to_address));
      if (suppressed) {
        await prisma.mailMessage.updateMany({
          where: mine,
          data: {
            status: "cancelled",
            leasedUntil: null,
            leaseToken: null,
            lastError: suppressionWords(suppressed.reason, suppressed.occurredAt),
          },
        });
        continue;
      }
      if (unwanted) {
        await prisma.mailMessage.updateMany({
          where: mine,
          data: { status: "cancelled", leasedUntil: null, leaseToken: null, lastError: unwanted },
        });
        continue;
      }
      if (mail.expires_at && new Date(mail.expires_at).getTime() <= clock.now().getTime()) {
        await prisma.mailMessage.updateMany({
          where: mine,
          data: {
            status: "expired",
            leasedUntil: null,
            leaseToken: null,
            lastError: "its moment passed before it could be sent",
          },
        });
        continue;
      }
      const quietEnd = pref ? quietHoursEnd(clock.now(), pref.timeZone, pref.quietHours) : null;
      if (quietEnd && mail.expires_at && quietEnd >= new Date(mail.expires_at)) {
        await prisma.mailMessage.updateMany({
          where: mine,
          data: {
            status: "expired",
            leasedUntil: null,
            leaseToken: null,
            lastError: "its moment passes during quiet hours",
          },
        });
        continue;
      }
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
          headers: mail.user_id && topic ? await this.unsubscribeHeaders(mail.user_id, topic) : {},
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
        if (error instanceof MailRecipientRefused) {
          // A hard bounce at delivery: no retry can help, and later mail to the address would bounce too.
          const row = await this.suppress({
            verdict: "hard_bounce",
            address: mail.to_address,
            detail: `the receiving server said: ${error.reply}`,
            dedupeKey: mail.dedupe_key,
          });
          // The rest of this claim's mail to the address is held back too.
          stopped.set(row.address, row);
          await prisma.mailMessage.updateMany({
            where: mine,
            data: {
              status: "bounced",
              attempts,
              lastError: `the receiving server refused the address: ${error.reply}`.slice(0, 500),
              leasedUntil: null,
              leaseToken: null,
            },
          });
          continue;
        }
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

  /**
   * A bounce or complaint report handed over by the deployment's mail server (issue 43 item 2). Only
   * addresses this deployment has mailed are suppressed, so a report cannot silence anyone else; a
   * temporary failure changes nothing (the sender's retries absorb it).
   */
  async recordFeedback(
    raw: string,
  ): Promise<
    | { recorded: MailFeedback[]; ignored: null }
    | { recorded: []; ignored: "not_a_report" | "temporary" | "no_recipient" | "unknown_address" }
  > {
    const read = readMailFeedback(raw);
    if (!Array.isArray(read)) return { recorded: [], ignored: read.ignored };
    const recorded: MailFeedback[] = [];
    for (const feedback of read) {
      const mailed = await this.deps.prisma.mailMessage.findFirst({
        where: { toAddress: { equals: feedback.address, mode: "insensitive" } },
        select: { id: true },
      });
      if (!mailed) continue;
      await this.suppress(feedback);
      if (feedback.dedupeKey && feedback.verdict === "hard_bounce") {
        await this.deps.prisma.mailMessage.updateMany({
          where: {
            dedupeKey: feedback.dedupeKey,
            toAddress: { equals: feedback.address, mode: "insensitive" },
          },
          data: { status: "bounced", lastError: feedback.detail.slice(0, 500) },
        });
      }
      recorded.push(feedback);
    }
    return recorded.length > 0 ? { recorded, ignored: null } : { recorded: [], ignored: "unknown_address" };
  }

  /** Whether mail reaches this address: null while it does; the bounce or complaint that stopped it. */
  async deliveryStop(
    address: string,
  ): Promise<{ reason: "hard_bounce" | "complaint"; detail: string; since: Date } | null> {
    const row = await this.deps.prisma.mailSuppression.findUnique({
      where: { address: suppressionAddress(address) },
    });
    if (!row) return null;
    return {
      reason: row.reason === "complaint" ? "complaint" : "hard_bounce",
      detail: row.detail,
      since: row.occurredAt,
    };
  }

  /** The owner says the mailbox works again (or wants mail after a complaint): mail to it resumes. */
  async resumeMail(address: string): Promise<void> {
    await this.deps.prisma.mailSuppression.deleteMany({ where: { address: suppressionAddress(address) } });
  }

  private async suppress(feedback: MailFeedback): Promise<MailSuppression> {
    const address = suppressionAddress(feedback.address);
    const data = {
      reason: feedback.verdict,
      detail: feedback.detail.slice(0, 500),
      dedupeKey: feedback.dedupeKey,
      occurredAt: this.deps.clock.now(),
    };
    const row = await this.deps.prisma.mailSuppression.upsert({
      where: { address },
      create: { address, ...data },
      update: data,
    });
    this.deps.logger.warn(
      { reason: feedback.verdict },
      "mail to an address stopped after a bounce or complaint",
    );
    return row;
  }

  /**
   * Tickets and quote requests mail both sides (issue 43 item 5): the deployment's operator (every user
   * of an operator organisation) hears what customers ask; the customer who asked hears the answer.
   * Called by the workspace services after each change; a failure to queue never fails the change.
   */
  async workspaceEvent(event: WorkspaceEvent): Promise<void> {
    const { prisma } = this.deps;
    const record = "ticket" in event ? event.ticket : event.request;
    const recipients =
      audienceOf(event) === "operator"
        ? await prisma.user.findMany({ where: { removedAt: null, organization: { operator: true } } })
        : await prisma.user.findMany({
            where: {
              id: "ticket" in event ? event.ticket.openedByUserId : event.request.requestedByUserId,
              removedAt: null,
            },
          });
    const kind: MailKind = "ticket" in event ? "ticket" : "quote";
    const urls = this.urls(prisma);
    const moment =
      event.kind === "quote_expiring"
        ? String(event.request.quoteValidUntil?.getTime())
        : String(record.updatedAt.getTime());
    for (const user of recipients) {
      const pref = await this.preferencesIn(prisma, user.id);
      if (!pref.emailEnabled || !pref.workspaceUpdates) continue;
      const mail = workspaceEventMail(event, this.base, pref.timeZone, await linksFor(urls, user.id, kind));
      await this.enqueueIn(
        prisma,
        {
          organizationId: user.organizationId,
          to: user.email,
          userId: user.id,
          kind,
          dedupeKey: `${kind}:${user.id}:${record.id}:${event.kind}:${moment}`,
          ...(event.kind === "quote_expiring" && event.request.quoteValidUntil
            ? { expiresAt: event.request.quoteValidUntil }
            : {}),
          ...mail,
        },
        pref,
      );
    }
  }

  /** A quote that expires within two days and was not acted on: its customer is reminded once. */
  async scanQuoteExpiry(): Promise<number> {
    const now = this.deps.clock.now();
    const expiring = await this.deps.prisma.quoteRequest.findMany({
      where: {
        status: "QUOTED",
        quoteValidUntil: { gt: now, lte: new Date(now.getTime() + QUOTE_REMINDER_MS) },
      },
      take: 200,
    });
    for (const request of expiring) await this.workspaceEvent({ kind: "quote_expiring", request });
    return expiring.length;
  }

  /**
   * RFC 8058 one-click unsubscribe: a POST to the link (body `List-Unsubscribe=One-Click`) switches
   * this kind of mail off, with no sign-in; mailbox providers show it as their own unsubscribe button.
   */
  private async unsubscribeHeaders(userId: string, topic: MailTopic): Promise<Record<string, string>> {
    const secret = await this.urls(this.deps.prisma).secret();
    return {
      "List-Unsubscribe": `<${unsubscribeUrl(this.base, signUnsubscribe(secret, userId, topic))}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
  }

  /** What a signed unsubscribe link would switch off, without doing it (the confirmation page). */
  async unsubscribePreview(
    token: string,
  ): Promise<{ topic: UnsubscribeTopic; words: string; address: string } | null> {
    const signed = verifyUnsubscribe(await this.urls(this.deps.prisma).secret(), token);
    if (!signed) return null;
    const user = await this.deps.prisma.user.findUnique({ where: { id: signed.userId } });
    if (!user) return null;
    return { topic: signed.topic, words: topicWords(signed.topic), address: maskAddress(user.email) };
  }

  /**
   * Follows a signed unsubscribe link: the kind of mail it names (or all mail) is switched off for its
   * user, and mail of that kind still waiting is not sent (`sendDue` checks before each send).
   * Null for a link that is not genuine or whose user no longer exists. Doing it twice is harmless.
   */
  async unsubscribe(
    token: string,
  ): Promise<{ topic: UnsubscribeTopic; words: string; address: string } | null> {
    const preview = await this.unsubscribePreview(token);
    if (!preview) return null;
    const signed = verifyUnsubscribe(await this.urls(this.deps.prisma).secret(), token)!;
    const user = await this.deps.prisma.user.findUniqueOrThrow({ where: { id: signed.userId } });
    await this.updatePreferences(
      user,
      signed.topic === "all" ? { emailEnabled: false } : { [signed.topic]: false },
    );
    return preview;
  }

  /** One pass of the background work: scans that queue mail, then sending. */
  async tick(batch: number): Promise<{ full: boolean }> {
    await this.scanDisruptions();
    await this.scanLastFreeDays();
    await this.scanMoments();
    await this.scanQuoteExpiry();
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

/** Why a queued mail was not sent to a suppressed address, as the dashboard's mail log shows it. */
function suppressionWords(reason: string, since: Date): string {
  const day = since.toISOString().slice(0, 10);
  return reason === "complaint"
    ? `not sent: the address reported our mail as spam on ${day}`
    : `not sent: mail to the address bounced on ${day}`;
}
