/**
 * Shipments (spec v1 section 2.3).
 */
import { z } from "zod";
import {
  dateTime,
  flag,
  localDateTime,
  nullable,
  persisted,
  sandboxMode,
  shipmentType,
  status,
  utcCompanion,
} from "./common";
import { DemurrageRisk } from "./demurrage";
import { finalDestinationEtaField, predictiveEtaField } from "./predictive-eta";
import { TerminalRecord } from "./terminal-record";
import { documentTables } from "./tracking-document";

const CarrierPush = z
  .object({
    covered: z
      .boolean()
      .meta({ description: "The carrier pushes this shipment's events now (status active)." }),
    status: z.enum(["pending", "active", "lost"]).meta({
      description:
        "pending: asked for, not yet accepted by the carrier; active: held and pushing; lost: the carrier no longer holds it, registered again on a later pass (polled normally meanwhile).",
    }),
    last_push_at: nullable(dateTime).meta({
      description: "When the carrier last pushed an event that was applied.",
    }),
    confirmed_at: nullable(dateTime).meta({
      description: "When the carrier last confirmed it holds the subscription.",
    }),
    poll_stretch: z.number().int().meta({
      description: "How many times the normal refresh gap the next poll waits: 4 while covered, else 1.",
    }),
    next_poll_at: nullable(dateTime).meta({
      description: "When the service next asks the carrier anyway (the safety net); null when not scheduled.",
    }),
  })
  .meta({ id: "CarrierPush", description: "A shipment's carrier push (docs/decisions/carrier-push.md)." });

export const ShipmentSummary = z
  .object({
    name: z.string().meta({ example: "SHP-1000" }),
    number_of_containers: z.number().int(),
    shipment_type: shipmentType,
    reference_number: z.string(),
    sealine_name: nullable(z.string()),
    sealine: nullable(z.string()),
    status,
    origin: z.string(),
    destination: z.string(),
    total_days: z.number(),
    remaining_days: z.number(),
    eta: nullable(localDateTime),
    eta_utc: utcCompanion("eta"),
    created_at: dateTime,
    last_synced_at: nullable(dateTime),
    is_active: flag,
    is_delayed: flag,
    ata: nullable(localDateTime),
    ata_utc: utcCompanion("ata"),
    customers: z.array(z.string()),
    next_refresh_eligible_at: nullable(dateTime),
    refresh_eligible_now: z.boolean(),
    predictive_eta: predictiveEtaField,
    final_destination_eta: finalDestinationEtaField,
    demurrage_risk: DemurrageRisk.optional().meta({
      description: "Only when predictive ETA is enabled for the plan (spec v1 section 2.3).",
    }),
    carrier_push: CarrierPush.optional().meta({
      description:
        "Only when the carrier pushes updates for this shipment's reference or Quayside is asking it to (DCSA event subscriptions); absent while the carrier is polled only.",
    }),
  })
  .meta({ id: "ShipmentSummary", description: "Spec v1 section 2.3." });

const fullDocument = z.object({
  events_table: documentTables.events_table,
  containers_table: documentTables.containers_table,
  vessels_table: documentTables.vessels_table,
  locations_table: documentTables.locations_table,
  voyage_plan_table: documentTables.voyage_plan_table,
  route_json: z.string(),
  last_position: nullable(z.object({ latitude: z.number(), longitude: z.number() })),
});

export const ShipmentDetail = ShipmentSummary.extend({
  terminal: TerminalRecord,
  discovery: nullable(z.object({ status: z.string() })),
  document: nullable(fullDocument).optional().meta({ description: "With `?include=full` only." }),
  cached_at: nullable(dateTime).optional(),
  mode: z.literal("stored").optional().meta({ description: "With `?include=full` only." }),
  hint: z.string().optional(),
}).meta({ id: "ShipmentDetail" });

export const ShipmentAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: ShipmentDetail })
  .meta({ id: "ShipmentAnswer" });

