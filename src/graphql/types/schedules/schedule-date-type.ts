import { SCHEDULE_DATE_TYPES } from "../../../domain/schedules/schedules.service";
import { builder } from "../../builder";

export const ScheduleDateTypeEnum = builder.enumType("ScheduleDateType", {
  description:
    "Whether a schedule search's window is on departures from the origin or arrivals at the destination.",
  values: SCHEDULE_DATE_TYPES,
});
