import { findPortEntry } from "../../domain/ports/port-directory";
import {
  normalizeVesselName,
  type PortCallReport,
  type VesselIdentity,
  type VesselPositionOutcome,
  type VesselPositionProvider,
  type VesselQuery,
} from "../../domain/vessels/vessel-position-provider";
import type { PrismaClient, VesselPosition } from "../../generated/prisma/client";

/** Rows read to compare names in memory (the table holds one row per MMSI). */
const NAME_SCAN_LIMIT = 500;
/** Vessels listed when a name is ambiguous. */
const MAX_CANDIDATES = 10;

/**
 * Positions the AIS ingester stored (`vessel_positions`), by MMSI, else by IMO (the MMSI changes with a
 * ship's flag; with the IMO alone, the latest report of that IMO). A stored row whose IMO contradicts the
 * one asked is another ship: not found. By name: the rows whose broadcast name is the name asked (see
 * `normalizeVesselName`), one vessel per IMO (else per MMSI); several vessels are `ambiguous`. AIS carries
 * no origin or departure time; its destination is free text typed by the crew, resolved to a port when it
 * reads as a UN/LOCODE ("NLRTM", "NL RTM", "CNSHA>NLRTM").
 */
export class AisPositionsProvider implements VesselPositionProvider {
  readonly name = "ais";

  constructor(private readonly prisma: PrismaClient) {}

  async locate(query: VesselQuery): Promise<VesselPositionOutcome> {
    try {
      if ("name" in query) return await this.locateByName(query.name);
      const byMmsi = query.mmsi
        ? await this.prisma.vesselPosition.findUnique({ where: { mmsi: query.mmsi } })
        : null;
      const row =
        byMmsi && (byMmsi.imo === null || byMmsi.imo === query.imo)
          ? byMmsi
          : await this.prisma.vesselPosition.findFirst({
              where: { imo: query.imo },
              orderBy: { positionAt: "desc" },
            });
      if (!row) return { kind: "not-found" as const };
      return { kind: "found" as const, position: toReport(row) };
    } catch (error) {
      return {
        kind: "unavailable" as const,
        reason: `AIS positions unreadable: ${(error as Error).message}`,
      };
    }
  }

  private async locateByName(name: string): Promise<VesselPositionOutcome> {
    const wanted = normalizeVesselName(name);
    // The longest word narrows the scan in SQL; the whole name is compared here, normalised.
    const word = wanted.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
    if (!word) return { kind: "not-found" };
    const rows = await this.prisma.vesselPosition.findMany({
      where: { name: { contains: word, mode: "insensitive" } },
      orderBy: { positionAt: "desc" },
      take: NAME_SCAN_LIMIT,
    });
    // Newest first, so the first row of a vessel is its latest report.
    const vessels = new Map<string, VesselPosition>();
    for (const row of rows) {
      if (!row.name || normalizeVesselName(row.name) !== wanted) continue;
      const key = row.imo ? `imo:${row.imo}` : `mmsi:${row.mmsi}`;
      if (!vessels.has(key)) vessels.set(key, row);
    }
    const found = [...vessels.values()];
    if (found.length === 0) return { kind: "not-found" };
    if (found.length === 1) return { kind: "found", position: toReport(found[0]!) };
    return {
      kind: "ambiguous",
      candidates: found
        .slice(0, MAX_CANDIDATES)
        .map((row): VesselIdentity => ({ imo: row.imo, mmsi: row.mmsi, name: row.name })),
    };
  }
}

export function toReport(row: VesselPosition) {
  return {
    imo: row.imo,
    mmsi: row.mmsi,
    name: row.name,
    lat: row.lat,
    lon: row.lon,
    speed: row.speed,
    course: row.course,
    heading: row.heading,
    draught: row.draught,
    navigationStatus: row.navigationStatus,
    positionAt: row.positionAt.toISOString(),
    origin: null,
    destination: aisDestination(row.destination, row.eta, row.positionAt),
    source: "ais" as const,
  };
}

/** A crew-typed AIS destination and its yearless UTC ETA ("09-07T16:00") as a port call. */
export function aisDestination(
  text: string | null,
  eta: string | null,
  reportedAt: Date,
): PortCallReport | null {
  if (!text && !eta) return null;
  const locode = destinationLocode(text);
  const port = locode ? findPortEntry(locode) : undefined;
  return {
    locode: port?.locode ?? locode,
    name: port?.name ?? text,
    at: etaInstant(eta, reportedAt),
  };
}

export function destinationLocode(text: string | null): string | null {
  if (!text) return null;
  const last =
    text
      .toUpperCase()
      .split(/>|=>|->/)
      .pop()
      ?.trim() ?? "";
  const match = /^([A-Z]{2})[\s_-]?([A-Z2-9]{3})$/.exec(last);
  return match ? `${match[1]}${match[2]}` : null;
}

/** The first moment matching month-day hour:minute (UTC) from about a month before the report on. */
export function etaInstant(eta: string | null, reportedAt: Date): string | null {
  const match = eta ? /^(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(eta) : null;
  if (!match) return null;
  const [, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number];
  const year = reportedAt.getUTCFullYear();
  for (const y of [year - 1, year, year + 1]) {
    const at = Date.UTC(y, month - 1, day, hour, minute);
    const check = new Date(at);
    if (check.getUTCMonth() !== month - 1) continue;
    if (at >= reportedAt.getTime() - 30 * 86_400_000) return check.toISOString();
  }
  return null;
}
