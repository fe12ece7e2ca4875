import type { SlotUsage } from "../../../domain/tracking/slots.service";
import { builder } from "../../builder";

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
