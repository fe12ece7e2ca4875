import { wallClock } from "../../../domain/lookups/local-time";
import { findPortEntry } from "../../../domain/ports/port-directory";
import type { VesselPositionReport } from "../../../domain/vessels/vessel-position-provider";
import { builder } from "../../builder";
import { loadPort, PortRef } from "../ports/port";
import { PositionSourceEnum } from "./position-source";
import { VesselPortCallRef } from "./vessel-port-call";

/** An instant as local wall-clock time without offset ("2026-11-20T14:00:00") in a port's zone. */
function localStyle(at: string | null | undefined, locode: string | null | undefined): string | null {
  if (!at) return null;
  const zone = locode ? (findPortEntry(locode)?.timeZone ?? null) : null;
  return wallClock(new Date(at), zone, "T");
}

export const VesselPositionRef = builder.objectRef<VesselPositionReport>("VesselPosition").implement({
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
      description:
        "AIS navigational status as text, e.g. Under way using engine, Moored, At anchor (the source's own words: a source other than AIS may send its own).",
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
    source: t.field({ type: PositionSourceEnum, resolve: (p) => p.source }),
  }),
});
