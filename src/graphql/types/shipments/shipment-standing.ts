import { findCarrierByScac } from "../../../domain/carriers/carrier-directory";
import { discoveryStatusOf } from "../../../domain/shipments/carrier-discovery";
import { failureExplanation, isShareable } from "../../../domain/shipments/shipment-standing";
import { builder } from "../../builder";
import { CarrierRef } from "../carriers/carrier";
import { ShipmentRef } from "./shipment";

/** What a page needs to know to offer an action or state a fact, decided here rather than by the page. */
builder.prismaObjectFields(ShipmentRef, (t) => ({
  confirmedCarrier: t.field({
    type: CarrierRef,
    nullable: true,
    description:
      "The carrier that answered for this shipment, or the one the caller named; null while no carrier has found it and the carrier is only detected (a guess is not shown as a fact).",
    resolve: (s, _a, ctx) =>
      s.carrierScac && (s.failedAt === null || s.carrierProvided)
        ? (findCarrierByScac(s.carrierScac, ctx.services.carriers) ?? null)
        : null,
  }),
  failureExplanation: t.string({
    nullable: true,
    description:
      "For a shipment no carrier has found: what happened and what to do, in plain words. Null when a carrier has found it.",
    resolve: (s, _a, ctx) => {
      if (s.failedAt === null) return null;
      const named =
        s.carrierProvided && s.carrierScac ? findCarrierByScac(s.carrierScac, ctx.services.carriers) : null;
      return failureExplanation({
        reference: s.reference,
        namedCarrier: s.carrierProvided ? (named?.name ?? s.carrierScac) : null,
        discoveryStatus: discoveryStatusOf(s.discoveryStatus),
        triedCarriers: s.triedCarriers,
      });
    },
  }),
  shareable: t.boolean({
    description:
      "True when a share link would show a page: a carrier has answered (a stored journey exists) and the shipment is still tracked. A link created otherwise answers 404.",
    resolve: (s) => isShareable(s),
  }),
  untrackableByViewer: t.boolean({
    description:
      "True when the asking user may untrack (or correct) it: only the user who added a shipment may, teammates read it.",
    resolve: (s, _a, ctx) => ctx.principal !== null && s.addedByUserId === ctx.principal.user.id,
  }),
}));
