import { exposureOf } from "../../src/domain/disruptions/exposure";
import type { ShipmentExposure } from "../../src/domain/disruptions/matching";
import type { TrackingDocument } from "../../src/domain/tracking/model";
import type { OrgWithKey, TestApp } from "./app";
import { simulatedContainers } from "./references";

/**
 * Tracks simulator containers for `org` until one is in transit with a port of discharge and whose
 * exposure `wanted` accepts (the world moves with the clock, so a fixed number may have been delivered
 * by now); answers it and its exposure. Boxes tried and not chosen are untracked again.
 */
export async function trackActiveShipment(
  app: TestApp,
  org: OrgWithKey,
  start: number,
  wanted: { accept?: (exposure: ShipmentExposure) => boolean; tries?: number } = {},
): Promise<{ reference: string; exposure: ShipmentExposure }> {
  const tries = wanted.tries ?? 12;
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: tries, start });
  const untrack = (reference: string) =>
    app.services.db.prisma.shipment.updateMany({
      where: { organizationId: org.organizationId, reference },
      data: { deletedAt: new Date() },
    });
  for (const reference of known) {
    const tracked = await fetch(`${app.url}/api/v1/container/${reference}`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    if (tracked.status !== 200) continue;
    const stored = await app.services.db.prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, reference },
      select: {
        status: true,
        carrierScac: true,
        document: { select: { versions: { orderBy: { version: "desc" }, take: 1 } } },
      },
    });
    if (stored.status !== "IN_TRANSIT") {
      // Not active: untracked again so it never counts as one of the organisation's shipments.
      await untrack(reference);
      continue;
    }
    const exposure = exposureOf(
      stored.document!.versions[0]!.content as unknown as TrackingDocument,
      stored.carrierScac,
    );
    if (exposure.portOfDischarge && (wanted.accept?.(exposure) ?? true)) return { reference, exposure };
    await untrack(reference);
  }
  throw new Error(`no simulator container in transit with the wanted exposure among the ${tries} tried`);
}
