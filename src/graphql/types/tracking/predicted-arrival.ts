import type { PredictedArrival } from "../../../domain/routes/predictive-eta";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { builder } from "../../builder";

export const PredictedArrivalRef = builder.objectRef<PredictedArrival>("PredictedArrival").implement({
  description:
    "Our arrival estimate at the port of discharge: the last dated departure plus the remaining sea route at 14 knots and a day per call on the way.",
  fields: (t) => ({
    instant: t.field({ type: "DateTime", resolve: (p) => new Date(p.instant) }),
    localDateTime: t.exposeString("localDateTime", {
      description: "Wall-clock time at the port of discharge, YYYY-MM-DD HH:MM:SS.",
    }),
    utcOffset: t.string({
      nullable: true,
      description:
        "The clock localDateTime is on: its offset from UTC at that moment, e.g. +01:00 (+00:00 when the port's time zone is unknown: the time is then UTC's).",
      resolve: (p) => utcOffsetOf(p.localDateTime, p.instant),
    }),
    fromLocationKey: t.exposeString("fromLocationKey", { description: "The call it sails from." }),
    departedAt: t.field({ type: "DateTime", resolve: (p) => new Date(p.departedAt) }),
    distanceNm: t.exposeInt("distanceNm"),
  }),
});
