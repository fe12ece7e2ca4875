import { DELAY_STATUSES } from "../../../domain/reports/mis-figures";
import { builder } from "../../builder";

export const DelayStatusEnum = builder.enumType("DelayStatus", {
  description:
    "A shipment's arrival against the first ETA Quayside recorded for it: delayed more than a day late, early more than a day early, on_time within a day either way, unknown without a first ETA or an arrival (or cancelled).",
  values: DELAY_STATUSES,
});
