import { shipmentName } from "../../../domain/shipments/shipment-id";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { ShipmentNotFoundRef } from "./shipment-not-found";

/**
 * Archive (issue 38): a shipment put aside leaves the working list and the exceptions but stays
 * tracked (docs/decisions/dashboard-exceptions.md).
 */
builder.prismaObjectFields("Shipment", (t) => ({
  archived: t.boolean({
    description:
      "True when the organisation archived it: out of the default list and the exception counts, still tracked.",
    resolve: (s) => s.archivedAt !== null,
  }),
  archivedAt: t.field({
    type: "DateTime",
    nullable: true,
    description: "When it was archived; null while it is in the working list.",
    resolve: (s) => s.archivedAt,
  }),
}));

const ShipmentArchiveChangedRef = builder
  .objectRef<{ name: string; archived: boolean }>("ShipmentArchiveChanged")
  .implement({
    description: "The shipment's archive state after the change (the same when it already was).",
    fields: (t) => ({
      shipmentId: t.exposeString("name", { description: "The real SHP id of the row, whatever was sent." }),
      archived: t.exposeBoolean("archived"),
    }),
  });

const ArchiveShipmentResultRef = builder.unionType("ArchiveShipmentResult", {
  types: [ShipmentArchiveChangedRef, ShipmentNotFoundRef],
  resolveType: (v) => ("archived" in (v as object) ? ShipmentArchiveChangedRef : ShipmentNotFoundRef),
});

builder.mutationFields((t) => ({
  archiveShipment: t.withAuth(WRITE_SCOPES).field({
    type: ArchiveShipmentResultRef,
    nullable: true,
    description:
      "Archives a shipment of the organisation (archived: true) or brings it back (false). Any teammate who may write: it changes which list shows it, not its tracking, slot or share link.",
    args: { id: t.arg.string({ required: true }), archived: t.arg.boolean({ required: true }) },
    resolve: async (_r, { id, archived }, ctx) => {
      const changed = await ctx.services.shipments.setArchived(ctx.principal, id, archived);
      return changed ? { name: shipmentName(changed.number), archived: changed.archivedAt !== null } : { id };
    },
  }),
}));
