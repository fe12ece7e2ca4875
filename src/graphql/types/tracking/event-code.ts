import type { EVENT_CODES } from "../../../domain/tracking/model";
import { builder } from "../../builder";

export const EventCodeEnum = builder.enumType("EventCode", {
  description:
    "DCSA Track & Trace event code. Container.events returns PICK, GTIN, GTOT, LOAD, DEPA, ARRI and DISC; the others only with includeHidden: true.",
  values: {
    PICK: { description: "Picked up." },
    GTIN: { description: "Gated in at a terminal or depot." },
    GTOT: { description: "Gated out of a terminal or depot." },
    LOAD: { description: "Loaded onto the vessel or vehicle." },
    DEPA: { description: "The vessel or vehicle departed." },
    ARRI: { description: "The vessel or vehicle arrived." },
    DISC: { description: "Discharged from the vessel or vehicle." },
    DROP: { description: "Dropped off (e.g. delivered to the consignee); hidden." },
    STUF: { description: "Stuffed (packed); hidden." },
    STRP: { description: "Stripped (unpacked); hidden." },
    INSP: { description: "Inspected; hidden." },
    RSEA: { description: "Resealed; hidden." },
    RMVD: { description: "Removed; hidden." },
  } satisfies Record<(typeof EVENT_CODES)[number], { description: string }>,
});
