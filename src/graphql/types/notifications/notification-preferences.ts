import {
  DIGEST_HOUR,
  LFD_REMINDER_HOURS,
  maskAddress,
  type NotificationPrefs,
  preferencesUpdate,
} from "../../../domain/notifications/preferences";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { publicError } from "../../errors";
import { principalOf } from "../../principal";
import { WRITE_SCOPES } from "../../scopes";

interface DeliveryStop {
  reason: "hard_bounce" | "complaint";
  detail: string;
  since: Date;
}

interface PrefsView extends NotificationPrefs {
  email: string;
  followedShipments: number;
  deliveryStop: DeliveryStop | null;
}

const MailDeliveryStopRef = builder.objectRef<DeliveryStop>("MailDeliveryStop").implement({
  description:
    "Why mail no longer reaches an address: its server refused it for good (a hard bounce) or its reader reported a mail as spam (a complaint). Nothing is sent to it until its owner resumes mail.",
  fields: (t) => ({
    reason: t.exposeString("reason", { description: "hard_bounce or complaint." }),
    detail: t.exposeString("detail", { description: "What the receiving side said, in its words." }),
    since: t.field({ type: "DateTime", resolve: (s) => s.since }),
    explanation: t.string({
      description: "What happened and what to do, in a sentence for the address's owner.",
      resolve: (s) =>
        s.reason === "complaint"
          ? "Your mailbox provider reported one of our mails as spam, so we stopped all mail to this address. Resume mail if that was a mistake."
          : "Your mail server refused our mail to this address for good, so we stopped sending. Check the address or mailbox, then resume mail.",
    }),
  }),
});

const QuietHoursRef = builder.objectRef<{ start: string; end: string }>("QuietHours").implement({
  description:
    "A daily wall-clock window in the user's time zone when no e-mail is sent (start included, end excluded; an end before the start runs overnight). Mail falling inside waits until the end.",
  fields: (t) => ({
    start: t.exposeString("start", { description: "HH:MM" }),
    end: t.exposeString("end", { description: "HH:MM" }),
  }),
});

const NotificationPreferencesRef = builder.objectRef<PrefsView>("NotificationPreferences").implement({
  description:
    "The e-mail notifications of the user whose key asks. Only shipments the user follows are notified.",
  fields: (t) => ({
    email: t.exposeString("email", { description: "Where the mail goes: the user's address." }),
    emailMasked: t.string({
      description: "The address with most characters hidden (j***@e***.com), as MCP shows it.",
      resolve: (p) => maskAddress(p.email),
    }),
    emailEnabled: t.exposeBoolean("emailEnabled", { description: "Off: no e-mail at all." }),
    statusChanges: t.exposeBoolean("statusChanges", {
      description: "A mail when a followed shipment's status changes (delivery included).",
    }),
    etaChanges: t.exposeBoolean("etaChanges", { description: "A mail when the carrier revises the ETA." }),
    etaChangeMinHours: t.exposeInt("etaChangeMinHours", {
      description: "Only ETA revisions of at least this many hours, either way, are mailed.",
    }),
    vesselArrival: t.exposeBoolean("vesselArrival", {
      description: "A mail when the vessel arrives at the final port of discharge.",
    }),
    vesselDeparture: t.exposeBoolean("vesselDeparture", {
      description: "A mail when the vessel sails from the port of loading, and at each transshipment.",
    }),
    terminalUpdates: t.exposeBoolean("terminalUpdates", {
      description: "A mail when the terminal makes a box available for pickup, or places or releases a hold.",
    }),
    workspaceUpdates: t.exposeBoolean("workspaceUpdates", {
      description: "Mail about your support tickets and quote requests (answers, status, quotes, expiry).",
    }),
    lastFreeDayReminders: t.exposeBoolean("lastFreeDayReminders", {
      description: "Reminders 72 and 24 hours before a known last free day.",
    }),
    lastFreeDayReminderHours: t.intList({
      description: "When last-free-day reminders go out, in hours before it.",
      resolve: () => [...LFD_REMINDER_HOURS],
    }),
    disruptions: t.exposeBoolean("disruptions", {
      description: "A mail when a new disruption touches a followed shipment.",
    }),
    dailyDigest: t.exposeBoolean("dailyDigest", {
      description: `One mail a day at ${DIGEST_HOUR}:00 in the user's zone listing the changes of the 24 hours before (none on a quiet day).`,
    }),
    timeZone: t.exposeString("timeZone", {
      description: "IANA time zone of quiet hours, the digest and times in mail.",
    }),
    quietHours: t.field({
      type: QuietHoursRef,
      nullable: true,
      resolve: (p) => p.quietHours,
    }),
    followedShipments: t.exposeInt("followedShipments", { description: "Shipments the user follows." }),
    deliveryStop: t.field({
      type: MailDeliveryStopRef,
      nullable: true,
      description: "Null while mail reaches the address; the bounce or complaint that stopped it otherwise.",
      resolve: (p) => p.deliveryStop,
    }),
  }),
});

