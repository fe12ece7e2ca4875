/**
 * Bulk tracking (spec v1 section 2.5).
 */
import { z } from "zod";
import { sandboxMode, shipmentType } from "./common";
import { TrackingDocument } from "./tracking-document";

const bulkItemCommon = {
  index: z.number().int(),
  number: z.string(),
  type: shipmentType,
};

export const BulkItem = z
  .union([
    z.object({ ...bulkItemCommon, ok: z.literal(true), slot_consumed: z.boolean(), data: TrackingDocument }),
    z
      .object({ ...bulkItemCommon, ok: z.literal(false), error: z.string(), message: z.string() })
      .catchall(z.unknown())
      .meta({ description: "The item's error code and the same detail the single-item error carries." }),
  ])
  .meta({ id: "BulkItem" });

export const BulkTrackBody = z
  .object({
    shipments: z
      .array(
        z.object({
          type: z.enum(["container", "bl"]),
          number: z.string().min(1).max(100).meta({ example: "MSCU1234566" }),
          sealine: z
            .string()
            .regex(/^[A-Za-z0-9]{4}$/, "sealine must be exactly 4 letters or digits")
            .optional()
            .meta({ description: "SCAC, e.g. MAEU" }),
        }),
      )
      .min(1, "shipments needs 1 to 50 items")
      .max(50, "shipments needs 1 to 50 items"),
  })
  .meta({
    id: "BulkTrackRequest",
    example: {
      shipments: [
        { type: "container", number: "MSCU1234566" },
        { type: "bl", number: "MAEU123456789", sealine: "MAEU" },
      ],
    },
  });

export const BulkAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int(),
    tracked: z.number().int(),
    failed: z.number().int(),
    slots: z.object({ used: z.number().int(), limit: z.number().int(), remaining: z.number().int() }),
    results: z.array(BulkItem),
  })
  .meta({ id: "BulkResult", description: "Spec v1 section 2.5: one result per item, in request order." });
