/**
 * The simulated world seen through the carrier API: deterministic, made of real ports, ships and valid
 * box numbers, with journeys that run forward in time, and with the documents it issues leading back to
 * the same shipment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { containerNumber } from "../../simulator/world/iso6346";
import { operatorOfLeasedBox, syntheticDocumentNumber } from "../../simulator/world/references";
import { knownShipments, type Shipment, shipmentFor, UNKNOWN_SHARE } from "../../simulator/world/world";
import { CARRIERS } from "../../src/domain/carriers/carrier-directory";
import { ManualClock } from "../../src/lib/clock";
import {
  type AnyEvent,
  codeOf,
  containersOf,
  eventsUrl,
  getJson,
  isValidContainerNumber,
  SAMPLE_SCACS,
  WORLD_PORT_CODES,
  WORLD_VESSELS,
} from "./support";

const NOW = "2026-11-20T12:00:00Z";
const ISO_SIZE_TYPE = /^(22|42|45|L5)(G1|R1|U1|T1|P1)$/;

let simulator: RunningSimulator;
const clock = new ManualClock(NOW);

beforeAll(async () => {
  simulator = await startSimulator({ clock, pageSize: 1000 });
});

afterAll(async () => {
  await simulator.close();
});

async function events(scac: string, query: Record<string, string>): Promise<AnyEvent[]> {
  const answer = await getJson<AnyEvent[]>(eventsUrl(simulator.url, scac, query));
  expect(answer.status).toBe(200);
  return answer.body;
}

/** A reference of each carrier that the carrier knows at NOW. */
async function knownBoxes(scac: string, count: number): Promise<{ box: string; body: AnyEvent[] }[]> {
  const found: { box: string; body: AnyEvent[] }[] = [];
  for (const box of containersOf(scac, count * 3)) {
    const body = await events(scac, { equipmentReference: box });
    if (body.length > 0) found.push({ box, body });
    if (found.length === count) break;
  }
  return found;
}

describe("determinism", () => {
  it("answers the same reference at the same clock time with byte-identical bodies", async () => {
    const url = eventsUrl(simulator.url, "MSCU", { equipmentReference: containersOf("MSCU", 1)[0] ?? "" });
    const first = await getJson(url);
    const second = await getJson(url);
    // A fresh simulator (empty caches, new process state) must agree too.
    const other = await startSimulator({ clock: new ManualClock(NOW) });
    try {
      const third = await getJson(url.replace(simulator.url, other.url));
      expect(second.text).toBe(first.text);
      expect(third.text).toBe(first.text);
    } finally {
      await other.close();
    }
  });

  it("gives different carriers and references different shipments", async () => {
    const journeys = new Set<string>();
    for (const scac of ["MSCU", "MAEU", "HLCU", "EGLV"]) {
      for (const { body } of await knownBoxes(scac, 3)) {
        const departure = body.find((event) => codeOf(event) === "DEPA");
        journeys.add(JSON.stringify([departure?.eventDateTime, departure?.transportCall]));
      }
    }
    expect(journeys.size).toBe(12);
  });
});

