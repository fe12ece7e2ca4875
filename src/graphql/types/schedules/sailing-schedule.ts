import { findCarrierByScac } from "../../../domain/carriers/carrier-directory";
import { type ScheduleItem, transitTypeOf } from "../../../domain/schedules/model";
import { builder } from "../../builder";
import { ScheduleEndpointRef } from "./schedule-endpoint";
import { ScheduleVesselRef } from "./schedule-vessel";
import { TransitTypeEnum } from "./transit-type";

export const SailingScheduleRef = builder.objectRef<ScheduleItem>("SailingSchedule").implement({
  description: "One routing of a carrier between two ports (v1 section 2.7).",
  fields: (t) => ({
    sealine: t.exposeString("scac", { description: "SCAC of the carrier whose schedule this is." }),
    sealineName: t.string({
      resolve: (s, _a, ctx) => findCarrierByScac(s.scac, ctx.services.carriers)?.name ?? s.scac,
    }),
    serviceName: t.exposeString("serviceName", { nullable: true }),
    serviceCode: t.exposeString("serviceCode", { nullable: true }),
    voyage: t.exposeString("voyage", {
      nullable: true,
      description: "Export voyage number of the first vessel leg.",
    }),
    vessel: t.field({ type: ScheduleVesselRef, nullable: true, resolve: (s) => s.vessel }),
    origin: t.field({ type: ScheduleEndpointRef, resolve: (s) => s.origin }),
    destination: t.field({ type: ScheduleEndpointRef, resolve: (s) => s.destination }),
    departureDate: t.string({
      nullable: true,
      description: "YYYY-MM-DD HH:MM:SS, local time at the origin.",
      resolve: (s) => s.origin.localDateTime,
    }),
    arrivalDate: t.string({
      nullable: true,
      description: "YYYY-MM-DD HH:MM:SS, local time at the destination.",
      resolve: (s) => s.destination.localDateTime,
    }),
    duration: t.int({ description: "Transit time in whole days.", resolve: (s) => s.transitDays }),
    transitType: t.field({ type: TransitTypeEnum, resolve: (s) => transitTypeOf(s) }),
    transshipmentPorts: t.exposeStringList("transshipmentPorts"),
  }),
});
