import type { SlotUsage } from "../../../domain/tracking/slots.service";
import { builder } from "../../builder";
import { INTERNAL } from "../../schema-visibility";

export const SlotUsageRef = builder.objectRef<SlotUsage>("SlotUsage").implement({
  description: "Shipment slots of the current billing cycle.",
  fields: (t) => ({
    limit: t.exposeInt("limit", { description: "The cycle's allowance, add-ons included." }),
    used: t.exposeInt("used", { description: "Distinct references tracked this cycle (never goes down)." }),
    held: t.exposeInt("held", { description: "Slots held now: used minus those freed by untracking." }),
    remaining: t.exposeInt("remaining"),
    cycleStart: t.expose("cycleStart", { type: "DateTime" }),
    cycleEnd: t.expose("cycleEnd", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  slotUsage: t.withAuth({ developerMode: true }).field({
    type: SlotUsageRef,
    description:
      "The calling organisation's shipment slots this billing cycle: a read the answer cache keeps until a slot is taken or freed (the organisation's answers are dropped then) or the cycle ends.",
    // The compat facade's usage figures beside a kept answer, not a client's operation.
    extensions: INTERNAL,
    resolve: (_root, _args, ctx) => ctx.services.slots.usage(ctx.principal.organization),
  }),
}));
