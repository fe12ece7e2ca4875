import type { PortAreaOutcome, PortAreaSource } from "../../domain/congestion/port-area-source";
import { findPort } from "../../domain/ports/port-directory";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";

/** A port's AIS area: within this distance of the port's coordinates (anchorages lie 5-20 nm out). */
const AREA_KM = 40;
/** Positions older than this are not "now". */
const FRESH_MS = 60 * 60_000;

/**
 * A port's area from the positions the AIS ingester stored (`vessel_positions`): vessels reported in
 * the last hour within 40 km of the port with navigation status at anchor (1) or moored (5). Pitfall
 * (Portcast, LA/LB 2021): a queue can move far offshore, so a vessel whose AIS destination names the
 * port counts at any distance.
 */
export class AisPortAreaProvider implements PortAreaSource {
  readonly name = "ais";

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async vesselsAt(locode: string): Promise<PortAreaOutcome> {
    const port = findPort(locode);
    if (!port || port.lat === null || port.lng === null) return { kind: "unknown-port" };
    const now = this.clock.now();
    const latSpan = AREA_KM / 111;
    const lngSpan = AREA_KM / (111 * Math.max(0.1, Math.cos((port.lat * Math.PI) / 180)));
    try {
      const rows = await this.prisma.vesselPosition.findMany({
        where: {
          positionAt: { gte: new Date(now.getTime() - FRESH_MS) },
          navigationStatus: { in: ["At anchor", "Moored"] },
          OR: [
            {
              lat: { gte: port.lat - latSpan, lte: port.lat + latSpan },
              lon: { gte: port.lng - lngSpan, lte: port.lng + lngSpan },
            },
            { destination: { contains: port.locode, mode: "insensitive" }, navigationStatus: "At anchor" },
          ],
        },
        select: { mmsi: true, name: true, navigationStatus: true },
      });
      return {
        kind: "seen",
        at: now,
        vessels: rows.map((r) => ({
          key: r.mmsi,
          name: r.name,
          status: r.navigationStatus === "At anchor" ? ("at-anchor" as const) : ("moored" as const),
        })),
      };
    } catch (error) {
      return { kind: "unavailable", reason: `AIS positions unreadable: ${(error as Error).message}` };
    }
  }
}
