import { findCarrierByScac } from "../../domain/carriers/carrier-directory";
import type { ScheduleEndpoint, ScheduleItem } from "../../domain/schedules/model";
import type { ScheduleOutcome } from "../../domain/schedules/schedules.service";
import { builder } from "../builder";
import { LIST_SIZE, UPSTREAM_CALL } from "../limits";
import {
  LookupAllowanceRef,
  LookupInputInvalidRef,
  LookupLimitExceededRef,
  LookupProviderUnavailableRef,
} from "./lookups";
import { loadPort, PortRef } from "./ports";

const ScheduleVesselRef = builder
  .objectRef<{ name: string | null; imo: string | null }>("ScheduleVessel")
  .implement({
    description: "The ship of the first vessel leg (v1 `vessel`: name, imo).",
    fields: (t) => ({
      name: t.exposeString("name", { nullable: true }),
      imo: t.exposeString("imo", { nullable: true, description: "IMO number, 7 digits." }),
    }),
  });

const ScheduleEndpointRef = builder.objectRef<ScheduleEndpoint>("ScheduleEndpoint").implement({
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
    port: t.field({ type: PortRef, nullable: true, resolve: (e, _a, ctx) => loadPort(ctx, e.locode) }),
  }),
});

const SailingScheduleRef = builder.objectRef<ScheduleItem>("SailingSchedule").implement({
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
    transitType: t.string({
      description: "transshipment when the cargo changes ship, else unspecified.",
      resolve: (s) => (s.vesselLegs > 1 ? "transshipment" : "unspecified"),
    }),
    transshipmentPorts: t.exposeStringList("transshipmentPorts"),
  }),
});

type Found = Extract<ScheduleOutcome, { kind: "found" }>;

const SailingSchedulesRef = builder.objectRef<Found>("SailingSchedules").implement({
  fields: (t) => ({
    items: t.field({
      type: [SailingScheduleRef],
      extensions: LIST_SIZE(200),
      resolve: (o) => o.answer.items,
    }),
    total: t.int({ resolve: (o) => o.answer.items.length }),
    cached: t.exposeBoolean("cached", { description: "Served from the 30-minute cache (free)." }),
    carriersAsked: t.stringList({ resolve: (o) => o.answer.carriersAsked }),
    carriersUnavailable: t.stringList({
      description: "Carriers whose schedules could not be read: their sailings are missing.",
      resolve: (o) => o.answer.carriersUnavailable,
    }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});

const MEMBERS = {
  found: SailingSchedulesRef,
  limit_exceeded: LookupLimitExceededRef,
  unavailable: LookupProviderUnavailableRef,
  invalid: LookupInputInvalidRef,
} as const;

const SailingSchedulesOutcomeRef = builder.unionType("SailingSchedulesOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as ScheduleOutcome).kind],
});

const ScheduleDateTypeEnum = builder.enumType("ScheduleDateType", {
  values: ["departure", "arrival"] as const,
});

builder.queryFields((t) => ({
  sailingSchedules: t.field({
    extensions: UPSTREAM_CALL,
    type: SailingSchedulesOutcomeRef,
    nullable: true,
    description:
      "Carriers' point-to-point sailings between two ports (DCSA Commercial Schedules), departing (or arriving) from `date` over `weekRange` weeks. Served from a 30-minute cache (free) or spends one lookup of the key's daily vessel-and-schedule allowance.",
    authScopes: { developerMode: true },
    args: {
      origin: t.arg.string({ required: true, description: "UN/LOCODE, e.g. CNSHA." }),
      destination: t.arg.string({ required: true, description: "UN/LOCODE, e.g. NLRTM." }),
      date: t.arg.string({ required: true, description: "YYYY-MM-DD." }),
      weekRange: t.arg.int({ required: false, defaultValue: 1, description: "1 to 6 weeks." }),
      dateType: t.arg({ type: ScheduleDateTypeEnum, required: false, defaultValue: "departure" }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.lookups.schedules.search(ctx.principal!, {
        origin: args.origin,
        destination: args.destination,
        date: args.date,
        weekRange: args.weekRange ?? 1,
        dateType: args.dateType ?? "departure",
      }),
  }),
}));
