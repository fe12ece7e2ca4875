import type { Tariff } from "../../../src/domain/demurrage/model";
import type { TrackedEvent, TrackingDocument } from "../../../src/domain/tracking/model";

/** A tariff row with the US West Coast's shape unless told otherwise. */
export function tariff(overrides: Partial<Tariff> & { id: string }): Tariff {
  return {
    organizationId: null,
    carrierScac: "MAEU",
    portLocode: "USLAX",
    countryCode: null,
    direction: "import",
    chargeType: "demurrage",
    equipment: "dry",
    freeDays: 4,
    freeDayBasis: "working",
    chargeDayBasis: "calendar",
    clockStart: "DISC",
    clockStartRule: "next_day",
    clockEnd: "GTOT",
    slabs: [
      { fromDay: 1, toDay: 4, rate: 235 },
      { fromDay: 5, toDay: 9, rate: 285 },
      { fromDay: 10, toDay: null, rate: 335 },
    ],
    currency: "USD",
    effectiveFrom: "2019-06-13",
    effectiveTo: null,
    sourceUrl: "https://example.org/tariff",
    sourceNote: "test row",
    isEstimate: false,
    ...overrides,
  };
}

export const US_DETENTION = tariff({
  id: "bench-us-det",
  carrierScac: null,
  portLocode: null,
  countryCode: "US",
  chargeType: "detention",
  equipment: "any",
  freeDays: 4,
  freeDayBasis: "calendar",
  clockStart: "GTOT",
  clockEnd: "EMPTY_RETURN",
  slabs: [{ fromDay: 1, toDay: null, rate: 75 }],
  isEstimate: true,
});

type Milestone = {
  code: "DISC" | "GTOT" | "GTIN";
  at: string;
  actual: boolean;
  empty?: boolean;
  where?: string;
};

function event(m: Milestone): TrackedEvent {
  return {
    kind: "EQUIPMENT",
    eventCode: m.code,
    emitted: true,
    statusCode: null,
    description: m.code,
    localDateTime: null,
    utcOffset: null,
    instant: m.at,
    actual: m.actual,
    modeOfTransport: null,
    legType: m.code === "DISC" ? "sea" : "land",
    vesselKey: null,
    voyage: null,
    locationKey: m.where ?? "USLAX",
    facilityKey: null,
    emptyIndicator: m.empty ? "EMPTY" : "LADEN",
    isAdditional: false,
    dcsaEventId: null,
  };
}

/** One 40' dry box from Shanghai to Los Angeles with the given milestones. */
export function importDocument(input: {
  milestones: Milestone[];
  eta: string | null;
  fetchedAt: string;
  isoCode?: string;
  pod?: { locode: string; countryCode: string; state: string | null; timeZone: string };
}): TrackingDocument {
  const pod = input.pod ?? {
    locode: "USLAX",
    countryCode: "US",
    state: "California",
    timeZone: "America/Los_Angeles",
  };
  const place = (locode: string, countryCode: string, state: string | null, timeZone: string) => ({
    key: locode,
    unLocode: locode,
    name: locode,
    state,
    country: null,
    countryCode,
    lat: null,
    lng: null,
    timeZone,
  });
  const point = (key: string, instant: string | null) => ({
    locationKey: key,
    localDateTime: null,
    instant,
    actual: false,
  });
  return {
    referenceType: "container",
    reference: "MSKU1234565",
    carrierScac: "MAEU",
    status: "IN_TRANSIT",
    statusFromCarrier: true,
    locations: [
      place("CNSHA", "CN", null, "Asia/Shanghai"),
      place(pod.locode, pod.countryCode, pod.state, pod.timeZone),
    ],
    facilities: [],
    vessels: [],
    containers: [
      {
        number: "MSKU1234565",
        isoCode: input.isoCode ?? "42G1",
        sizeType: null,
        description: null,
        status: "IN_TRANSIT",
        statusFromCarrier: true,
        eventsMirrored: false,
        deliveredAt: null,
        events: input.milestones.map((m) => event({ ...m, where: m.where ?? pod.locode })),
      },
    ],
    route: {
      prepol: point("CNSHA", null),
      pol: point("CNSHA", null),
      pod: point(pod.locode, input.eta),
      postpod: { locationKey: null, localDateTime: null, instant: null, actual: null },
    },
    etaHistory: [],
    transshipmentLocationKeys: [],
    ata: null,
    deliveredAt: null,
    currentPosition: null,
    fetchedAt: input.fetchedAt,
  };
}