/** Page mode (no `updated_since`): the organisation's shipments, newest first, with the total. */
const ShipmentPageMode = z
  .strictObject({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int().meta({ description: "Live shipments of the organisation." }),
    page: z.number().int(),
    pageSize: z.number().int(),
    data: z.array(ShipmentSummary),
  })
  .meta({ id: "ShipmentPage", description: "Page mode: a page of the shipments, newest first." });

/** Delta mode (`updated_since`): the rows synced since, oldest first, and where the next page starts. */
const ShipmentDeltaMode = z
  .strictObject({
    success: z.literal(true),
    mode: sandboxMode,
    updated_since: dateTime.meta({ description: "The time asked for, normalised." }),
    count: z.number().int().meta({ description: "Rows returned (at most 200)." }),
    has_more: z.boolean().meta({
      description:
        "True when this page stopped at 200 and more rows are synced at or after `updated_since`: ask again with `updated_since=next_updated_since&cursor=next_cursor`.",
    }),
    next_updated_since: nullable(dateTime).meta({
      description:
        "The last row's `last_synced_at`: `updated_since` of the next page (or of the next poll once `has_more` is false). Null on an empty page: keep the time asked.",
    }),
    next_cursor: nullable(z.string()).meta({
      description:
        "Where the next page starts: after this page's last row, even among rows synced in the same millisecond. Pass it as `cursor` with `updated_since=next_updated_since`. Null on an empty page.",
      example: "MjAyNi0wOC0wMVQwMDowMDowMC4wMDBafjEyMw",
    }),
    data: z.array(ShipmentSummary),
  })
  .meta({
    id: "ShipmentDelta",
    description:
      "Delta mode: shipments synced at or after `updated_since`, oldest first (then by number), at most 200 a page.",
  });

export const ShipmentPage = z
  .xor([ShipmentPageMode, ShipmentDeltaMode])
  .meta({ id: "ShipmentList", description: "A page, or in delta mode (`updated_since`) the changed rows." });

export const ShipmentPatchBody = z
  .strictObject({
    carrier: z
      .string()
      .regex(/^[A-Za-z0-9]{4}$/)
      .optional()
      .meta({ description: "SCAC, e.g. MAEU" }),
    type: z.enum(["container", "bl"]).optional(),
    customer: z
      .string()
      .max(200)
      .nullable()
      .optional()
      .meta({ description: "Customer name; null or empty string clears it." }),
  })
  .meta({
    id: "ShipmentPatch",
    description: "At least one field; any other field (`reference_number` too) is refused with 400.",
    example: { customer: "ACME Imports" },
  });

export const ShipmentUpdatedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    data: ShipmentSummary,
    unchanged: z.literal(true).optional(),
    still_failed: z.literal(true).optional(),
  })
  .meta({ id: "ShipmentUpdated" });

export const ShipmentDeletedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    deleted: z.literal(true),
    shipment_id: z.string().meta({ description: "The real id of the row, not necessarily what was sent." }),
  })
  .meta({ id: "ShipmentDeleted" });

export const RetryFailedBody = z
  .object({ shipment_ids: z.array(z.string().max(100)).max(1000).optional() })
  .meta({ id: "RetryFailedRequest", example: { shipment_ids: ["SHP-1007"] } });

export const RetryFailedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    examined: z.number().int(),
    queued: z.number().int(),
    skipped: z.number().int(),
    skipped_reason: z.enum(["plan", "disabled"]).optional().meta({
      description:
        "Why the skipped ones were not queued: the plan lacks carrier discovery, or the organisation switched it off.",
    }),
  })
  .meta({ id: "RetryFailedResult" });

export const ShareAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    data: z.object({
      shipment_id: z.string(),
      token: z.string(),
      url: z.string().meta({ description: "The public, sanitised tracking page." }),
      created_at: dateTime,
      created: z.boolean().meta({ description: "False when the shipment already had a link (same link)." }),
    }),
  })
  .meta({ id: "ShareLink" });

export const UnshareAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    revoked: z.boolean(),
    shipment_id: z.string(),
  })
  .meta({ id: "ShareRevoked" });
