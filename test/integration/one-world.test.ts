/**
 * Issue 24 item 2, one consistent world, seen through the service: the booking, the bill of lading and
 * each container of one simulated shipment answer the same shipment and the same boxes on compat, v1,
 * GraphQL and MCP, and a bill of lading or booking the carrier never issued is not found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownShipments, type Shipment, shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { compatGet, SIMULATOR_ENV } from "../compat/support";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

/** Fixed, so the shipment is where this file says it is whenever it runs. */
const NOW = "2026-11-20T12:00:00.000Z";
/** Numbers in MSC's layouts that its simulated world never issued. */
const MADE_UP_BL = "MEDUZZ123456";
const MADE_UP_BOOKING = "0999999999";

let app: TestApp;
let org: OrgWithKey;
let shipment: Shipment;
let boxes: string[];

/** An MSC shipment of several boxes, every one of them out of the depot and on this shipment at NOW. */
function shipmentOfSeveralBoxes(): Shipment {
  const now = new Date(NOW);
  let tried = 0;
  for (const candidate of knownShipments("MSCU", now)) {
    if (++tried > 3_000) break;
    if (candidate.cancelled || candidate.containers.length < 2) continue;
    const onIt = candidate.containers.every(
      (box) => shipmentFor("MSCU", box.equipmentReference, "equipment", now)?.key === candidate.key,
    );
    if (onIt) return candidate;
  }
  throw new Error("no MSC shipment of several released boxes in the simulator world");
}

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV, clock: new ManualClock(NOW) });
  org = await app.fixtures.organization({ plan: "professional" });
  shipment = shipmentOfSeveralBoxes();
  boxes = shipment.containers.map((box) => box.equipmentReference).sort();
}, 120_000);
afterAll(() => app?.stop());

const v1 = async (path: string) => {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${org.key}` } });
  return { status: res.status, body: await res.json() };
};

interface CompatContainer {
  number: string;
  events: { event_code: string; date?: string }[];
}

const compatTrack = (number: string, type: string) =>
  compatGet(app, org.key, "/tracking", { number, type, sealine: "MSCU" });

const moves = (container: CompatContainer | undefined) =>
  container?.events.map((event) => `${event.event_code} ${event.date ?? ""}`);

describe("one simulated shipment by its booking, its B/L and its boxes", () => {
  it("compat: BL and BK list the same boxes, and each box's own lookup shows the same moves", async () => {
    const byBl = await compatTrack(shipment.transportDocumentReference, "BL");
    const byBooking = await compatTrack(shipment.carrierBookingReference, "BK");
    for (const answer of [byBl, byBooking]) {
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe("success");
    }
    const blBoxes = byBl.body.data.containers as CompatContainer[];
    const bookingBoxes = byBooking.body.data.containers as CompatContainer[];
    expect(blBoxes.map((box) => box.number).sort()).toEqual(boxes);
    expect(bookingBoxes.map((box) => box.number).sort()).toEqual(boxes);
    for (const number of boxes) {
      const byBox = await compatTrack(number, "CT");
      expect(byBox.body.status, number).toBe("success");
      const [own] = byBox.body.data.containers as CompatContainer[];
      expect(own?.number).toBe(number);
      expect(moves(own), number).toEqual(moves(blBoxes.find((box) => box.number === number)));
      expect(moves(own), number).toEqual(moves(bookingBoxes.find((box) => box.number === number)));
    }
  });

  it("v1: /bl with the B/L and with the booking, and /container with each box, answer the same boxes", async () => {
    const byBl = await v1(`/bl/${shipment.transportDocumentReference}?sealine=MSCU`);
    const byBooking = await v1(`/bl/${shipment.carrierBookingReference}?sealine=MSCU`);
    for (const answer of [byBl, byBooking]) {
      expect(answer.status).toBe(200);
      const listed = (answer.body.data.containers_table as { container_number: string }[]).map(
        (row) => row.container_number,
      );
      expect(listed.sort()).toEqual(boxes);
    }
    const eventsOf = (
      data: { events_table: { container_number: string; event_code: string; date_utc: string }[] },
      box: string,
    ) =>
      data.events_table
        .filter((row) => row.container_number === box)
        .map((row) => `${row.event_code} ${row.date_utc}`);
    for (const number of boxes) {
      const byBox = await v1(`/container/${number}?sealine=MSCU`);
      expect(byBox.status, number).toBe(200);
      expect(eventsOf(byBox.body.data, number), number).toEqual(eventsOf(byBl.body.data, number));
    }
  });

  it("GraphQL: track by booking (a booking-typed lookup), by B/L and by box; MCP shows the same boxes", async () => {
    const TRACK = `mutation($reference: String!, $type: ReferenceType) {
      track(reference: $reference, type: $type, carrier: "MSCU") {
        __typename ... on TrackSuccess { document { containers { number } } }
      }
    }`;
    const trackedBoxes = async (reference: string, type: string) => {
      const { body } = await graphql(app, org.key, TRACK, { reference, type });
      const outcome = (
        body.data as { track: { __typename: string; document?: { containers: { number: string }[] } } }
      ).track;
      expect(outcome.__typename, `${type} ${reference}`).toBe("TrackSuccess");
      return outcome.document!.containers.map((box) => box.number).sort();
    };
    expect(await trackedBoxes(shipment.carrierBookingReference, "booking")).toEqual(boxes);
    expect(await trackedBoxes(shipment.transportDocumentReference, "bl")).toEqual(boxes);
    expect(await trackedBoxes(boxes[0]!, "container")).toEqual([boxes[0]]);

    const client = await httpClient(app, org.key);
    try {
      for (const reference of [shipment.transportDocumentReference, shipment.carrierBookingReference]) {
        const result = await callTool(client, "get_shipment_status", { reference });
        expect(result.isError, reference).toBeFalsy();
        const listed = (result.structuredContent as { containers: { number: string }[] }).containers;
        expect(listed.map((box) => box.number).sort(), reference).toEqual(boxes);
      }
    } finally {
      await client.close();
    }
  });

  it("a B/L or booking the carrier never issued is not found, on compat and on v1", async () => {
    const bl = await compatTrack(MADE_UP_BL, "BL");
    expect(bl.body.message).toBe("SEALINE_HASNT_PROVIDE_INFO");
    const booking = await compatTrack(MADE_UP_BOOKING, "BK");
    expect(booking.body.message).toBe("SEALINE_HASNT_PROVIDE_INFO");
    for (const number of [MADE_UP_BL, MADE_UP_BOOKING]) {
      const answer = await v1(`/bl/${number}?sealine=MSCU`);
      expect(answer.status, number).toBe(404);
      expect(answer.body.data.error, number).toBe("not_found");
    }
  });
});
