/**
 * Partner sources and their events (issue 41; docs/decisions/partner-events.md): parties that are not
 * carriers (a trucker's app, a TMS, a rail feed, a warehouse) post milestones and position fixes that
 * join the shipment's timeline, each named with its source.
 */
import { z } from "zod";
import { dateTime, nullable, persisted, sandboxMode } from "./common";

/** The id of the sandbox world's seeded source (src/app/sandbox-partners.ts), so examples answer. */
export const SANDBOX_PARTNER_SOURCE_ID = "00000000-0000-4000-8000-0000000000a1";

export const PartnerSource = z
  .object({
    id: z.string().meta({ example: SANDBOX_PARTNER_SOURCE_ID }),
    name: z.string().meta({ description: "Shown on every event it sends.", example: "Rotterdam Drayage BV" }),
    created_at: dateTime,
    last_event_at: nullable(dateTime).meta({
      description: "When it last posted an event that was kept (applied or superseded); null before.",
    }),
    inbound_url: z.string().meta({
      description:
        "Its signed inbound webhook: POST here without a key, signed with the source's secret (X-Quayside-Timestamp, X-Quayside-Signature).",
    }),
  })
  .meta({ id: "PartnerSource" });

export const PartnerSourcesAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int(),
    data: z.array(PartnerSource),
  })
  .meta({ id: "PartnerSourceList", description: "The organisation's partner sources, oldest first." });

export const PartnerSourceBody = z
  .object({
    name: z
      .string({ error: 'name is required: the partner\'s name, e.g. "Rotterdam Drayage BV".' })
      .meta({ description: "1 to 80 characters, shown on its events.", example: "Rotterdam Drayage BV" }),
  })
  .meta({ id: "PartnerSourceRequest", example: { name: "Rotterdam Drayage BV" } });

export const PartnerSourceWithSecretAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    data: PartnerSource.extend({
      signing_secret: z.string().meta({
        description:
          'psec_...: shown this once. The partner signs its webhook with it: X-Quayside-Signature = "v1=" + hex HMAC-SHA256 of "<X-Quayside-Timestamp>.<raw body>".',
        example: "psec_3f9a...",
      }),
    }),
  })
  .meta({ id: "PartnerSourceWithSecret" });

export const PartnerSourceRemovedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    removed: z.literal(true),
    id: z.string(),
  })
  .meta({
    id: "PartnerSourceRemoved",
    description: "The source can post no more; the events it sent stay on the timelines.",
  });

const PartnerEventLocation = z.object({
  un_location_code: z.string().optional().meta({ example: "NLRTM" }),
  name: z.string().optional().meta({ example: "ECT Delta Terminal" }),
  latitude: z.number().optional().meta({ example: 51.95 }),
  longitude: z.number().optional().meta({ example: 4.05 }),
});

/**
 * One event as posted. Loose on purpose: every field is checked by the core per event, so one bad
 * event is answered `invalid` naming its field and the rest of the batch still counts.
 */
export const PartnerEvent = z
  .object({
    event_id: z.string().meta({ description: "The sender's own id: a second copy changes nothing." }),
    event_type: z.enum(["EQUIPMENT", "TRANSPORT", "POSITION"]),
    event_code: z
      .enum(["GTOT", "GTIN", "PICK", "DROP", "DEPA", "ARRI"])
      .optional()
      .meta({ description: "EQUIPMENT: GTOT, GTIN, PICK, DROP; TRANSPORT: DEPA, ARRI." }),
    event_classifier_code: z.enum(["ACT", "EST"]).optional().meta({ description: "Default ACT." }),
    event_date_time: z.string().meta({ description: "ISO 8601 with its offset." }),
    shipment_id: z.string().optional().meta({ description: "A shipment id (SHP-12)." }),
    reference: z.string().optional().meta({ description: "Or the tracked reference." }),
    equipment_reference: z
      .string()
      .optional()
      .meta({ description: "The container; required when the shipment has more than one." }),
    empty_indicator_code: z.enum(["EMPTY", "LADEN"]).optional(),
    mode_of_transport: z
      .enum(["TRUCK", "RAIL", "BARGE"])
      .optional()
      .meta({ description: "Required for TRANSPORT events." }),
    facility_type_code: z.enum(["CLOC", "DEPO", "INTE", "RAMP", "POTE"]).optional(),
    location: PartnerEventLocation.optional().meta({
      description: "A milestone needs un_location_code or name; a POSITION needs latitude and longitude.",
    }),
  })
  .meta({ id: "PartnerEvent" });

/**
 * What the router checks of a batch: its frame only. Each event is taken as it comes and checked by
 * the core on its own, so one bad event is answered `invalid` naming its field while the rest count.
 */
export const PartnerEventsFrame = z.object({
  events: z
    .array(z.unknown(), { error: 'events is required: {"events": [...]} with 1 to 100 events.' })
    .min(1, "events needs 1 to 100 events.")
    .max(100, "events needs 1 to 100 events."),
});

export const PartnerEventsBody = z.object({ events: z.array(PartnerEvent).min(1).max(100) }).meta({
  id: "PartnerEventsRequest",
  example: {
    events: [
      {
        event_id: "tms-1042",
        event_type: "TRANSPORT",
        event_code: "DEPA",
        mode_of_transport: "TRUCK",
        event_date_time: "2026-09-01T09:30:00+02:00",
        shipment_id: "SHP-1000",
        location: { name: "Maasvlakte truck gate", latitude: 51.95, longitude: 4.05 },
      },
    ],
  },
});

export const PartnerEventResult = z
  .object({
    index: z.number().int().meta({ description: "Its position in the batch, from 0." }),
    event_id: nullable(z.string()),
    outcome: z.enum(["applied", "superseded", "duplicate", "invalid"]).meta({
      description:
        "applied: on the timeline; superseded: kept, but the carrier reported this milestone itself; duplicate: sent before, nothing changed; invalid: refused (see message), nothing kept.",
    }),
    shipment_id: nullable(z.string()),
    message: nullable(z.string()).meta({ description: "Why, unless applied." }),
  })
  .meta({ id: "PartnerEventResult" });

export const PartnerEventsAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    data: z.object({ results: z.array(PartnerEventResult) }),
  })
  .meta({
    id: "PartnerEventBatch",
    description: "One result per event, in the order posted: answered 200 even when events are refused.",
  });
