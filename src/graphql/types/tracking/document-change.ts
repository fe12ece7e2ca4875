import type { DocumentChange } from "../../../domain/tracking/document-diff";
import { builder } from "../../builder";
import { DocumentChangeKindEnum } from "./document-change-kind";
import { EventCodeEnum } from "./event-code";
import { ShipmentStatusEnum } from "./shipment-status";

/** One change, flat: each kind fills the fields its description names, the others are null. */
export const DocumentChangeRef = builder.objectRef<DocumentChange>("DocumentChange").implement({
  description: "A change between two stored versions of a document, as the webhooks report it.",
  fields: (t) => ({
    kind: t.field({ type: DocumentChangeKindEnum, resolve: (c) => c.kind }),
    statusFrom: t.field({
      type: ShipmentStatusEnum,
      nullable: true,
      resolve: (c) => (c.kind === "status" ? c.from : null),
    }),
    statusTo: t.field({
      type: ShipmentStatusEnum,
      nullable: true,
      resolve: (c) => (c.kind === "status" ? c.to : null),
    }),
    etaFrom: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => (c.kind === "eta" && c.from ? new Date(c.from) : null),
    }),
    etaTo: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => (c.kind === "eta" && c.to ? new Date(c.to) : null),
    }),
    at: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => {
        const at = c.kind === "vessel_arrived" ? c.ata : c.kind === "delivered" ? c.at : null;
        return at ? new Date(at) : null;
      },
    }),
    container: t.string({ nullable: true, resolve: (c) => ("container" in c ? c.container : null) }),
    eventCode: t.field({
      type: EventCodeEnum,
      nullable: true,
      resolve: (c) => ("eventCode" in c ? c.eventCode : null),
    }),
    locationKey: t.string({ nullable: true, resolve: (c) => ("locationKey" in c ? c.locationKey : null) }),
    actual: t.boolean({ nullable: true, resolve: (c) => (c.kind === "event_added" ? c.actual : null) }),
  }),
});
