import { z } from "zod";
import { LAST_FREE_DAY_SOON_DAYS } from "../../../domain/shipments/shipment-free-time";
import { builder } from "../../builder";
import { ShipmentStatusEnum } from "../tracking/shipment-status";

export const ShipmentFilterInput = builder.inputType("ShipmentFilter", {
  description: "Which shipments to list. Every criterion is optional; they combine with AND.",
  fields: (t) => ({
    status: t.field({
      type: [ShipmentStatusEnum],
      required: false,
      description: "Any of these statuses.",
      validate: z.array(z.string()).max(5),
    }),
    active: t.boolean({
      required: false,
      description: "true: still moving (not delivered or cancelled); false: delivered or cancelled.",
    }),
    failed: t.boolean({
      required: false,
      description: "true: no carrier has found the reference yet; false: found.",
    }),
    carrier: t.string({
      required: false,
      description: "SCAC of the carrier that answered, e.g. MAEU.",
      validate: z.string().regex(/^[A-Za-z0-9]{4}$/, "carrier is a 4-character SCAC"),
    }),
    customer: t.string({
      required: false,
      description: "Part of the customer's name, any case.",
      validate: z.string().max(200),
    }),
    reference: t.string({
      required: false,
      description:
        "Part of the container, bill-of-lading or booking number; case, spaces and hyphens ignored.",
      validate: z.string().max(100),
    }),
    etaFrom: t.field({ type: "DateTime", required: false, description: "ETA at or after this instant." }),
    etaTo: t.field({ type: "DateTime", required: false, description: "ETA at or before this instant." }),
    arrivingWithinDays: t.int({
      required: false,
      description:
        "Active shipments whose ETA falls between now and this many days ahead (1 to 365), on the server's clock; narrows etaFrom and etaTo when both are given.",
      validate: z.number().int().min(1).max(365),
    }),
    port: t.string({
      required: false,
      description:
        "UN/LOCODE of a port on the route (place of receipt, loading, discharge or delivery), e.g. NLRTM.",
      validate: z.string().regex(/^[A-Za-z]{2}[A-Za-z2-9]{3}$/, "port is a 5-character UN/LOCODE"),
    }),
    delayed: t.boolean({
      required: false,
      description: "true: arriving later than the carrier's first ETA; false: not delayed.",
    }),
    etaMoved: t.boolean({
      required: false,
      description:
        "true: the carrier's last update moved the estimated arrival by 12 hours or more, either way (ShipmentSummary.etaMoved); false: it did not.",
    }),
    lastFreeDaySoon: t.boolean({
      required: false,
      description: `true: a running demurrage or detention clock's last free day is today or within ${LAST_FREE_DAY_SOON_DAYS} days at the port of discharge and not passed (the overview's "Last free day soon"); false: none is.`,
    }),
    lastFreeDayPassed: t.boolean({
      required: false,
      description:
        "true: a running clock's last free day has passed at the port of discharge (overdue: charges accrue); false: none has.",
    }),
    onHold: t.boolean({
      required: false,
      description:
        "true: a box has a current customs, line (freight), terminal, USDA or other hold from its terminal facts; false: none has.",
    }),
    archived: t.boolean({
      required: false,
      description:
        "true: only the shipments the organisation archived; false or left out: only those not archived (archived ones leave the working list and its counts).",
    }),
  }),
});
