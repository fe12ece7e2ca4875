import { wallClock } from "../../domain/lookups/local-time";
import { findPortEntry } from "../../domain/ports/port-directory";
import type { VesselLookupOutcome } from "../../domain/vessels/vessel-positions.service";
import type { VesselPositionReport } from "../../upstream/vessels/vessel-position-provider";
import { builder } from "../builder";
import {
  LookupAllowanceRef,
  LookupInputInvalidRef,
  LookupLimitExceededRef,
  LookupProviderUnavailableRef,
} from "./lookups";
import { loadPort, PortRef } from "./ports";

/** An instant as local wall-clock time without offset ("2026-11-20T14:00:00") in a port's zone. */
function localStyle(at: string | null | undefined, locode: string | null | undefined): string | null {
  if (!at) return null;
  const zone = locode ? (findPortEntry(locode)?.timeZone ?? null) : null;
  return wallClock(new Date(at), zone, "T");
}

const VesselPositionRef = builder.objectRef<VesselPositionReport>("VesselPosition").implement({
  description: "Where a vessel is (v1 section 2.6).",
  fields: (t) => ({
    imo: t.exposeString("imo", { nullable: true }),
    mmsi: t.exposeString("mmsi", { nullable: true }),
    name: t.exposeString("name", { nullable: true }),
    lat: t.exposeFloat("lat"),
    lon: t.exposeFloat("lon"),
    speed: t.exposeFloat("speed", { nullable: true, description: "Speed over ground, knots." }),
    draught: t.exposeFloat("draught", { nullable: true, description: "Metres." }),
    courseOverGround: t.exposeFloat("course", { nullable: true, description: "Degrees." }),
    trueHeading: t.exposeFloat("heading", { nullable: true, description: "Degrees." }),
    navigationStatus: t.exposeString("navigationStatus", {
      nullable: true,
      description: "AIS navigational status, e.g. Under way using engine, Moored, At anchor.",
    }),
    positionAt: t.field({ type: "DateTime", resolve: (p) => new Date(p.positionAt) }),
    timestamp: t.string({
      description: "When the position was reported, UTC, as YYYY-MM-DDTHH:MM:SS (no offset).",
      resolve: (p) => wallClock(new Date(p.positionAt), null, "T"),
    }),
    atd: t.string({
      nullable: true,
      description: "Departure from the origin port, its local time, YYYY-MM-DDTHH:MM:SS (no offset).",
      resolve: (p) => localStyle(p.origin?.at, p.origin?.locode),
    }),
    eta: t.string({
      nullable: true,
      description: "Arrival at the destination port, its local time, YYYY-MM-DDTHH:MM:SS (no offset).",
      resolve: (p) => localStyle(p.destination?.at, p.destination?.locode),
    }),
    originPort: t.string({ nullable: true, resolve: (p) => p.origin?.name ?? null }),
    originLocode: t.string({ nullable: true, resolve: (p) => p.origin?.locode ?? null }),
    destinationPort: t.string({
      nullable: true,
      description: "The port, or the free text an AIS destination gave.",
      resolve: (p) => p.destination?.name ?? null,
    }),
    destinationLocode: t.string({ nullable: true, resolve: (p) => p.destination?.locode ?? null }),
    origin: t.field({
      type: PortRef,
      nullable: true,
      resolve: (p, _a, ctx) => loadPort(ctx, p.origin?.locode),
    }),
    destination: t.field({
      type: PortRef,
      nullable: true,
      resolve: (p, _a, ctx) => loadPort(ctx, p.destination?.locode),
    }),
    source: t.string({ description: "ais or simulator.", resolve: (p) => p.source }),
  }),
});

type Found = Extract<VesselLookupOutcome, { kind: "found" }>;
type NotFound = Extract<VesselLookupOutcome, { kind: "not_found" }>;

const VesselTrackRef = builder.objectRef<Found>("VesselTrack").implement({
  fields: (t) => ({
    position: t.field({ type: VesselPositionRef, resolve: (o) => o.position }),
    cached: t.exposeBoolean("cached", { description: "Served from the 5-minute cache (free)." }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});

const VesselNotFoundRef = builder.objectRef<NotFound>("VesselNotFound").implement({
  description: "No source knows where this vessel is.",
  fields: (t) => ({
    imo: t.string({ resolve: (o) => o.query.imo }),
    mmsi: t.string({ resolve: (o) => o.query.mmsi }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});

const MEMBERS = {
  found: VesselTrackRef,
  not_found: VesselNotFoundRef,
  limit_exceeded: LookupLimitExceededRef,
  unavailable: LookupProviderUnavailableRef,
  invalid: LookupInputInvalidRef,
} as const;

const VesselTrackOutcomeRef = builder.unionType("VesselTrackOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as VesselLookupOutcome).kind],
});

builder.queryFields((t) => ({
  vesselPosition: t.field({
    type: VesselTrackOutcomeRef,
    nullable: true,
    description:
      "Where a vessel is now, by IMO (7 digits) and MMSI (9 digits). Served from a 5-minute cache (free) or spends one lookup of the key's daily vessel-and-schedule allowance.",
    authScopes: { developerMode: true },
    args: { imo: t.arg.string({ required: true }), mmsi: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.lookups.vesselPositions.track(ctx.principal!, { imo: args.imo, mmsi: args.mmsi }),
  }),
}));