const QuietHoursInput = builder.inputType("QuietHoursInput", {
  fields: (t) => ({
    start: t.string({ required: true, description: "HH:MM, 00:00 to 23:59" }),
    end: t.string({ required: true, description: "HH:MM; before the start for an overnight window" }),
  }),
});

const NotificationPreferencesInput = builder.inputType("NotificationPreferencesInput", {
  description: "Fields left out stay as they are; quietHours null removes them.",
  fields: (t) => ({
    emailEnabled: t.boolean(),
    statusChanges: t.boolean(),
    etaChanges: t.boolean(),
    etaChangeMinHours: t.int({ description: "0 to 720" }),
    vesselArrival: t.boolean(),
    vesselDeparture: t.boolean(),
    terminalUpdates: t.boolean(),
    workspaceUpdates: t.boolean(),
    lastFreeDayReminders: t.boolean(),
    disruptions: t.boolean(),
    dailyDigest: t.boolean(),
    timeZone: t.string({ description: "IANA zone, e.g. Europe/Amsterdam" }),
    quietHours: t.field({ type: QuietHoursInput }),
  }),
});

/** GraphQL sends an omitted field as undefined and an explicit null as null: only quietHours may be null. */
function checkedUpdate(input: Record<string, unknown>) {
  const present = Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => value !== undefined && (value !== null || key === "quietHours"),
    ),
  );
  const nulls = Object.entries(input).filter(([key, value]) => value === null && key !== "quietHours");
  if (nulls.length > 0) {
    throw publicError("BAD_USER_INPUT", `${nulls[0]![0]} cannot be null (leave it out to keep it)`, {
      field: nulls[0]![0],
    });
  }
  const parsed = preferencesUpdate.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".");
    // A sentence a person reads (the dashboard shows it as is); the field stays in the extensions.
    throw publicError("BAD_USER_INPUT", PLAIN_WORDS[String(issue.path[0])] ?? `${field}: ${issue.message}`, {
      field,
    });
  }
  return parsed.data;
}

/** Each preference's refusal in plain words, naming what to type rather than the API field. */
const PLAIN_WORDS: Record<string, string> = {
  timeZone: "The time zone is not one we know. Use a name such as Europe/Amsterdam, America/New_York or UTC.",
  etaChangeMinHours: "The hours for arrival estimate changes are a whole number from 0 to 720.",
  quietHours:
    "Quiet hours are two different times written as HH:MM, for example 22:00 and 07:00; leave both empty for none.",
};

async function view(ctx: GraphQLContext): Promise<PrefsView> {
  const user = principalOf(ctx).user;
  const [prefs, followedShipments, deliveryStop] = await Promise.all([
    ctx.services.notifications.preferences(user.id),
    ctx.services.notifications.followedCount(user.id),
    ctx.services.notifications.deliveryStop(user.email),
  ]);
  return { ...prefs, email: user.email, followedShipments, deliveryStop };
}

builder.queryFields((t) => ({
  notificationPreferences: t.field({
    type: NotificationPreferencesRef,
    nullable: true,
    description: "The asking user's e-mail notification preferences (the defaults until changed).",
    authScopes: { developerMode: true },
    resolve: (_root, _args, ctx) => view(ctx),
  }),
}));

