import { wallClock } from "../../domain/lookups/local-time";
import { findPortEntry } from "../../domain/ports/port-directory";
import type {
  PortCallReport,
  VesselIdentity,
  VesselPositionReport,
} from "../../domain/vessels/vessel-position-provider";
import type { VesselLookupOutcome } from "../../domain/vessels/vessel-positions.service";
import { builder } from "../builder";
import { UPSTREAM_CALL } from "../limits";
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

/** A port call as an instant, with the port's local wall-clock time when its zone is known. */
const VesselPortCallRef = builder.objectRef<PortCallReport>("VesselPortCall").implement({
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
    port: t.field({ type: PortRef, nullable: true, resolve: (c, _a, ctx) => loadPort(ctx, c.locode) }),
  }),
});

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
    lastPortCall: t.field({
      type: VesselPortCallRef,
      nullable: true,
      description: "The last port left and when (ATD); null when the source does not say (AIS).",
      resolve: (p) => p.origin,
    }),
    nextPortCall: t.field({
      type: VesselPortCallRef,
      nullable: true,
      description: "The port the vessel is bound for and its ETA.",
      resolve: (p) => p.destination,
    }),
    source: t.string({ description: "ais or simulator.", resolve: (p) => p.source }),
  }),
});

type Found = Extract<VesselLookupOutcome, { kind: "found" }>;
type NotFound = Extract<VesselLookupOutcome, { kind: "not_found" }>;
type Ambiguous = Extract<VesselLookupOutcome, { kind: "ambiguous" }>;

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
    imo: t.string({
      nullable: true,
      description: "The IMO number asked; null for a name.",
      resolve: (o) => o.query.imo,
    }),
    mmsi: t.string({ nullable: true, description: "The MMSI asked, if any.", resolve: (o) => o.query.mmsi }),
    name: t.string({
      nullable: true,
      description: "The name asked; null for an IMO number.",
      resolve: (o) => o.query.name,
    }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});

const VesselIdentityRef = builder.objectRef<VesselIdentity>("VesselIdentity").implement({
  description: "A vessel as a position source knows it.",
  fields: (t) => ({
    imo: t.exposeString("imo", { nullable: true, description: "IMO number, 7 digits." }),
    mmsi: t.exposeString("mmsi", { nullable: true, description: "MMSI, 9 digits." }),
    name: t.exposeString("name", { nullable: true }),
  }),
});

const VesselAmbiguousRef = builder.objectRef<Ambiguous>("VesselAmbiguous").implement({
  description:
    "Several vessels bear the name asked (names are not unique): none is chosen. Ask again by IMO number. The lookup reached a source and is spent.",
  fields: (t) => ({
    name: t.string({
      nullable: true,
      description: "The name asked (nullable only to match VesselNotFound.name in one selection).",
      resolve: (o) => o.query.name,
    }),
    candidates: t.field({
      type: [VesselIdentityRef],
      description: "The vessels of that name the first source knowing the name listed (at most 10).",
      resolve: (o) => o.candidates,
    }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});

const MEMBERS = {
  found: VesselTrackRef,
  not_found: VesselNotFoundRef,
  ambiguous: VesselAmbiguousRef,
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
    extensions: UPSTREAM_CALL,
    type: VesselTrackOutcomeRef,
    nullable: true,
    description:
      "Where a vessel is now, by IMO number (7 digits; the MMSI, 9 digits, is optional and helps an AIS source) or by name alone. A name is matched whole, ignoring case, accents, punctuation and spacing; when several vessels bear it the answer is VesselAmbiguous listing them. Served from a 5-minute cache (free) or spends one lookup of the key's daily vessel-and-schedule allowance.",
    authScopes: { developerMode: true },
    args: {
      imo: t.arg.string({ description: "IMO number, 7 digits, e.g. 9811000." }),
      mmsi: t.arg.string({ description: "MMSI, 9 digits; only with imo." }),
      name: t.arg.string({ description: "The vessel's name, e.g. EVER GIVEN; without imo or mmsi." }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.lookups.vesselPositions.track(ctx.principal!, {
        imo: args.imo,
        mmsi: args.mmsi,
        name: args.name,
      }),
  }),
}));