describe("realism", () => {
  it("uses world.md ports and ships, valid box numbers and size types, and runs forward in time", async () => {
    for (const scac of SAMPLE_SCACS) {
      for (const { box, body } of await knownBoxes(scac, 3)) {
        const label = `${scac} ${box}`;
        const vesselCalls = body.filter(
          (event) =>
            (event.transportCall as { modeOfTransport?: string } | undefined)?.modeOfTransport === "VESSEL",
        );
        expect(vesselCalls.length, label).toBeGreaterThan(0);
        for (const event of vesselCalls) {
          const call = event.transportCall as {
            UNLocationCode: string;
            vessel: { vesselIMONumber: string; vesselName: string };
          };
          expect(WORLD_PORT_CODES.has(call.UNLocationCode), `${label} port ${call.UNLocationCode}`).toBe(
            true,
          );
          expect(
            WORLD_VESSELS.get(call.vessel.vesselIMONumber),
            `${label} IMO ${call.vessel.vesselIMONumber}`,
          ).toBe(call.vessel.vesselName);
        }
        for (const event of body.filter((e) => e.eventType === "EQUIPMENT")) {
          expect(event.equipmentReference).toBe(box);
          expect(isValidContainerNumber(box), label).toBe(true);
          expect(String(event.ISOEquipmentCode), label).toMatch(ISO_SIZE_TYPE);
        }
        const instants = body.map((event) => Date.parse(event.eventDateTime));
        expect(instants, label).toEqual([...instants].sort((a, b) => a - b));
        // A box journey starts by taking the empty box out of a depot.
        expect([codeOf(body[0] as AnyEvent), (body[0] as AnyEvent).emptyIndicatorCode], label).toEqual([
          "GTOT",
          "EMPTY",
        ]);
        const loads = body.filter((e) => codeOf(e) === "LOAD").map((e) => Date.parse(e.eventDateTime));
        const departures = body.filter((e) => codeOf(e) === "DEPA").map((e) => Date.parse(e.eventDateTime));
        expect(Math.min(...loads), label).toBeLessThan(Math.min(...departures));
      }
    }
  });

  it("puts every box of a B/L on real ports with plausible transit times", async () => {
    let checked = 0;
    for (const scac of ["MSCU", "MAEU", "CMDU", "ONEY"]) {
      for (const box of containersOf(scac, 8)) {
        const shipment = shipmentFor(scac, box, "equipment", new Date(NOW));
        if (!shipment) continue;
        checked++;
        expect(WORLD_PORT_CODES.has(shipment.portOfLoading.unLocode)).toBe(true);
        expect(WORLD_PORT_CODES.has(shipment.portOfDischarge.unLocode)).toBe(true);
        expect(shipment.transshipmentPorts.length).toBeLessThanOrEqual(2);
        const first = shipment.plan.legs[0];
        const last = shipment.plan.legs[shipment.plan.legs.length - 1];
        const transitDays = ((last?.arrivalRel ?? 0) - (first?.departureRel ?? 0)) / 86_400_000;
        expect(transitDays).toBeGreaterThan(0.5);
        expect(transitDays).toBeLessThan(90);
        for (const container of shipment.containers) {
          expect(isValidContainerNumber(container.equipmentReference)).toBe(true);
          expect(container.isoEquipmentCode).toMatch(ISO_SIZE_TYPE);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("documents", () => {
  it("leads from a box to its B/L and booking, and from those back to the same boxes", async () => {
    for (const scac of ["MSCU", "MAEU", "HLCU", "CMDU", "EGLV"]) {
      const [known] = await knownBoxes(scac, 1);
      const trd = known?.body[0]?.documentReferences as {
        documentReferenceType: string;
        documentReferenceValue: string;
      }[];
      const bl = trd.find((ref) => ref.documentReferenceType === "TRD")?.documentReferenceValue ?? "";
      const booking = trd.find((ref) => ref.documentReferenceType === "BKG")?.documentReferenceValue ?? "";
      const queries: Record<string, string>[] = [
        { transportDocumentReference: bl },
        { carrierBookingReference: booking },
      ];
      const answered: string[][] = [];
      for (const query of queries) {
        const body = await events(scac, query);
        const boxes = new Set(body.map((event) => event.equipmentReference).filter(Boolean));
        expect(boxes.has(known?.box), `${scac} ${JSON.stringify(query)}`).toBe(true);
        const confirmation = body.find((event) => codeOf(event) === "CONF");
        expect(confirmation?.documentID, scac).toBe(booking);
        answered.push([...boxes].map(String).sort());
      }
      // The B/L and the booking answer the same boxes, and each of them answers that B/L.
      expect(answered[0], scac).toEqual(answered[1]);
      for (const box of answered[0] ?? []) {
        const own = await events(scac, { equipmentReference: box });
        const documents = own[0]?.documentReferences as { documentReferenceValue: string }[] | undefined;
        expect(documents?.map((ref) => ref.documentReferenceValue).sort(), `${scac} ${box}`).toEqual(
          [bl, booking].sort(),
        );
      }
    }
  });

  it("does not know a document number it did not issue", async () => {
    const madeUp: Record<string, Record<string, string>> = {
      MSCU: { transportDocumentReference: "MEDUZZ123456" },
      CMDU: { transportDocumentReference: "CMDUXYZ1234567" },
      HLCU: { carrierBookingReference: "12345678" },
      EGLV: { transportDocumentReference: "123456789012" },
      ZIMU: { carrierBookingReference: "ABC1234567" },
    };
    for (const [scac, query] of Object.entries(madeUp)) {
      expect(await events(scac, query), `${scac} ${JSON.stringify(query)}`).toEqual([]);
    }
    // A made-up number is found only when it happens to be one the world issued: rarely, and most
    // often where the carrier's layout is short (Maersk's nine digits, MSC's MEDU + 2 letters + 6).
    for (const carrier of CARRIERS) {
      let found = 0;
      for (let i = 0; i < 200; i++) {
        const kind = i % 2 === 0 ? "document" : "booking";
        const number = syntheticDocumentNumber(carrier, kind, `made-up-${i}`);
        if (shipmentFor(carrier.scac, number, kind, new Date(NOW))) found++;
      }
      expect(found / 200, carrier.scac).toBeLessThan(carrier.scac === "MAEU" ? 0.15 : 0.08);
    }
  });

  it("gives a leased box a B/L and a booking of its own that lead back to the box alone", async () => {
    let checked = 0;
    for (let serial = 100_000; checked < 3 && serial < 110_000; serial++) {
      const withCheck = containerNumber("TCLU", serial);
      if (operatorOfLeasedBox(withCheck) !== "MSCU") continue;
      const shipment = shipmentFor("MSCU", withCheck, "equipment", new Date(NOW));
      if (!shipment) continue;
      checked++;
      expect(shipment.containers.map((c) => c.equipmentReference)).toEqual([withCheck]);
      const queries: Record<string, string>[] = [
        { transportDocumentReference: shipment.transportDocumentReference },
        { carrierBookingReference: shipment.carrierBookingReference },
      ];
      for (const query of queries) {
        const body = await events("MSCU", query);
        const boxes = new Set(body.map((event) => event.equipmentReference).filter(Boolean));
        expect([...boxes], JSON.stringify(query)).toEqual([withCheck]);
      }
    }
    expect(checked).toBe(3);
  });

  it("prints B/L numbers in the carrier's layout", async () => {
    const layouts: Record<string, RegExp> = {
      MSCU: /^MEDU[A-Z]{2}\d{6}$/,
      MAEU: /^\d{9}$/,
      HLCU: /^HLCU[A-Z]{3}\d{9}$/,
      CMDU: /^CMDU[A-Z]{3}\d{7}$/,
      EGLV: /^\d{12}$/,
      ONEY: /^ONEY[A-Z]{4}\d{8}$/,
    };
    for (const [scac, layout] of Object.entries(layouts)) {
      const shipment = containersOf(scac, 20)
        .map((box) => shipmentFor(scac, box, "equipment", new Date(NOW)))
        .find(Boolean);
      expect(shipment?.transportDocumentReference, scac).toMatch(layout);
    }
  });
});

/** The first shipment of a carrier the world knows at NOW that passes `test`. */
function firstShipment(scac: string, test: (shipment: Shipment) => boolean): Shipment {
  let tried = 0;
  for (const shipment of knownShipments(scac, new Date(NOW))) {
    if (test(shipment)) return shipment;
    if (++tried > 5_000) break;
  }
  throw new Error(`no such ${scac} shipment among ${tried}`);
}

describe("bookings", () => {
  it("shows a cancelled booking as confirmed and then rejected, with no moves", async () => {
    const cancelled = firstShipment("CMDU", (shipment) => shipment.cancelled);
    const body = await events("CMDU", { carrierBookingReference: cancelled.carrierBookingReference });
    expect(body.map((event) => [event.eventType, codeOf(event), event.documentTypeCode])).toEqual([
      ["SHIPMENT", "CONF", "BKG"],
      ["SHIPMENT", "REJE", "BKG"],
    ]);
  });

  it("answers HMM only when the booking is given, as its API demands", async () => {
    const shipment = firstShipment(
      "HDMU",
      (s) => !s.cancelled && s.bookedAt.getTime() < Date.parse(NOW) - 40 * 86_400_000,
    );
    const booking = shipment.carrierBookingReference;
    const equipmentReference = shipment.containers[0]?.equipmentReference ?? "";
    expect(await events("HDMU", { equipmentReference })).toEqual([]);
    const both = await events("HDMU", { carrierBookingReference: booking, equipmentReference });
    expect(both.length).toBeGreaterThan(0);
    expect(
      both
        .filter((e) => e.eventType === "EQUIPMENT")
        .every((e) => e.equipmentReference === equipmentReference),
    ).toBe(true);
  });
});

describe("references a carrier does not know", () => {
  it("answers about the expected share of references with [], and the same ones every time", async () => {
    const unknown: string[] = [];
    const boxes = containersOf("MSCU", 200, 7);
    for (const box of boxes) {
      if ((await events("MSCU", { equipmentReference: box })).length === 0) unknown.push(box);
    }
    const share = unknown.length / boxes.length;
    expect(share).toBeGreaterThan(UNKNOWN_SHARE / 3);
    expect(share).toBeLessThan(UNKNOWN_SHARE * 2.5);
    for (const box of unknown) expect(await events("MSCU", { equipmentReference: box })).toEqual([]);
  });

  it("answers [] for another carrier's box and for malformed numbers", async () => {
    const maerskBox = containersOf("MAEU", 1)[0] ?? "";
    expect(await events("MSCU", { equipmentReference: maerskBox })).toEqual([]);
    expect(await events("MSCU", { equipmentReference: "MSCU1234567" })).toEqual([]);
    expect(await events("MSCU", { transportDocumentReference: "HLCUSEL251063157" })).toEqual([]);
  });

  it("knows a leased box at exactly one carrier", async () => {
    // Triton's TCLU boxes: a lessor code no carrier claims, so each box is on hire to one carrier.
    const leased = ["TCLU1000019", "TCLU2004019", "TCLU3001014", "TCLU4002015", "TCLU5003016", "TCLU6004017"];
    expect(leased.length).toBeGreaterThan(0);
    let seen = 0;
    for (const box of leased) {
      const knownAt: string[] = [];
      for (const carrier of CARRIERS) {
        if ((await events(carrier.scac, { equipmentReference: box })).length > 0) knownAt.push(carrier.scac);
      }
      expect(knownAt.length, box).toBeLessThanOrEqual(1);
      if (knownAt.length === 1) {
        seen++;
        expect(knownAt[0], box).toBe(operatorOfLeasedBox(box));
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
