/**
 * The simulator's DCSA Commercial Schedules 1.0 point-to-point routes and its vessel positions: every
 * routing validates against the CS 1.0.3 document (with unknown fields refused), the timetable holds
 * together, and ships move along their loops as the clock moves.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { vesselsNamed } from "../../simulator/vessel-positions";
import { fleetRotations, WEEK } from "../../simulator/world/fleet";
import { VESSELS } from "../../simulator/world/vessels";
import { CARRIERS } from "../../src/domain/carriers/carrier-directory";
import { ManualClock } from "../../src/lib/clock";
import { mapPointToPoint } from "../../src/upstream/schedules/dcsa-cs.mapper";
import { mapPortSchedules } from "../../src/upstream/schedules/dcsa-cs-port-schedule.mapper";
import { simulatedContainers } from "../support/references";
import { SHARED } from "./support";

const CS_SPEC = resolve(SHARED, "reference/dcsa/DCSA-OpenAPI/cs/v1/CS_v1.0.3.yaml");
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
type JsonSchema = Record<string, unknown>;

/** Every object schema closed (additionalProperties: false), so a misspelt field fails too. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  }
  if (out.properties && !out.allOf && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

let validate: ValidateFunction;
let validatePortSchedules: ValidateFunction;
let simulator: RunningSimulator;
const clock = new ManualClock("2026-11-20T12:00:00Z");

beforeAll(async () => {
  const { parse } = await import("yaml");
  const document = parse(readFileSync(CS_SPEC, "utf8")) as { components: JsonSchema };
  const ajv = new Ajv({ strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: "cs", components: closed(document.components) } as JsonSchema);
  validate = ajv.compile({ type: "array", items: { $ref: "cs#/components/schemas/PointToPoint" } });
  validatePortSchedules = ajv.compile({
    type: "array",
    items: { $ref: "cs#/components/schemas/PortSchedule" },
  });
  simulator = await startSimulator({ clock });
});
afterAll(() => simulator?.close());

const ptp = async (scac: string, query: string) => {
  const res = await fetch(`${simulator.url}/${scac}/v1/point-to-point-routes?${query}`);
  return { res, body: (await res.json()) as Record<string, unknown>[] };
};
const problems = () => (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

describe("GET /<SCAC>/v1/point-to-point-routes", () => {
  it("answers CS 1.0.3 PointToPoint routings for lanes the carrier sells, direct and with a transshipment", async () => {
    const lanes: [string, string, string][] = [
      ["MSCU", "CNSHA", "NLRTM"],
      ["MSCU", "INNSA", "USNYC"],
      ["HLCU", "CNSHA", "USSAV"],
      ["MAEU", "NLRTM", "USNYC"],
      ["CMDU", "CNSGH", "DEHAM"],
      ["ZIMU", "SGSIN", "USNYC"],
      ["MSCU", "KRPUS", "AUSYD"],
    ];
    let total = 0;
    for (const [scac, from, to] of lanes) {
      const { res, body } = await ptp(
        scac,
        `placeOfReceipt=${from}&placeOfDelivery=${to}&departureStartDate=2026-11-20&departureEndDate=2027-01-10`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("api-version")).toBe("1.0.3");
      expect(validate(body), `${scac} ${from}>${to}: ${problems().join("; ")}`).toBe(true);
      expect(body.length, `${scac} ${from}>${to}`).toBeGreaterThan(0);
      total += body.length;
      // Our own client reads them back.
      const { items, warnings } = mapPointToPoint(body, { scac });
      expect(warnings).toEqual([]);
      for (const item of items) {
        expect(item.origin.localDateTime! >= "2026-11-20").toBe(true);
        expect(item.origin.localDateTime! < "2027-01-11").toBe(true);
        expect(item.transitDays).toBeGreaterThan(0);
      }
    }
    expect(total).toBeGreaterThan(10);
  });

  it("keeps a timetable: the weekly grid's sailings the world's ships sail, a day or more to connect", async () => {
    const { body } = await ptp(
      "MSCU",
      "placeOfReceipt=INNSA&placeOfDelivery=USNYC&departureStartDate=2026-11-20&departureEndDate=2027-01-20",
    );
    const departures = body.map((r) => Date.parse((r.placeOfReceipt as { dateTime: string }).dateTime));
    for (let i = 1; i < departures.length; i++)
      expect(departures[i]! - departures[i - 1]!).toBeGreaterThanOrEqual(0);
    for (const route of body) {
      const legs = route.legs as { arrival: { dateTime: string }; departure: { dateTime: string } }[];
      expect(legs).toHaveLength(2);
      const connection = Date.parse(legs[1]!.departure.dateTime) - Date.parse(legs[0]!.arrival.dateTime);
      expect(connection).toBeGreaterThanOrEqual(24 * 3_600_000);
      // The next sailing a ship of the world sails (fleet.ts: 60 ships for 177 weekly slots).
      expect(connection).toBeLessThan(24 * 3_600_000 + 8 * WEEK);
    }
    const direct = await ptp(
      "MSCU",
      "placeOfReceipt=CNSHA&placeOfDelivery=NLRTM&departureStartDate=2026-11-20&departureEndDate=2027-01-20",
    );
    const times = direct.body.map((r) => Date.parse((r.placeOfReceipt as { dateTime: string }).dateTime));
    expect(times.length).toBeGreaterThan(1);
    for (let i = 1; i < times.length; i++) {
      expect((times[i]! - times[i - 1]!) % WEEK).toBe(0);
      expect(times[i]! - times[i - 1]!).toBeGreaterThan(0);
    }
  });

  it("filters on arrival dates, honours maxTranshipment=0 and pages with Next-Page-Cursor", async () => {
    const arriving = await ptp(
      "MSCU",
      "placeOfReceipt=CNSHA&placeOfDelivery=NLRTM&arrivalStartDate=2027-01-01&arrivalEndDate=2027-01-31",
    );
    for (const route of arriving.body) {
      const at = (route.placeOfDelivery as { dateTime: string }).dateTime;
      expect(at >= "2027-01-01" && at < "2027-02-01", at).toBe(true);
    }
    const direct = await ptp("MSCU", "placeOfReceipt=INNSA&placeOfDelivery=USNYC&maxTranshipment=0");
    expect(direct.body).toEqual([]);
    const query =
      "placeOfReceipt=CNSHA&placeOfDelivery=NLRTM&departureStartDate=2026-11-20&departureEndDate=2027-02-20";
    const first = await ptp("MSCU", `${query}&limit=3`);
    expect(first.body).toHaveLength(3);
    const cursor = first.res.headers.get("next-page-cursor");
    expect(cursor).toBeTruthy();
    const second = await ptp("MSCU", `${query}&limit=3&cursor=${cursor}`);
    const dateOf = (route: Record<string, unknown> | undefined) =>
      (route?.placeOfReceipt as { dateTime: string } | undefined)?.dateTime ?? "";
    expect(dateOf(second.body[0]) > dateOf(first.body[2])).toBe(true);
    const tampered = await ptp("MSCU", `placeOfReceipt=CNSHA&placeOfDelivery=DEHAM&limit=3&cursor=${cursor}`);
    expect(tampered.res.status).toBe(400);
  });

  it("refuses bad queries with the CS error body, and answers no routes for unknown ports", async () => {
    for (const query of [
      "placeOfReceipt=CNSHA",
      "placeOfReceipt=shanghai&placeOfDelivery=NLRTM",
      "placeOfReceipt=CNSHA&placeOfDelivery=NLRTM&departureStartDate=2026-13-01",
    ]) {
      const { res, body } = await ptp("MSCU", query);
      expect(res.status, query).toBe(400);
      expect(body as unknown as { errors: { errorCodeText: string }[] }).toMatchObject({
        statusCode: 400,
        errors: [{ errorCodeText: "invalidQuery" }],
      });
    }
    expect((await ptp("MSCU", "placeOfReceipt=CNSHA&placeOfDelivery=ZZZZZ")).body).toEqual([]);
    expect((await ptp("ONEY", "placeOfReceipt=CNSHA&placeOfDelivery=NLRTM")).body).toEqual([]);
  });
});

describe("GET /<SCAC>/v1/port-schedules", () => {
  it("lists the proforma call of a voyage the carrier's shipments sail, as CS 1.0.3 PortSchedule", async () => {
    const { known } = await simulatedContainers(simulator.url, "MSCU", "MSCU", { known: 1, start: 410_000 });
    const events = (await (
      await fetch(`${simulator.url}/MSCU/v2/events?equipmentReference=${known[0]}&eventType=TRANSPORT`)
    ).json()) as {
      transportEventTypeCode: string;
      eventClassifierCode: string;
      eventDateTime: string;
      transportCall: {
        UNLocationCode: string;
        modeOfTransport: string;
        importVoyageNumber: string;
        vessel: { vesselIMONumber: string };
      };
    }[];
    const arrival = events.find(
      (e) =>
        e.transportEventTypeCode === "ARRI" &&
        e.eventClassifierCode === "ACT" &&
        e.transportCall.modeOfTransport === "VESSEL",
    )!;
    const call = arrival.transportCall;
    // Its planned arrival is on the published date, or (a late ship) up to two weeks before it.
    let found: { plannedArrival: string } | undefined;
    for (let d = 1; d >= -15 && !found; d--) {
      const date = new Date(Date.parse(arrival.eventDateTime) + d * 86_400_000).toISOString().slice(0, 10);
      const res = await fetch(
        `${simulator.url}/MSCU/v1/port-schedules?UNLocationCode=${call.UNLocationCode}&date=${date}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("api-version")).toBe("1.0.3");
      const body = await res.json();
      expect(validatePortSchedules(body), JSON.stringify(validatePortSchedules.errors)).toBe(true);
      found = mapPortSchedules(body, { scac: "MSCU", locode: call.UNLocationCode }).find(
        (c) => c.vesselImo === call.vessel.vesselIMONumber && c.voyages.includes(call.importVoyageNumber),
      ) as { plannedArrival: string } | undefined;
    }
    expect(found).toBeDefined();
    expect(Date.parse(found!.plannedArrival)).toBeLessThanOrEqual(
      Date.parse(arrival.eventDateTime) + 86_400_000,
    );
  });

  it("refuses a query without a port or a date, and answers an empty schedule for a port it does not have", async () => {
    for (const query of ["date=2026-11-20", "UNLocationCode=CNSHA", "UNLocationCode=CNSHA&date=2026-02-30"]) {
      const res = await fetch(`${simulator.url}/MSCU/v1/port-schedules?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({
        statusCode: 400,
        errors: [{ errorCodeText: "invalidQuery" }],
      });
    }
    const res = await fetch(`${simulator.url}/MSCU/v1/port-schedules?UNLocationCode=ZZZZZ&date=2026-11-20`);
    expect(await res.json()).toEqual([]);
  });
});

describe("GET /vessels/position", () => {
  const position = async (imo: string) => {
    const res = await fetch(`${simulator.url}/vessels/position?imo=${imo}&mmsi=353136000`);
    return {
      status: res.status,
      body: (await res.json()) as Record<string, number | string | Record<string, string>>,
    };
  };

  it("puts every one of the world's 60 ships on a loop, each ship on one slot only", () => {
    const homes = fleetRotations().flatMap((r) => r.home.filter(Boolean).map((v) => v!.imo));
    expect(new Set(homes).size).toBe(VESSELS.length);
    expect(homes).toHaveLength(VESSELS.length);
    for (const rotation of fleetRotations()) expect(rotation.roundTripMs % WEEK).toBe(0);
  });

  it("moves a ship along its loop as the clock moves, and stops it alongside at calls", async () => {
    clock.set("2026-11-20T12:00:00Z");
    const seen = new Set<string>();
    let moored = 0;
    for (let hour = 0; hour < 24 * 21; hour += 6) {
      clock.set(Date.parse("2026-11-20T12:00:00Z") + hour * 3_600_000);
      const { status, body } = await position("9811000");
      expect(status).toBe(200);
      seen.add(`${body.latitude},${body.longitude}`);
      if (body.navigationalStatus === "Moored") {
        moored++;
        expect(body.speedOverGround).toBe(0);
        expect((body.nextPortCall as Record<string, string>).UNLocationCode).toMatch(/^[A-Z]{5}$/);
      } else if (body.navigationalStatus === "At anchor") {
        // Waiting off the next call for its berth (world/anchorage.ts).
        expect(body.speedOverGround).toBe(0);
      } else {
        expect(body.speedOverGround).toBeGreaterThan(9);
      }
      const last = Date.parse((body.lastPortCall as Record<string, string>).departureDateTime!);
      expect(last).toBeLessThanOrEqual(clock.now().getTime());
    }
    expect(seen.size).toBeGreaterThan(40);
    expect(moored).toBeGreaterThan(0);
    clock.set("2026-11-20T12:00:00Z");
    const again = await position("9811000");
    const twice = await position("9811000");
    expect(again.body).toEqual(twice.body);
  });

  it("answers 404 for a ship the world does not have and 400 for a malformed number", async () => {
    expect((await position("1234567")).status).toBe(404);
    expect((await position("12345")).status).toBe(400);
  });

  it("finds a ship by IMO number without an MMSI, and by its whole name", async () => {
    const ask = async (query: string) => {
      const res = await fetch(`${simulator.url}/vessels/position?${query}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const byImo = await ask("imo=9811000");
    expect(byImo).toMatchObject({
      status: 200,
      body: { vesselIMONumber: "9811000", MMSINumber: "353136000", vesselName: "EVER GIVEN" },
    });
    for (const name of ["EVER GIVEN", "ever given", "Ever-Given", "  EVER   GIVEN "]) {
      const byName = await ask(`name=${encodeURIComponent(name)}`);
      expect(byName.status, name).toBe(200);
      expect(byName.body, name).toEqual(byImo.body);
    }
    expect((await ask(`name=${encodeURIComponent("Maersk Mc-Kinney Møller")}`)).body).toMatchObject({
      vesselIMONumber: "9619907",
    });
    // A part of a name is not the name; a name comes alone.
    expect((await ask("name=EVER")).status).toBe(404);
    expect((await ask("name=NO%20SUCH%20SHIP")).status).toBe(404);
    expect((await ask("name=EVER%20GIVEN&imo=9811000")).status).toBe(400);
    expect((await ask("name=E")).status).toBe(400);
    expect((await ask("")).status).toBe(400);
  });

  it("compares whole names; the world's names are unique, so none answers 300 (several ships) here", () => {
    // The world's 60 names are unique, as registered names are; AIS names need not be.
    expect(new Set(VESSELS.map((v) => v.name)).size).toBe(VESSELS.length);
    expect(vesselsNamed("cma cgm jacques saade").map((v) => v.imo)).toEqual(["9839179"]);
    expect(vesselsNamed("")).toEqual([]);
  });

  it("serves the carriers' schedules on the same loops the positions sail", () => {
    const scacs = new Set(CARRIERS.map((c) => c.scac));
    for (const rotation of fleetRotations()) expect(scacs.has(rotation.service.operator)).toBe(true);
  });
});
