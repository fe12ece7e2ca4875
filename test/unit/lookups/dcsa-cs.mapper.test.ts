import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findPortEntry } from "../../../src/domain/ports/port-directory";
import { mapPointToPoint } from "../../../src/upstream/schedules/dcsa-cs.mapper";

const example = (name: string): unknown[] =>
  JSON.parse(
    readFileSync(
      new URL(`./fixtures/dcsa-cs/commercialschedules-api-1.0.0-${name}.json`, import.meta.url),
      "utf8",
    ),
  );
const portName = (locode: string) => findPortEntry(locode)?.name;

/** What the conformance harness does before sending the examples: fill in the leg date placeholders. */
function filled(routes: unknown[], departure: string, arrival: string): unknown[] {
  return JSON.parse(
    JSON.stringify(routes)
      .replaceAll('"DEPARTURE_DATE"', `"${departure}"`)
      .replaceAll('"ARRIVAL_DATE"', `"${arrival}"`),
  );
}

describe("DCSA CS 1.0 point-to-point mapper, on the official examples", () => {
  it("maps the one-leg example: service, voyage, vessel, terminals and local times", () => {
    const { items, warnings } = mapPointToPoint(example("ptp"), { scac: "MAEU", portName });
    expect(warnings).toEqual([]);
    expect(items).toEqual([
      {
        scac: "MAEU",
        serviceName: "Great Lion Service",
        serviceCode: "FE1",
        voyage: "2103N",
        vessel: { name: "King of the Seas", imo: "9321483" },
        origin: {
          locode: "NLAMS",
          name: "Amsterdam",
          countryCode: "NL",
          terminal: "Port of Amsterdam",
          terminalCode: "ADT",
          // The leg's date is a placeholder: the place of receipt's time stands in.
          localDateTime: "2025-01-14 09:21:00",
          instant: "2025-01-14T08:21:00.000Z",
        },
        destination: {
          locode: "NLAMS",
          name: "Amsterdam",
          countryCode: "NL",
          terminal: "Port of Amsterdam",
          terminalCode: "ADT",
          localDateTime: "2025-01-14 09:21:00",
          instant: "2025-01-14T08:21:00.000Z",
        },
        transitDays: 10,
        vesselLegs: 1,
        transshipmentPorts: [],
      },
    ]);
  });

  it("maps the multimodal example: truck, two vessels (transshipment at Shanghai), rail", () => {
    const { items, warnings } = mapPointToPoint(example("ptpnextpage"), { scac: "CMDU", portName });
    expect(warnings).toEqual([]);
    expect(items).toHaveLength(3);
    expect(items.map((i) => i.vessel?.name)).toEqual(["CMA CGM ORFEO", "CMA CGM ENDURANCE", "ALS LUNA"]);
    expect(items[0]).toMatchObject({
      scac: "CMDU",
      serviceName: "CPNW",
      serviceCode: "CPNW",
      voyage: "0TNDMN1MA",
      vessel: { name: "CMA CGM ORFEO", imo: "9364992" },
      origin: { locode: "USCOL", countryCode: "US", terminal: null, localDateTime: "2024-09-09 05:00:00" },
      destination: { locode: "ESMAD", countryCode: "ES", localDateTime: "2024-12-06 11:00:00" },
      transitDays: 87,
      vesselLegs: 2,
      transshipmentPorts: ["CNSGH"],
    });
  });

  it("takes the legs' own times once the harness has filled them in", () => {
    const routes = filled(example("ptp"), "2025-02-03T18:00:00+01:00", "2025-02-13T06:30:00+01:00");
    const [item] = mapPointToPoint(routes, { scac: "MAEU", portName }).items;
    expect(item?.origin.localDateTime).toBe("2025-02-03 18:00:00");
    expect(item?.destination.localDateTime).toBe("2025-02-13 06:30:00");
  });

  it("drops what it cannot read and says why", () => {
    expect(mapPointToPoint({ not: "an array" }, { scac: "MAEU" }).warnings).toEqual([
      "the answer is not an array of routings",
    ]);
    const { items, warnings } = mapPointToPoint(
      [{ legs: [{ departure: { dateTime: "soon" }, arrival: {} }] }, { legs: "nope" }],
      { scac: "MAEU" },
    );
    expect(items).toEqual([]);
    expect(warnings).toHaveLength(2);
  });
});
