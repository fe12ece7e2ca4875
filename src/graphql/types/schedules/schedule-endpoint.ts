import type { ScheduleEndpoint } from "../../../domain/schedules/model";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { builder } from "../../builder";
import { loadPort, PortRef } from "../ports/port";

export const ScheduleEndpointRef = builder.objectRef<ScheduleEndpoint>("ScheduleEndpoint").implement({
  description:
    "Where a routing starts or ends (v1 `origin`/`destination`: locode, name, country_code, terminal, terminal_code).",
  fields: (t) => ({
    locode: t.exposeString("locode", { nullable: true, description: "UN/LOCODE as the carrier sent it." }),
    name: t.exposeString("name", { nullable: true, description: "Port or place name." }),
    countryCode: t.exposeString("countryCode", { nullable: true }),
    terminal: t.exposeString("terminal", {
      nullable: true,
      description: "Terminal name, when the carrier names one.",
    }),
    terminalCode: t.exposeString("terminalCode", { nullable: true, description: "SMDG terminal code." }),
    localDateTime: t.exposeString("localDateTime", {
      nullable: true,
      description: "YYYY-MM-DD HH:MM:SS, local time at the place.",
    }),
    at: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (e) => (e.instant ? new Date(e.instant) : null),
    }),
    utcOffset: t.string({
      nullable: true,
      description:
        "The clock localDateTime is on: its offset from UTC at that moment, e.g. +01:00, as the carrier gave it; null when localDateTime or at is null.",
      resolve: (e) => utcOffsetOf(e.localDateTime, e.instant),
    }),
    port: t.field({ type: PortRef, nullable: true, resolve: (e, _a, ctx) => loadPort(ctx, e.locode) }),
  }),
});
