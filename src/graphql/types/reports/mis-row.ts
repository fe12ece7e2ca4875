import type { MisRow } from "../../../domain/reports/mis-figures";
import { builder } from "../../builder";
import { ShipmentStatusEnum } from "../tracking/shipment-status";
import { DelayStatusEnum } from "./delay-status";

export const MisRowRef = builder.objectRef<MisRow>("MisRow").implement({
  description: "One shipment of the MIS report with its delay against the first ETA.",
  fields: (t) => ({
    shipmentId: t.exposeString("shipmentId", { description: "SHP-<digits>." }),
    reference: t.exposeString("reference"),
    shipmentType: t.exposeString("type", {
      description: "As v1 shipment_type: Container or Bill of Lading.",
    }),
    sealine: t.exposeString("sealine", { nullable: true, description: "SCAC of the carrier." }),
    status: t.field({ type: ShipmentStatusEnum, resolve: (r) => r.status as never }),
    origin: t.exposeString("origin", { nullable: true }),
    destination: t.exposeString("destination", { nullable: true }),
    atd: t.expose("atd", {
      type: "DateTime",
      nullable: true,
      description: "Departure from the port of loading; null before it happened.",
    }),
    firstEta: t.expose("firstEta", {
      type: "DateTime",
      nullable: true,
      description:
        "The first estimated arrival Quayside recorded; null when the first it saw was the arrival.",
    }),
    eta: t.expose("eta", {
      type: "DateTime",
      nullable: true,
      description: "The current ETA (or the arrival).",
    }),
    ata: t.expose("ata", {
      type: "DateTime",
      nullable: true,
      description: "Vessel arrival at the final port of discharge.",
    }),
    delayDays: t.exposeFloat("delayDays", {
      nullable: true,
      description:
        "Arrival (ATA, else current ETA) minus first ETA, in days, one decimal; negative is early.",
    }),
    delayStatus: t.field({ type: DelayStatusEnum, resolve: (r) => r.delayStatus }),
    customer: t.exposeString("customer", { nullable: true }),
  }),
});
