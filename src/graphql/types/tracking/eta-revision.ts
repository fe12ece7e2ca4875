import type { etaRevisions } from "../../../domain/tracking/eta-revisions";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { builder } from "../../builder";

export const EtaRevisionRef = builder
  .objectRef<ReturnType<typeof etaRevisions>[number]>("EtaRevision")
  .implement({
    fields: (t) => ({
      eta: t.field({ type: "DateTime", resolve: (r) => new Date(r.eta) }),
      localDateTime: t.exposeString("localDateTime", {
        description: "The same arrival as wall-clock time at the port of discharge, YYYY-MM-DD HH:MM:SS.",
      }),
      utcOffset: t.string({
        nullable: true,
        description:
          "The clock localDateTime is on: its offset from UTC at that moment, e.g. +01:00 (+00:00 when the port's time zone is unknown: the time is then UTC's).",
        resolve: (r) => utcOffsetOf(r.localDateTime, r.eta),
      }),
      recordedAt: t.field({ type: "DateTime", resolve: (r) => new Date(r.recordedAt) }),
      actual: t.exposeBoolean("actual"),
      changeHours: t.exposeInt("changeHours", {
        description:
          "Whole hours this revision moved the arrival against the one before (positive later, negative earlier); 0 for the first.",
      }),
    }),
  });
