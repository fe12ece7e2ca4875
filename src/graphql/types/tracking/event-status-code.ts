import type { COMPAT_STATUS_CODES } from "../../../domain/tracking/model";
import { builder } from "../../builder";

export const EventStatusCodeEnum = builder.enumType("EventStatusCode", {
  description:
    "What the event means for the journey, in the status vocabulary of the compatibility API (also v1's event status).",
  values: {
    CEP: { description: "Empty container to the shipper." },
    CPS: { description: "Container picked up at the shipper." },
    CGI: { description: "Gated in at the first port of loading." },
    CLL: { description: "Loaded at the first port of loading." },
    VDL: { description: "Vessel departed from the first port of loading." },
    VAT: { description: "Vessel arrived at a transshipment port." },
    CDT: { description: "Discharged at a transshipment port." },
    TSD: { description: "Transshipment delay." },
    CLT: { description: "Loaded at a transshipment port." },
    VDT: { description: "Vessel departed from a transshipment port." },
    VAD: { description: "Vessel arrived at the final port of discharge." },
    CDD: { description: "Discharged at the final port of discharge." },
    CGO: { description: "Gated out of the final port of discharge." },
    CDC: { description: "Delivered to the consignee." },
    CER: { description: "Empty container returned to the depot." },
    LTS: { description: "Land transshipment (a rail or truck leg change)." },
    BTS: { description: "Barge transshipment." },
    UNK: { description: "Unknown." },
  } satisfies Record<(typeof COMPAT_STATUS_CODES)[number], { description: string }>,
});