const MailFeedbackEntryRef = builder
  .objectRef<{ verdict: string; address: string; detail: string }>("MailFeedbackEntry")
  .implement({
    description: "One address a bounce or complaint report stopped mail to.",
    fields: (t) => ({
      verdict: t.exposeString("verdict", { description: "hard_bounce or complaint." }),
      address: t.exposeString("address"),
      detail: t.exposeString("detail"),
    }),
  });

const MailFeedbackResultRef = builder
  .objectRef<{ recorded: { verdict: string; address: string; detail: string }[]; ignored: string | null }>(
    "MailFeedbackResult",
  )
  .implement({
    description: "What a bounce or complaint report changed.",
    fields: (t) => ({
      recorded: t.field({ type: [MailFeedbackEntryRef], resolve: (r) => r.recorded }),
      ignored: t.exposeString("ignored", {
        nullable: true,
        description:
          "Why nothing changed: not_a_report (not a delivery-status or feedback report), temporary (a delay or 4.x.x failure: retries absorb it), no_recipient, unknown_address (no mail was ever sent to it). Null when something was recorded.",
      }),
    }),
  });

builder.mutationFields((t) => ({
  recordMailFeedback: t.field({
    type: MailFeedbackResultRef,
    description:
      "Hands over a bounce (RFC 3464 delivery-status notification) or complaint (RFC 5965 feedback report) that arrived at the deployment's return path, as the raw message. A permanent failure or a complaint stops mail to the address until its owner resumes it. Operator keys only.",
    authScopes: { operator: true },
    args: { report: t.arg.string({ required: true, description: "The whole message, headers included." }) },
    resolve: async (_root, { report }, ctx) => {
      if (report.length > 1_000_000) {
        throw publicError("BAD_USER_INPUT", "report: at most 1,000,000 characters", { field: "report" });
      }
      return ctx.services.notifications.recordFeedback(report);
    },
  }),
  resumeMail: t.withAuth(WRITE_SCOPES).field({
    type: NotificationPreferencesRef,
    nullable: true,
    description:
      "The asking user's mailbox works again (or the spam report was a mistake): mail to their address resumes.",
    resolve: async (_root, _args, ctx) => {
      await ctx.services.notifications.resumeMail(ctx.principal.user.email);
      return view(ctx);
    },
  }),
  updateNotificationPreferences: t.withAuth(WRITE_SCOPES).field({
    type: NotificationPreferencesRef,
    nullable: true,
    description: "Changes the asking user's preferences; every value is checked before anything is saved.",
    args: {
      input: t.arg({ type: NotificationPreferencesInput, required: true }),
    },
    resolve: async (_root, { input }, ctx) => {
      const update = checkedUpdate(input as Record<string, unknown>);
      await ctx.services.notifications.updatePreferences(ctx.principal.user, update);
      return view(ctx);
    },
  }),
}));

interface UnsubscribeView {
  topic: string;
  words: string;
  address: string;
}

const UnsubscribeRef = builder.objectRef<UnsubscribeView>("MailUnsubscribe").implement({
  description:
    "What a signed unsubscribe link (from a mail's footer or List-Unsubscribe header) switches off.",
  fields: (t) => ({
    topic: t.exposeString("topic", {
      description:
        "The preference it switches off (statusChanges, etaChanges, vesselDeparture, ...), or all for every mail.",
    }),
    description: t.exposeString("words", { description: "The same in words, for the confirmation page." }),
    emailMasked: t.exposeString("address", { description: "Whose mail, with most characters hidden." }),
  }),
});

builder.queryFields((t) => ({
  unsubscribeLink: t.field({
    type: UnsubscribeRef,
    nullable: true,
    description:
      "What a signed unsubscribe link would switch off, changing nothing (the page a link opens). No key needed: the signed token is the capability. Null for a link that is not genuine.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => ctx.services.notifications.unsubscribePreview(token),
  }),
}));

builder.mutationFields((t) => ({
  unsubscribe: t.field({
    type: UnsubscribeRef,
    nullable: true,
    description:
      "Follows a signed unsubscribe link (RFC 8058 one-click): switches that kind of mail (or all mail) off for its recipient. No key or sign-in needed; it can only switch mail off. Null for a link that is not genuine.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => ctx.services.notifications.unsubscribe(token),
  }),
}));
