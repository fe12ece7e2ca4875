import { z } from "zod";
import type { MisFilter } from "../../../domain/reports/mis-report.service";
import { builder } from "../../builder";
import { ShipmentStatusEnum } from "../tracking/shipment-status";
import { DelayStatusEnum } from "./delay-status";

export const MIS_SHIPMENT_TYPES = ["Container", "Bill of Lading"] as const;

export const MisFilterInput = builder.inputType("MisFilter", {
  description:
    "Which shipments the MIS report covers (totals, carriers and rows alike). Every criterion is optional; they combine with AND.",
  fields: (t) => ({
    status: t.field({ type: ShipmentStatusEnum, required: false, description: "The journey's status." }),
    delayStatus: t.field({ type: DelayStatusEnum, required: false }),
    shipmentType: t.string({
      required: false,
      description: "As v1 shipment_type: Container, or Bill of Lading (bookings included).",
      validate: z.enum(MIS_SHIPMENT_TYPES, { message: "shipmentType is Container or Bill of Lading" }),
    }),
    sealine: t.string({
      required: false,
      description: "SCAC of the carrier, e.g. MAEU.",
      validate: z.string().regex(/^[A-Za-z0-9]{4}$/, "sealine is a 4-character SCAC"),
    }),
    q: t.string({
      required: false,
      description:
        "Part of the container, bill-of-lading or booking number (case, spaces and hyphens ignored), an SHP id, or part of the customer, origin or destination.",
      validate: z.string().max(100, "q is at most 100 characters"),
    }),
  }),
});

type FilterArgument =
  | {
      status?: string | null;
      delayStatus?: MisFilter["delayStatus"] | null;
      shipmentType?: string | null;
      sealine?: string | null;
      q?: string | null;
    }
  | null
  | undefined;

/** The GraphQL filter as the domain's (nulls dropped). */
export function misFilterOf(f: FilterArgument): MisFilter {
  return {
    status: (f?.status ?? undefined) as MisFilter["status"],
    delayStatus: f?.delayStatus ?? undefined,
    shipmentType: (f?.shipmentType ?? undefined) as MisFilter["shipmentType"],
    sealine: f?.sealine ?? undefined,
    q: f?.q?.trim() || undefined,
  };
}
