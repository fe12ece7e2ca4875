import type { Services } from "../../src/app/services";
import { normalizeIdentifier } from "../../src/domain/references/reference";
import type { TrackingDocument } from "../../src/domain/tracking/model";
import type { ReferenceKind, ShipmentStatus } from "../../src/generated/prisma/enums";
import type { ManualClock } from "../../src/lib/clock";

/**
 * Shipments with a known ETA history, written the way tracking writes them: each carrier answer is
 * stored through the real document store (which keeps our ETA history, version by version), and the
 * shipment row points at the newest version with its summary, status, ETA and ATA.
 */
export interface SeededShipment {
  reference: string;
  referenceType?: ReferenceKind;
  scac: string;
  status: ShipmentStatus;
  /**
   * The port of discharge as the carrier told it, answer by answer: an estimate, or the actual
   * arrival (`actual: true`, which also sets the ATA). Empty: the carrier never found it (failed).
   */
  answers: { eta: string; actual?: boolean }[];
  /** Departure from the port of loading (actual). */
  atd?: string;
  pol?: { locode: string; name: string; country: string };
  pod?: { locode: string; name: string; country: string };
  customer?: string;
  createdAt: string;
  deleted?: boolean;
}

const SHANGHAI = { locode: "CNSHA", name: "Shanghai", country: "China" };
const ROTTERDAM = { locode: "NLRTM", name: "Rotterdam", country: "Netherlands" };

const localOf = (iso: string) => iso.slice(0, 19).replace("T", " ");

function documentOf(seed: SeededShipment, answer: { eta: string; actual?: boolean }): TrackingDocument {
  const pol = seed.pol ?? SHANGHAI;
  const pod = seed.pod ?? ROTTERDAM;
  const place = (p: typeof pol) => ({
    key: p.locode,
    unLocode: p.locode,
    name: p.name,
    state: null,
    country: p.country,
    countryCode: p.locode.slice(0, 2),
    lat: null,
    lng: null,
    timeZone: null,
  });
  const arrived = answer.actual === true;
  return {
    referenceType: seed.referenceType ?? "container",
    reference: seed.reference,
    carrierScac: seed.scac,
    status: seed.status,
    statusFromCarrier: true,
    locations: [place(pol), place(pod)],
    facilities: [],
    vessels: [],
    containers: [],
    route: {
      prepol: { locationKey: null, localDateTime: null, instant: null, actual: null },
      pol: seed.atd
        ? { locationKey: pol.locode, localDateTime: localOf(seed.atd), instant: seed.atd, actual: true }
        : { locationKey: pol.locode, localDateTime: null, instant: null, actual: null },
      pod: {
        locationKey: pod.locode,
        localDateTime: localOf(answer.eta),
        instant: answer.eta,
        actual: arrived,
      },
      postpod: { locationKey: null, localDateTime: null, instant: null, actual: null },
    },
    etaHistory: [],
    transshipmentLocationKeys: [],
    ata: arrived ? answer.eta : null,
    deliveredAt: null,
    currentPosition: null,
    fetchedAt: new Date().toISOString(),
  };
}

export async function seedShipment(
  services: Services,
  clock: ManualClock,
  org: { organizationId: string; userId: string },
  seed: SeededShipment,
): Promise<void> {
  const prisma = services.db.prisma;
  const referenceType = seed.referenceType ?? "container";
  const referenceKey = normalizeIdentifier(seed.reference);
  let stored: Awaited<ReturnType<Services["documents"]["record"]>> | null = null;
  for (const answer of seed.answers) {
    const content = { ...documentOf(seed, answer), fetchedAt: clock.now().toISOString() };
    stored = await services.documents.record(
      {
        organizationId: org.organizationId,
        carrierScac: seed.scac,
        referenceType: referenceType,
        referenceKey: referenceKey,
      },
      content,
    );
    clock.advance(3_600_000);
  }
  const customer = seed.customer
    ? await prisma.customer.upsert({
        where: {
          organizationId_nameKey: {
            organizationId: org.organizationId,
            nameKey: seed.customer.toLowerCase(),
          },
        },
        create: {
          organizationId: org.organizationId,
          name: seed.customer,
          nameKey: seed.customer.toLowerCase(),
        },
        update: {},
      })
    : null;
  const last = seed.answers.at(-1);
  await prisma.shipment.create({
    data: {
      organizationId: org.organizationId,
      addedByUserId: org.userId,
      referenceType,
      reference: seed.reference,
      referenceKey,
      carrierScac: seed.scac,
      documentId: stored?.document.id ?? null,
      status: seed.status,
      eta: last ? new Date(last.eta) : null,
      ata: last?.actual ? new Date(last.eta) : null,
      failedAt: stored ? null : new Date(seed.createdAt),
      failureReason: stored ? null : "not_found",
      lastSyncedAt: stored ? clock.now() : null,
      summary: (stored?.version.summary ?? undefined) as never,
      customerId: customer?.id ?? null,
      createdAt: new Date(seed.createdAt),
      deletedAt: seed.deleted ? clock.now() : null,
    },
  });
}
