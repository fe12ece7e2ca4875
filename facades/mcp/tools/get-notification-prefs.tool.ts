import { z } from "zod";
import { McpNotificationPrefsDocument } from "../../generated/operations";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const output = z.object({
  channels: z.object({
    email: z.object({
      enabled: z.boolean().describe("Off: no e-mail at all"),
      addressMasked: z
        .string()
        .describe("The user's address with most characters hidden, e.g. j***@e***.com"),
    }),
    webhooks: z
      .array(
        z.object({
          id: z.string(),
          urlHostOnly: z.string().describe("The endpoint's host alone: never its path, query or secret"),
          events: z.array(z.string()).describe("Subscribed event names, or * for all"),
          enabled: z.boolean(),
        }),
      )
      .describe("The organisation's webhook endpoints"),
  }),
  events: z
    .object({
      statusChanges: z.boolean(),
      etaChanges: z.boolean(),
      vesselArrival: z.boolean(),
      lastFreeDayReminders: z.boolean(),
      disruptions: z.boolean().describe("A new disruption touching a followed shipment"),
      dailyDigest: z.boolean(),
    })
    .describe("Which events are e-mailed for the shipments the user follows"),
  etaChangeMinHours: z.number().int().describe("Only ETA revisions of at least this many hours are e-mailed"),
  lfdReminders: z
    .array(z.number().int())
    .describe("Hours before a known last free day when reminders go out"),
  digest: z.enum(["none", "daily"]),
  timezone: z.string().describe("IANA time zone of quiet hours, the digest and times in mail"),
  quietHours: z
    .object({ start: z.string().describe("HH:MM"), end: z.string().describe("HH:MM") })
    .nullable()
    .describe("No e-mail between these wall-clock times (mail waits until the end); null when none"),
  followedShipments: z.number().int().describe("How many shipments the user follows"),
});

export const getNotificationPrefs = defineTool({
  name: "get_notification_prefs",
  title: "Notification preferences",
  description:
    "The e-mail notification preferences of the user whose API key asks (which shipment events are mailed, the ETA-change threshold, last-free-day reminders, the daily digest, time zone and quiet hours, how many shipments they follow) and the organisation's webhook endpoints by host only. Addresses are masked; no URL path, signing secret or key is ever shown. Takes no arguments.",
  input: z.object({}),
  output,
  async call(_args, context) {
    const result = await context.run(McpNotificationPrefsDocument);
    if (!result.ok) return refusalOf(result);
    const prefs = result.data.notificationPreferences;
    if (!prefs) return refusal("unexpected");
    return answer({
      channels: {
        email: { enabled: prefs.emailEnabled, addressMasked: prefs.emailMasked },
        webhooks: (result.data.webhookEndpoints ?? []).map((e) => ({
          id: e.id,
          urlHostOnly: e.urlHost,
          events: e.events,
          enabled: e.enabled,
        })),
      },
      events: {
        statusChanges: prefs.statusChanges,
        etaChanges: prefs.etaChanges,
        vesselArrival: prefs.vesselArrival,
        lastFreeDayReminders: prefs.lastFreeDayReminders,
        disruptions: prefs.disruptions,
        dailyDigest: prefs.dailyDigest,
      },
      etaChangeMinHours: prefs.etaChangeMinHours,
      lfdReminders: prefs.lastFreeDayReminderHours,
      digest: prefs.dailyDigest ? ("daily" as const) : ("none" as const),
      timezone: prefs.timeZone,
      quietHours: prefs.quietHours ? { start: prefs.quietHours.start, end: prefs.quietHours.end } : null,
      followedShipments: prefs.followedShipments,
    });
  },
});
