import type { PrismaClient } from "../../generated/prisma/client";
import type { AreaVessel } from "./port-area-source";

const HOUR_MS = 3_600_000;
/** A wait whose vessel has not been seen at anchor for this long ended when it was last seen. */
export const LOST_AFTER_MS = 6 * HOUR_MS;
/** A vessel seen alongside again within this time is on the same call (ADB: a gap over 24 h is a new call). */
export const SAME_CALL_MS = 48 * HOUR_MS;

/**
 * Turns one sighting of a port's AIS area into anchorage waits and arrivals: a vessel first seen at
 * anchor opens a wait, seen again extends it, seen alongside closes it (its berthing); a wait whose
 * vessel vanished for 6 hours ended when it was last seen. A vessel's first sighting in the area (at
 * anchor or alongside) is its arrival, whether or not it can berth: bunching counts ships arriving, and a
 * closed port does not stop them coming. Only the vessel's identity and times are kept.
 */
/** How the anchorage moved with one sighting: ships waiting before it and after it. */
export interface AnchorageMove {
  waitingBefore: number;
  waitingNow: number;
  /** Ships that left the anchorage for a berth with this sighting (seen alongside). */
  berthed: number;
}

export async function recordSighting(
  prisma: PrismaClient,
  locode: string,
  vessels: readonly AreaVessel[],
  at: Date,
): Promise<AnchorageMove> {
  const lostBefore = new Date(at.getTime() - LOST_AFTER_MS);
  const keys = vessels.map((v) => v.key);
  const [open, recentArrivals] = await Promise.all([
    prisma.portAnchorageWait.findMany({
      where: { locode, berthedAt: null },
      select: { id: true, vesselKey: true, lastSeenAt: true },
    }),
    keys.length === 0
      ? Promise.resolve([])
      : Promise.all([
          prisma.portArrival.findMany({
            where: {
              locode,
              vesselKey: { in: keys },
              arrivedAt: { gte: new Date(at.getTime() - SAME_CALL_MS) },
            },
            select: { vesselKey: true },
          }),
          prisma.portAnchorageWait.findMany({
            where: {
              locode,
              vesselKey: { in: keys },
              lastSeenAt: { gte: new Date(at.getTime() - SAME_CALL_MS) },
            },
            select: { vesselKey: true },
          }),
        ]).then(([arrivals, waits]) => [...arrivals, ...waits]),
  ]);
  const lost = open.filter((w) => w.lastSeenAt < lostBefore);
  const running = open.filter((w) => w.lastSeenAt >= lostBefore);
  const openByVessel = new Map(running.map((w) => [w.vesselKey, w.id]));
  const anchored = vessels.filter((v) => v.status === "at-anchor").map((v) => v.key);
  const moored = new Set(vessels.filter((v) => v.status === "moored").map((v) => v.key));
  const extended = anchored.flatMap((key) => openByVessel.get(key) ?? []);
  const opened = anchored.filter((key) => !openByVessel.has(key));
  const berthed = running.filter((w) => moored.has(w.vesselKey)).map((w) => w.id);
  // Same call: arrived, or seen waiting, within the last 48 h (a long wait then its berth is one call).
  const sameCall = new Set([...recentArrivals.map((a) => a.vesselKey), ...openByVessel.keys()]);
  const arrived = keys.filter((key) => !sameCall.has(key));
  const writes = [
    ...lost.map((w) =>
      // Lost from view: the wait ended when the vessel was last seen at anchor.
      prisma.portAnchorageWait.update({ where: { id: w.id }, data: { berthedAt: w.lastSeenAt } }),
    ),
    ...(extended.length > 0
      ? [prisma.portAnchorageWait.updateMany({ where: { id: { in: extended } }, data: { lastSeenAt: at } })]
      : []),
    ...(berthed.length > 0
      ? [
          prisma.portAnchorageWait.updateMany({
            where: { id: { in: berthed } },
            // Seen alongside: a berthing (a reopened closure is read from these, reported-stoppages.ts).
            data: { berthedAt: at, lastSeenAt: at, berthSeen: true },
          }),
        ]
      : []),
    ...(opened.length > 0
      ? [
          prisma.portAnchorageWait.createMany({
            data: opened.map((vesselKey) => ({ locode, vesselKey, anchoredAt: at, lastSeenAt: at })),
          }),
        ]
      : []),
    ...(arrived.length > 0
      ? [
          prisma.portArrival.createMany({
            data: arrived.map((vesselKey) => ({ locode, vesselKey, arrivedAt: at })),
            skipDuplicates: true,
          }),
        ]
      : []),
  ];
  // A vessel neither at anchor nor alongside (out of range for a moment) keeps its open wait until
  // LOST_AFTER_MS passes without a sighting: one missed AIS message ends nothing.
  if (writes.length > 0) await prisma.$transaction(writes);
  return { waitingBefore: running.length, waitingNow: anchored.length, berthed: berthed.length };
}
