/**
 * The sandbox world's disruptions: a fixed set of news items about the world's own shipments (the
 * port of discharge of the first one in transit, a port of another, a chokepoint its routes pass, its
 * carrier), run through the real pipeline at start-up with fixed ids, so every sandbox disruption
 * endpoint answers 200 with data that touches the sandbox's shipments.
 */
import { CARRIERS } from "../domain/carriers/carrier-directory";
import { exposureOf } from "../domain/disruptions/exposure";
import { findChokepoint } from "../domain/disruptions/gazetteer";
import type { FeedItem } from "../domain/disruptions/normalise";
import { findPort } from "../domain/ports/port-directory";
import type { TrackingDocument } from "../domain/tracking/model";
import type { Services } from "./services";

/** The events' ids, in the order the pipeline creates them (fixed: the sandbox is deterministic). */
export const SANDBOX_DISRUPTION_IDS = [1, 2, 3, 4, 5, 6, 7, 8].map(
  (n) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
);

const HOUR = 3_600_000;

function portName(locode: string): string {
  return (findPort(locode)?.name ?? locode).replace(/\s*\(.*\)$/, "");
}

export async function seedSandboxDisruptions(
  services: Services,
  organizationId: string,
  now: Date,
): Promise<void> {
  const rows = await services.db.prisma.shipment.findMany({
    where: { organizationId, status: "IN_TRANSIT", deletedAt: null, documentId: { not: null } },
    orderBy: { number: "asc" },
    select: { carrierScac: true, document: { select: { id: true, latestVersion: true } } },
  });
  const exposures = [];
  for (const row of rows) {
    if (!row.document) continue;
    const version = await services.db.prisma.documentVersion.findUnique({
      where: { documentId_version: { documentId: row.document.id, version: row.document.latestVersion } },
      select: { content: true },
    });
    if (version) exposures.push(exposureOf(version.content as unknown as TrackingDocument, row.carrierScac));
  }
  const first = exposures[0];
  const second = exposures[1] ?? first;
  const discharge = first?.portOfDischarge ?? "NLRTM";
  const other = second?.transshipmentPorts[0] ?? second?.portOfLoading ?? "SGSIN";
  const lane = exposures.flatMap((e) => e.chokepoints)[0] ?? "suez_canal";
  const laneName = findChokepoint(lane)?.name ?? "Suez Canal";
  // The line carrying the first shipment, so the carrier filter and a `carrier` match have data.
  const carrierScac = first?.carrierScac ?? "MAEU";
  const carrierName = CARRIERS.find((c) => c.scac === carrierScac)?.name ?? carrierScac;
  const at = (hoursBefore: number) => new Date(now.getTime() - hoursBefore * HOUR);
  const item = (
    n: number,
    {
      publisher,
      hoursBefore,
      title,
      summary,
    }: { publisher: string; hoursBefore: number; title: string; summary: string },
  ): FeedItem => ({
    sourceId: `sandbox-${publisher.toLowerCase().replace(/\W+/g, "-")}`,
    publisher,
    guid: `sandbox-${n}`,
    link: `https://news.example/sandbox/${n}`,
    title,
    summary,
    publishedAt: at(hoursBefore),
  });
  const d = portName(discharge);
  const o = portName(other);
  const items: FeedItem[] = [
    item(1, {
      publisher: "Harbour Wire",
      hoursBefore: 30,
      title: `Typhoon closes the Port of ${d}`,
      summary: `Terminals at the Port of ${d} suspended operations as the storm approached.`,
    }),
    item(2, {
      publisher: "Quay Ledger",
      hoursBefore: 26,
      title: `Port of ${d} stays shut as typhoon winds persist`,
      summary: "Vessels wait at anchor while cranes are secured.",
    }),
    item(3, {
      publisher: "Box Trade Daily",
      hoursBefore: 20,
      title: `Carriers warn of delays after typhoon closure at Port of ${d}`,
      summary: "Lines expect knock-on delays of two to three days.",
    }),
    item(4, {
      publisher: "Harbour Wire",
      hoursBefore: 28,
      title: `Dockworkers strike at the Port of ${o}`,
      summary: `A walkout by dockworkers halted container handling at the Port of ${o}.`,
    }),
    item(5, {
      publisher: "Quay Ledger",
      hoursBefore: 22,
      title: `Strike at Port of ${o} enters second day`,
      summary: "The union and employers remain apart.",
    }),
    item(6, {
      publisher: "Box Trade Daily",
      hoursBefore: 40,
      title: `${laneName} transits slowed by draft restrictions`,
      summary: `Operators report restricted transits through the ${laneName} this week.`,
    }),
    item(7, {
      publisher: "Freight Index Weekly",
      hoursBefore: 36,
      title: "Asia-Europe spot rates climb for a third week",
      summary: "Index compilers report higher spot rates on the main east-west lanes.",
    }),
    item(8, {
      publisher: "Harbour Wire",
      hoursBefore: 60,
      title: "Port of Rotterdam congestion delays container pickups",
      summary: "Yard congestion at the Port of Rotterdam is delaying pickups.",
    }),
    item(9, {
      publisher: "Harbour Wire",
      hoursBefore: 34,
      title: "Port of Rotterdam congestion eased; operations back to normal",
      summary: "Yard space at the Port of Rotterdam is back to normal levels.",
    }),
    // Last, so the events above keep their fixed ids.
    item(10, {
      publisher: "Liner Notes",
      hoursBefore: 18,
      title: `${carrierName} announces blank sailings on its Asia-Europe loop`,
      summary: "The carrier confirmed a service suspension for four weeks, citing weak bookings.",
    }),
  ];
  for (const publisher of [...new Set(items.map((i) => i.publisher))]) {
    await services.disruptions.ingest(
      {
        id: `sandbox-${publisher.toLowerCase().replace(/\W+/g, "-")}`,
        publisher,
        kind: "news",
        authoritative: false,
      },
      items.filter((i) => i.publisher === publisher),
    );
  }
}
