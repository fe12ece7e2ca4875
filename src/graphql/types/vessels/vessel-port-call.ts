import { wallClock } from "../../../domain/lookups/local-time";
import { findPortEntry } from "../../../domain/ports/port-directory";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import type { PortCallReport } from "../../../domain/vessels/vessel-position-provider";
import { builder } from "../../builder";
import { loadPort, PortRef } from "../ports/port";

/** A port call as an instant, with the port's local wall-clock time when its zone is known. */
export const VesselPortCallRef = builder.objectRef<PortCallReport>("VesselPortCall").implement({
  description:
    "A port call of a vessel: the last port left (at is the ATD) or the port it is bound for (at is the ETA).",
  fields: (t) => ({
    locode: t.exposeString("locode", {
      nullable: true,
      description: "UN/LOCODE, when the source gives one.",
    }),
    name: t.exposeString("name", {
      nullable: true,
      description: "The port's name, or the free text an AIS destination gave.",
    }),
    at: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => (c.at ? new Date(c.at) : null),
    }),
    localDateTime: t.string({
      nullable: true,
      description:
        "The same moment as the port's local time, YYYY-MM-DD HH:MM:SS; null when the port or its time zone is unknown.",
      resolve: (c) => {
        const zone = c.locode ? (findPortEntry(c.locode)?.timeZone ?? null) : null;
        return c.at && zone ? wallClock(new Date(c.at), zone) : null;
      },
    }),
    utcOffset: t.string({
      nullable: true,
      description:
        "The clock localDateTime is on: the port's offset from UTC at that moment, e.g. +01:00; null when localDateTime is null.",
      resolve: (c) => {
        const zone = c.locode ? (findPortEntry(c.locode)?.timeZone ?? null) : null;
        return c.at && zone ? utcOffsetOf(wallClock(new Date(c.at), zone), c.at) : null;
      },
    }),
    port: t.field({ type: PortRef, nullable: true, resolve: (c, _a, ctx) => loadPort(ctx, c.locode) }),
  }),
});
