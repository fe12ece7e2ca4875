/**
 * Every answer of /v2/events must be a valid DCSA T&T 2.2 response: checked with a JSON-schema validator
 * built from the resolved 2.2 document, over many references, carriers and clock times.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { knownShipments, shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import {
  type AnyEvent,
  containersOf,
  eventsUrl,
  getJson,
  SAMPLE_SCACS,
  semanticProblems,
  TNT_EXAMPLES,
  tntValidator,
} from "./support";

const CLOCK_TIMES = ["2025-03-01T00:00:00Z", "2026-07-15T06:30:00Z", "2026-11-20T12:00:00Z"];

let simulator: RunningSimulator;
const clock = new ManualClock(CLOCK_TIMES[0]);

beforeAll(async () => {
  simulator = await startSimulator({ clock, pageSize: 1000 });
});

afterAll(async () => {
  await simulator.close();
});

describe("the validator", () => {
  const example = (name: string) =>
    JSON.parse(readFileSync(resolve(TNT_EXAMPLES, `tnt-220-response${name}.json`), "utf8")) as Record<
      string,
      unknown
    >[];

  it("accepts DCSA's own 2.2 example and rejects its broken variants", () => {
    const validator = tntValidator();
    expect(validator.events(example(""))).toEqual([]);
    expect(semanticProblems(example(""))).toEqual([]);
    for (const broken of ["-wrong-event-ids", "-wrong-structure", "-wrong-date-times"]) {
      expect(validator.events(example(broken)), broken).not.toEqual([]);
    }
    // Its attribute values are schema-valid but meaningless: no place XYABC, a bad container check digit.
    const problems = semanticProblems(example("-wrong-attribute-values")).join();
    expect(problems).toContain("XYABC");
    expect(problems).toContain("APZU2134567");
  });

  it("reports fields the standard does not define", () => {
    const example = JSON.parse(readFileSync(resolve(TNT_EXAMPLES, "tnt-220-response.json"), "utf8"));
    example[0].transportCall.vessel.vesselMMSINumber = "228098700";
    expect(tntValidator().events(example).join()).toContain("vesselMMSINumber");
  });
});

describe("GET /<SCAC>/v2/events answers", () => {
  it("validate against the 2.2 schema for containers, B/Ls and bookings across carriers and times", async () => {
    const validator = tntValidator();
    let checkedEvents = 0;
    for (const at of CLOCK_TIMES) {
      clock.set(at);
      for (const scac of SAMPLE_SCACS) {
        for (const equipmentReference of containersOf(scac, 3, CLOCK_TIMES.indexOf(at))) {
          const byBox = await getJson<AnyEvent[]>(eventsUrl(simulator.url, scac, { equipmentReference }));
          expect(byBox.status).toBe(200);
          expect(byBox.headers.get("api-version")).toBe("2.2.0");
          expect(validator.events(byBox.body), `${scac} ${equipmentReference} at ${at}`).toEqual([]);
          expect(semanticProblems(byBox.body), `${scac} ${equipmentReference} at ${at}`).toEqual([]);
          checkedEvents += byBox.body.length;
          const shipment = shipmentFor(scac, equipmentReference, "equipment", new Date(at));
          if (!shipment) continue;
          const queries: Record<string, string>[] = [
            { transportDocumentReference: shipment.transportDocumentReference },
            { carrierBookingReference: shipment.carrierBookingReference },
          ];
          for (const query of queries) {
            const answer = await getJson<AnyEvent[]>(eventsUrl(simulator.url, scac, query));
            expect(answer.status).toBe(200);
            expect(validator.events(answer.body), `${scac} ${JSON.stringify(query)} at ${at}`).toEqual([]);
            expect(semanticProblems(answer.body), `${scac} ${JSON.stringify(query)} at ${at}`).toEqual([]);
            checkedEvents += answer.body.length;
          }
        }
      }
    }
    // Enough of the world was exercised for the check to mean something.
    expect(checkedEvents).toBeGreaterThan(800);
  });

  it("answers issued references with filters, and user-typed ones it never issued, with valid bodies", async () => {
    clock.set(CLOCK_TIMES[2] ?? "");
    const validator = tntValidator();
    const issued = (scac: string) => {
      let tried = 0;
      for (const shipment of knownShipments(scac, clock.now())) {
        if (!shipment.cancelled && shipment.bookedAt.getTime() < clock.now().getTime() - 30 * 86_400_000) {
          return shipment;
        }
        if (++tried > 2_000) break;
      }
      throw new Error(`no ${scac} shipment under way`);
    };
    const [msc, cma, hapag, evergreen, one] = ["MSCU", "CMDU", "HLCU", "EGLV", "ONEY"].map(issued);
    const found: [string, Record<string, string>][] = [
      ["MSCU", { transportDocumentReference: msc?.transportDocumentReference ?? "" }],
      [
        "CMDU",
        { carrierBookingReference: cma?.carrierBookingReference ?? "", eventType: "TRANSPORT,EQUIPMENT" },
      ],
      ["HLCU", { transportDocumentReference: hapag?.transportDocumentReference ?? "" }],
      [
        "EGLV",
        {
          transportDocumentReference: evergreen?.transportDocumentReference ?? "",
          equipmentEventTypeCode: "LOAD,DISC",
        },
      ],
      ["ONEY", { carrierBookingReference: one?.carrierBookingReference ?? "", eventType: "SHIPMENT" }],
    ];
    for (const [scac, query] of found) {
      const answer = await getJson(eventsUrl(simulator.url, scac, query));
      expect(answer.status).toBe(200);
      expect((answer.body as unknown[]).length, `${scac} ${JSON.stringify(query)}`).toBeGreaterThan(0);
      expect(validator.events(answer.body), `${scac} ${JSON.stringify(query)}`).toEqual([]);
    }
    // Real-looking numbers the simulated carriers never issued: unknown, `200 []`.
    const madeUp: [string, Record<string, string>][] = [
      ["MSCU", { transportDocumentReference: "MEDUFR030802" }],
      ["CMDU", { carrierBookingReference: "LHV2345678", eventType: "TRANSPORT,EQUIPMENT" }],
      ["HLCU", { transportDocumentReference: "HLCUSEL251063157", transportDocumentTypeCode: "BOL" }],
      ["ONEY", { carrierBookingReference: "SELD12345678", eventType: "SHIPMENT" }],
    ];
    for (const [scac, query] of madeUp) {
      const answer = await getJson(eventsUrl(simulator.url, scac, query));
      expect([answer.status, answer.body], `${scac} ${JSON.stringify(query)}`).toEqual([200, []]);
    }
  });

  it("sends 2.2 error bodies for bad queries and unknown carriers", async () => {
    const validator = tntValidator();
    const problems = [
      `${simulator.url}/MSCU/v2/events`,
      `${simulator.url}/MSCU/v2/events?equipmentReference=MSCU1000001&limit=0`,
      `${simulator.url}/MSCU/v2/events?equipmentReference=MSCU1000001&eventType=PARCEL`,
      `${simulator.url}/QQQQ/v2/events?equipmentReference=MSCU1000001`,
    ];
    for (const url of problems) {
      const answer = await getJson(url);
      expect([400, 404]).toContain(answer.status);
      expect(validator.error(answer.body), url).toEqual([]);
    }
  });
});
