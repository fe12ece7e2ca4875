import { VESSELS } from "../../../reference-data/vessels";
import type { PrismaClient } from "../../generated/prisma/client";
import type { TrackedVessel, TrackingDocument } from "../tracking/model";
import { normalizeVesselName } from "./vessel-position-provider";

const MMSI = /^\d{9}$/;
const IMO = /^\d{7}$/;

const registerByImo = new Map(VESSELS.map((v) => [v.imo, v]));
const registerByName = new Map(VESSELS.map((v) => [normalizeVesselName(v.name), v]));

/**
 * The MMSI the bundled register gives a ship by IMO number, else null: the vessel's `mmsi` on every
 * surface falls back to it when the stored document has none (a document stored before the register
 * knew the ship, or kept from before this fill existed), so the surfaces agree with what is known now.
 */
export function registeredMmsi(imo: number | null): number | null {
  if (imo === null) return null;
  const mmsi = registerByImo.get(String(imo).padStart(7, "0"))?.mmsi;
  return mmsi !== undefined && MMSI.test(mmsi) ? Number(mmsi) : null;
}

/**
 * Who the ships of a carrier's answer are: the IMO number and MMSI the carrier left out (DCSA Track &
 * Trace 2.2 has no field for the MMSI). From the service's own references, never from the simulator:
 * 1. the AIS ingester's static reports (`vessel_positions`: each MMSI with the IMO number its ship
 *    broadcast, the newest report first), which follow a ship through reflagging;
 * 2. the bundled vessel register (reference-data/vessels.ts), which keeps an MMSI only where a public
 *    source gives one, and supplies the IMO number of a ship the carrier named without one.
 * A ship neither knows keeps `mmsi: null`: a wrong MMSI would point a client at another ship.
 */
export class VesselRegister {
  constructor(private readonly prisma: PrismaClient) {}

  /** The document with every vessel's missing IMO number and MMSI filled where a source knows them. */
  async identify(doc: TrackingDocument): Promise<TrackingDocument> {
    if (doc.vessels.every((v) => v.imo !== null && v.mmsi !== null)) return doc;
    const withImo = doc.vessels.map((v): TrackedVessel => {
      if (v.imo !== null) return v;
      const listed = registerByName.get(normalizeVesselName(v.name));
      return listed ? { ...v, imo: Number(listed.imo) } : v;
    });
    const asked = withImo
      .filter((v) => v.mmsi === null && v.imo !== null)
      .map((v) => String(v.imo).padStart(7, "0"))
      .filter((imo) => IMO.test(imo));
    const broadcast = new Map<string, string>();
    if (asked.length > 0) {
      const rows = await this.prisma.vesselPosition.findMany({
        where: { imo: { in: asked } },
        orderBy: { positionAt: "desc" },
        select: { imo: true, mmsi: true },
      });
      for (const row of rows) {
        if (row.imo !== null && MMSI.test(row.mmsi) && !broadcast.has(row.imo))
          broadcast.set(row.imo, row.mmsi);
      }
    }
    const vessels = withImo.map((v): TrackedVessel => {
      if (v.mmsi !== null || v.imo === null) return v;
      const imo = String(v.imo).padStart(7, "0");
      const mmsi = broadcast.get(imo) ?? registerByImo.get(imo)?.mmsi;
      return mmsi !== undefined && MMSI.test(mmsi) ? { ...v, mmsi: Number(mmsi) } : v;
    });
    return { ...doc, vessels };
  }
}
