/**
 * A one-box MSC arrival at Rotterdam (discharged at ECT Delta when `discharged`), stored through the
 * real document store: the fixture the kept free-time and kept D&D tests share. Rotterdam is UTC+1 in
 * December, so its day turns at 23:00 UTC.
 */
import { normalizeIdentifier } from "../../src/domain/references/reference";
import type { TrackedContainer, TrackedEvent, TrackingDocument } from "../../src/domain/tracking/model";
import type { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, type TestApp } from "./app";

export const ROTTERDAM = {
  key: "NLRTM",
  unLocode: "NLRTM",
  name: "Rotterdam",
  state: null,
  country: "Netherlands",
  countryCode: "NL",
  lat: null,
  lng: null,
  timeZone: "Europe/Amsterdam",
};
const SHANGHAI = {
  ...ROTTERDAM,
  key: "CNSHA",
  unLocode: "CNSHA",
  name: "Shanghai",
  country: "China",
  countryCode: "CN",
  timeZone: "Asia/Shanghai",
};

function event(code: "DISC" | "GTOT", instant: string, facilityKey: string | null): TrackedEvent {
  return {
    kind: "equipment",
    eventCode: code,
    emitted: true,
    statusCode: null,
    description: code,
    localDateTime: null,
    utcOffset: null,
    instant,
    actual: true,
    modeOfTransport: null,
    legType: "main",
    vesselKey: null,
    voyage: null,
    locationKey: "NLRTM",
    facilityKey,
    emptyIndicator: "LADEN",
    offRoute: false,
  } as unknown as TrackedEvent;
}

/** The arrival's document and its storage, for the app, organisation and clock `world` gives at call time. */
export function rotterdamArrivals(world: () => { app: TestApp; org: OrgWithKey; clock: ManualClock }) {
  /** A one-box MSC document arriving at Rotterdam, discharged at the ECT terminal when `discharged`. */
  function documentOf(box: string, discharged: string | null): TrackingDocument {
    const container: TrackedContainer = {
      number: box,
      isoCode: "42G1",
      sizeType: null,
      description: null,
      status: "IN_TRANSIT",
      statusFromCarrier: true,
      eventsMirrored: false,
      deliveredAt: null,
      events: discharged ? [event("DISC", discharged, "ECT")] : [],
    };
    return {
      referenceType: "container",
      reference: box,
      carrierScac: "MSCU",
      status: "IN_TRANSIT",
      statusFromCarrier: true,
      locations: [SHANGHAI, ROTTERDAM],
      facilities: [
        {
          key: "ECT",
          name: "ECT Delta",
          locode: "NLRTM",
          countryCode: "NL",
          smdgCode: "ECTDELTA",
          bicCode: null,
          lat: null,
          lng: null,
        },
      ],
      vessels: [],
      containers: [container],
      route: {
        prepol: { locationKey: null, localDateTime: null, instant: null, actual: null },
        pol: { locationKey: "CNSHA", localDateTime: null, instant: "2026-10-20T00:00:00.000Z", actual: true },
        pod: {
          locationKey: "NLRTM",
          localDateTime: null,
          instant: discharged ?? "2026-12-20T08:00:00.000Z",
          actual: discharged !== null,
        },
        postpod: { locationKey: null, localDateTime: null, instant: null, actual: null },
      },
      etaHistory: [],
      transshipmentLocationKeys: [],
      ata: discharged,
      deliveredAt: null,
      currentPosition: null,
      fetchedAt: world().clock.now().toISOString(),
    } as unknown as TrackingDocument;
  }

  /** Stores the carrier's answer through the real document store; the first one also adds the row. */
  async function carrierAnswers(box: string, discharged: string | null): Promise<void> {
    const { app, org } = world();
    const { documents, db } = app.services;
    const stored = await documents.record(
      {
        organizationId: org.organizationId,
        carrierScac: "MSCU",
        referenceType: "container",
        referenceKey: box,
      },
      documentOf(box, discharged),
    );
    const referenceKey = normalizeIdentifier(box);
    const existing = await db.prisma.shipment.findFirst({
      where: { organizationId: org.organizationId, referenceKey },
    });
    if (existing) return;
    await db.prisma.shipment.create({
      data: {
        organizationId: org.organizationId,
        addedByUserId: org.userId,
        referenceType: "container",
        reference: box,
        referenceKey,
        carrierScac: "MSCU",
        documentId: stored.document.id,
        status: "IN_TRANSIT",
        lastSyncedAt: world().clock.now(),
        summary: stored.version.summary as never,
      },
    });
  }

  /** The organisation's contract: four free calendar days of demurrage at Rotterdam from the day after discharge. */
  async function agreeRotterdamTerms(): Promise<void> {
    const { app, org } = world();
    const { body } = await graphql(
      app,
      org.key,
      `mutation ($input: DndContractTermsInput!) { addDndContractTerms(input: $input) { id } }`,
      {
        input: {
          carrierScac: "MSCU",
          portLocode: "NLRTM",
          chargeType: "demurrage",
          freeDays: 4,
          freeDayBasis: "calendar",
          slabs: [{ fromDay: 1, toDay: null, rate: 100 }],
          currency: "EUR",
          effectiveFrom: "2026-01-01",
        },
      },
    );
    if (body.errors) throw new Error(`contract terms refused: ${JSON.stringify(body.errors)}`);
  }

  return { documentOf, carrierAnswers, agreeRotterdamTerms };
}
