import type { PrismaClient } from "../../generated/prisma/client";
import { featureAccess } from "../accounts/principal";
import type { DocumentStore } from "../tracking/document-store";
import type { DndService } from "./dnd.service";

/**
 * One last free day per box (issue 43 item 4): the terminal's when its record gives one (the line's
 * day, else the terminal's: what the box is charged from), otherwise the day counted from the
 * resolved tariff, always with its source. The D&D assessment applies the rule
 * (`givenLastFreeDay` in `runClock`), so GraphQL, v1, MCP and the dashboard show the same day; this
 * module gives mail the same answer for one shipment.
 */
export interface BoxLastFreeDayFact {
  container: string;
  lastFreeDay: string;
  source: "terminal" | "tariff";
  /** UN/LOCODE of the port of discharge: its zone says when the day ends. */
  portLocode: string | null;
  /** The box has left the port: its last free day no longer matters. */
  gatedOut: boolean;
}

export const SOURCE_WORDS = {
  terminal: "given by the terminal",
  tariff: "counted from the demurrage tariff",
} as const;

/**
 * The boxes' last free days of one shipment for reminders. A tariff's day is used only once the box
 * is discharged (before, it is counted from an expected discharge: a guess, not a deadline to wake
 * someone for) and only where the organisation's plan has demurrage (it goes with predictive ETA, as
 * on every other surface); a terminal's day is always used.
 */
export async function lastFreeDaysOfShipment(
  deps: { prisma: PrismaClient; documents: DocumentStore; dnd: DndService },
  shipmentId: string,
): Promise<BoxLastFreeDayFact[]> {
  const { prisma, documents, dnd } = deps;
  const shipment = await prisma.shipment.findUnique({
    where: { id: shipmentId },
    include: { document: true, organization: true },
  });
  if (!shipment?.document) return [];
  const latest = await documents.latest(shipment.document);
  if (!latest) return [];
  const doc = latest.content;
  const pod = doc.locations.find((l) => l.key === doc.route.pod.locationKey)?.unLocode ?? null;
  const given = await dnd.terminalLastFreeDays(doc.containers.map((c) => c.number));
  const withTariff = featureAccess(shipment.organization, "predictive_eta") === "on";
  if (!withTariff) {
    return [...given].map(([container, day]) => ({
      container,
      lastFreeDay: day.lastFreeDay,
      source: "terminal" as const,
      portLocode: pod,
      gatedOut: day.gatedOut,
    }));
  }
  const [published, contracts, dwell] = await Promise.all([
    dnd.publishedTariffs(),
    dnd.contractTermsOf([shipment.organizationId]),
    dnd.dwellDaysAt(pod ? [pod] : []),
  ]);
  const assessed = dnd.assess({
    organizationId: shipment.organizationId,
    doc,
    tariffs: [...contracts, ...published],
    dwell,
    factsConfirmedAt: shipment.document.lastSyncedAt,
    terminalLastFreeDays: given,
  });
  return assessed.containers.flatMap((box): BoxLastFreeDayFact[] => {
    const clock = box.demurrage;
    const terminal = given.get(box.container);
    // A clock that cannot run (no terms, no port) still has the terminal's day when it gives one.
    if (!clock.lastFreeDaySource && terminal) {
      return [
        {
          container: box.container,
          lastFreeDay: terminal.lastFreeDay,
          source: "terminal",
          portLocode: pod,
          gatedOut: terminal.gatedOut,
        },
      ];
    }
    if (!clock.lastFreeDay || !clock.lastFreeDaySource) return [];
    if (clock.lastFreeDaySource === "tariff" && clock.clockStartedAt === null) return [];
    return [
      {
        container: box.container,
        lastFreeDay: clock.lastFreeDay,
        source: clock.lastFreeDaySource,
        portLocode: pod,
        gatedOut: clock.clockStoppedAt !== null && clock.chargeType === "demurrage",
      },
    ];
  });
}
