/**
 * Issue 25: the compat API as an unchanged SeaRates client meets it. Each departure the client found is
 * asked again here through HTTP, against a started service and its carrier simulator.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARRIERS } from "../../reference-data/carriers";
import { awaitingReleaseBox } from "../../simulator/world/awaiting-release";
import { embeddedCatalog } from "../../src/domain/ports/port-directory";
import { zoneCountriesFromTables } from "../../src/domain/ports/time-zones";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { openApiChecker } from "../support/openapi";
import { billOfLadingWithBoxes, simulatedContainers } from "../support/references";
import { refusalEnvelope, successEnvelope, trackingDataSchema } from "./compat-schema";
import { compatGet, freshContainer, SIMULATOR_ENV, seedDocument, storedContent } from "./support";

let app: TestApp;
let org: OrgWithKey;
let known: string[];
let simulatorUrl: string;

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV });
  simulatorUrl = app.simulator!.url;
  org = await app.fixtures.organization({ plan: "professional" });
  ({ known } = await simulatedContainers(simulatorUrl, "MSCU", "MSCU", { known: 12, start: 700_000 }));
});
afterAll(() => app?.stop());

const track = (params: Record<string, string | undefined>) => compatGet(app, org.key, "/tracking", params);

/** A success answer, validated against the contract's shapes. */
async function tracked(params: Record<string, string | undefined>) {
  const answer = await track(params);
  expect(answer.status).toBe(200);
  expect(answer.body.status, JSON.stringify(answer.body).slice(0, 300)).toBe("success");
  successEnvelope.parse(answer.body);
  return { message: answer.body.message as string, data: trackingDataSchema.parse(answer.body.data) };
}

async function refused(params: Record<string, string | undefined>, message: string) {
  const answer = await track(params);
  expect(answer.status).toBe(200);
  const refusal = refusalEnvelope.parse(answer.body);
  expect(refusal.message).toBe(message);
  return refusal;
}

/** What no client may ever read: socket error codes, undici names, stack-ish detail. */
const INTERNAL = /UND_ERR|ECONN|EPIPE|ETIMEDOUT|socket|undici|fetch failed|events endpoint|HTTP \d{3}/i;

/** The vessel of `imo` as v1 (`?include=full`) and GraphQL show the organisation's shipment of `number`. */
async function vesselElsewhere(number: string, imo: number) {
  const v1 = await fetch(`${app.url}/api/v1/shipments/${number}?include=full`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  const v1Body = (await v1.json()) as {
    data: { document: { vessels_table: { imo: number | null; mmsi: number | null }[] } };
  };
  const gql = await graphql(
    app,
    org.key,
    "query($id: String!) { shipment(id: $id) { document { vessels { imo mmsi } } } }",
    {
      id: number,
    },
  );
  const vessels = (
    gql.body.data!.shipment as { document: { vessels: { imo: number | null; mmsi: number | null }[] } }
  ).document.vessels;
  return {
    v1: v1Body.data.document.vessels_table.find((v) => v.imo === imo)?.mmsi,
    graphql: vessels.find((v) => v.imo === imo)?.mmsi,
  };
}

describe("item 1: vessels carry the MMSI the service's vessel references know (issue 39 item 11: an integer on compat)", () => {
  it("fills mmsi from the AIS ingester's static report of the vessel's IMO number; 0 on compat and null elsewhere while none is known", async () => {
    let withVessel: { number: string; imo: number } | undefined;
    for (const number of known) {
      const { data } = await tracked({ number });
      const vessel = (data.vessels ?? []).find((v) => v.imo !== 0);
      if (vessel) {
        // Nothing in this world's register gives an MSC ship's MMSI, and no AIS report arrived yet:
        // the contract's integer, 0 (no ship's MMSI), where v1 and GraphQL say null.
        expect(vessel.mmsi).toBe(0);
        withVessel = { number, imo: vessel.imo };
        break;
      }
    }
    expect(withVessel).toBeDefined();
    const { number, imo } = withVessel!;
    expect(await vesselElsewhere(number, imo)).toEqual({ v1: null, graphql: null });
    // The AIS ingester stores a ship's static report (MMSI with the IMO number it broadcasts).
    await app.services.db.prisma.vesselPosition.create({
      data: {
        mmsi: "355123000",
        imo: String(imo).padStart(7, "0"),
        name: "REPORTED BY AIS",
        lat: 1.2,
        lon: 103.8,
        positionAt: new Date(),
      },
    });
    const { data } = await tracked({ number, force_update: "true" });
    const vessel = (data.vessels ?? []).find((v) => v.imo === imo);
    expect(vessel).toMatchObject({ imo, mmsi: 355123000, call_sign: null, flag: null });
    expect(await vesselElsewhere(number, imo)).toEqual({ v1: 355123000, graphql: 355123000 });
  });

  it("a stored document without the MMSI of a ship the register knows shows the register's on every surface", async () => {
    const base = await storedContent(app, org.organizationId, "MSCU", known[0]!);
    const number = freshContainer();
    await seedDocument(app, org.organizationId, base, number, (doc) => {
      const first = doc.vessels[0];
      if (!first) throw new Error("the base document names no vessel");
      // EVER GIVEN: the register gives its MMSI; the document was stored without it.
      doc.vessels[0] = { ...first, name: "EVER GIVEN", imo: 9811000, mmsi: null };
    });
    const { data } = await tracked({ number });
    expect((data.vessels ?? []).find((v) => v.imo === 9811000)).toMatchObject({ mmsi: 353136000 });
    expect(await vesselElsewhere(number, 9811000)).toEqual({ v1: 353136000, graphql: 353136000 });
  });
});

describe("item 2: the answer depends on the parameters, never on what is cached", () => {
  it("an explicit sealine is asked even when another carrier's document of the number is stored", async () => {
    const number = known[1]!;
    expect((await tracked({ number })).data.metadata.sealine).toBe("MSCU");
    await refused({ number, sealine: "MAEU" }, "SEALINE_HASNT_PROVIDE_INFO");
    const msc = await tracked({ number, sealine: "MSCU" });
    expect(msc.data.metadata).toMatchObject({ sealine: "MSCU", from_cache: true });
  });
});

describe("item 3: time zones from the port's coordinates", () => {
  it("gives every location its port's zone and dates events by that zone's clock", async () => {
    const { data } = await tracked({ number: known[2] });
    // tzdata's own tables say which countries use a zone (Manaus was Europe/Stockholm).
    const tables = "/usr/share/zoneinfo";
    const countries = existsSync(`${tables}/zone1970.tab`)
      ? zoneCountriesFromTables(
          readFileSync(`${tables}/zone.tab`, "utf8"),
          readFileSync(`${tables}/zone1970.tab`, "utf8"),
        )
      : null;
    for (const location of data.locations ?? []) {
      expect(() => new Intl.DateTimeFormat("en", { timeZone: location.timezone })).not.toThrow();
      const port = location.locode ? embeddedCatalog().get(location.locode) : undefined;
      if (port?.timeZone) expect(location.timezone, location.locode ?? "").toBe(port.timeZone);
      if (countries && location.locode && !location.timezone.startsWith("Etc/")) {
        expect(countries.countriesOf(location.timezone), location.locode).toContain(location.country_code);
      }
    }
    // The same call's stored document, by id, dates the events in UTC: converting those to each
    // location's zone gives the /tracking dates.
    const history = await compatGet(app, org.key, "/history", { number: known[2], type: "CT" });
    const id = String(history.body.data.requests.at(-1).id);
    const byId = await compatGet(app, org.key, "/history", { number: known[2], type: "CT", id });
    const zoneOf = new Map((data.locations ?? []).map((l) => [l.id, l.timezone]));
    const local = (utc: string, zone: string) =>
      new Intl.DateTimeFormat("sv-SE", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      }).format(new Date(`${utc.replace(" ", "T").replace("+00", "")}Z`));
    const events = data.containers[0]!.events;
    const utcEvents = byId.body.data.containers[0].events as { date?: string }[];
    expect(utcEvents).toHaveLength(events.length);
    let compared = 0;
    events.forEach((event, i) => {
      const utc = utcEvents[i]!.date;
      if (event.date === undefined || utc === undefined) return;
      expect(event.date).toBe(local(utc, zoneOf.get(event.location)!));
      compared++;
    });
    expect(compared).toBeGreaterThan(0);
  });
});

describe("item 4: a path that is no operation", () => {
  it("is answered in the envelope with HTTP 200 and WRONG_PARAMETERS, naming the operations", async () => {
    const answer = await compatGet(app, org.key, "/no-such-operation");
    expect(answer.status).toBe(200);
    const refusal = refusalEnvelope.parse(answer.body);
    expect(refusal.message).toBe("WRONG_PARAMETERS");
    expect(refusal.detail).toMatch(/\/no-such-operation.*\/tracking/);
    expect(answer.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    // Like every operation it needs the key first.
    const anonymous = await compatGet(app, null, "/no-such-operation");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.message).toBe("API_KEY_WRONG");
  });
});

describe("item 5: carrier failures in words", () => {
  const cases = [
    { fault: { mode: "down" as const }, words: /connection failed or was closed/ },
    { fault: { mode: "server-error" as const, status: 500 }, words: /answered with an error/ },
    { fault: { mode: "malformed" as const }, words: /could not be read/ },
  ];
  for (const { fault, words } of cases) {
    it(`says what failed when the carrier is ${fault.mode}, in SEALINE_NO_RESPONSE and stale_reason`, async () => {
      const stored = known[3 + cases.findIndex((c) => c.fault === fault)]!;
      await tracked({ number: stored });
      app.simulator!.faults.set("MSCU", fault);
      try {
        const refusal = await refused({ number: freshContainer(), sealine: "MSCU" }, "SEALINE_NO_RESPONSE");
        expect(refusal.detail).toMatch(words);
        expect(refusal.detail).not.toMatch(INTERNAL);
        const stale = await tracked({ number: stored, force_update: "true" });
        expect(stale.data.metadata.stale_reason).toMatch(words);
        expect(stale.data.metadata.stale_reason).not.toMatch(INTERNAL);
      } finally {
        app.simulator!.faults.clear("MSCU");
      }
    });
  }
});

describe("item 6: a combined <bill-of-lading>/<container> number", () => {
  it("answers the container asked for alone, and refuses one that is not on the bill of lading", async () => {
    const { billOfLading, containers } = await billOfLadingWithBoxes(simulatorUrl, "MSCU", "MSCU", 2);
    const second = containers[1]!;
    const combined = await tracked({ number: `${billOfLading}/${second}` });
    expect(combined.data.metadata).toMatchObject({ type: "BL", number: billOfLading });
    expect(combined.data.containers.map((c) => c.number)).toEqual([second]);

    const stranger = freshContainer();
    const named = await refused(
      { number: `${billOfLading}/${stranger}`, sealine: "MSCU" },
      "SEALINE_HASNT_PROVIDE_INFO",
    );
    expect(named.detail).toContain(stranger);
    const auto = await refused({ number: `${billOfLading}/${stranger}` }, "AUTO_CANT_FIND_INFO");
    expect(auto.detail).toContain(billOfLading);

    // v1 answers the same refusal with its documented 404 not_found body.
    const v1 = await fetch(
      `${app.url}/api/v1/bl/${encodeURIComponent(`${billOfLading}/${stranger}`)}?sealine=MSCU`,
      { headers: { authorization: `Bearer ${org.key}` } },
    );
    const document = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
    expect(await openApiChecker(document).check("GET", "/bl/{number}", v1.clone())).toEqual([]);
    expect(v1.status).toBe(404);
    expect((await v1.json()).data).toMatchObject({ error: "not_found", tried: ["MSCU"] });
  });
});

describe("item 7: route.prepol and route.postpod as SeaRates fills them", () => {
  it("names the port itself when the carrier names no inland place, dated by its first actual event", async () => {
    let portOnly = 0;
    for (const number of known.slice(6, 12)) {
      const { data } = await tracked({ number });
      const { prepol, pol, pod, postpod } = data.route;
      if (pol.location !== null) expect(prepol.location).not.toBeNull();
      if (pod.location !== null) expect(postpod.location).not.toBeNull();
      const events = data.containers.flatMap((c) => c.events);
      const firstActual = (location: number) =>
        events
          .filter((e) => e.location === location && e.actual && e.date !== undefined)
          .map((e) => e.date!)
          .sort()[0] ?? null;
      for (const [end, port] of [
        [prepol, pol],
        [postpod, pod],
      ] as const) {
        if (port.location === null || end.location !== port.location) continue;
        portOnly++;
        const first = firstActual(port.location);
        expect(end.date).toBe(first);
        expect(end.actual).toBe(first === null ? null : true);
      }
    }
    expect(portOnly).toBeGreaterThan(0);
  });
});

describe("item 8: the world holds references for NO_EVENTS and AUTO_CANT_DETECT_SEALINE", () => {
  it("NO_EVENTS: a box the carrier has booked but not released yet", async () => {
    const box = awaitingReleaseBox(CARRIERS.find((c) => c.scac === "MSCU")!)!;
    const { message, data } = await tracked({ number: box });
    expect(message).toBe("NO_EVENTS");
    expect(data.containers).toEqual([expect.objectContaining({ number: box, events: [] })]);
  });

  it("AUTO_CANT_DETECT_SEALINE: a lessor's box without history; named, it is found, and then remembered", async () => {
    const { known: leased } = await simulatedContainers(simulatorUrl, "MSCU", "TGHU", {
      known: 1,
      start: 640_000,
    });
    const box = leased[0]!;
    const refusal = await refused({ number: box }, "AUTO_CANT_DETECT_SEALINE");
    expect(refusal.detail.length).toBeGreaterThan(0);
    expect((await tracked({ number: box, sealine: "MSCU" })).message).toBe("OK");
    expect((await tracked({ number: box, sealine: "auto" })).data.metadata.sealine).toBe("MSCU");
  });
});

describe("item 9: event status and transport_type vocabulary", () => {
  it("uses only the SeaRates statuses, each for the move it names", async () => {
    const STATUSES = new Set(
      "CEP CPS CGI CLL VDL VAT CDT TSD CLT VDT VAD CDD CGO CDC CER LTS BTS UNK".split(" "),
    );
    const CODE_OF: Record<string, string[]> = {
      CEP: ["GTOT"],
      CPS: ["PICK", "GTOT"],
      CGI: ["GTIN"],
      CLL: ["LOAD"],
      VDL: ["DEPA"],
      VAT: ["ARRI"],
      CDT: ["DISC"],
      CLT: ["LOAD"],
      VDT: ["DEPA"],
      VAD: ["ARRI"],
      CDD: ["DISC"],
      CGO: ["GTOT"],
      CDC: ["GTOT"],
      CER: ["GTIN"],
    };
    const seen = new Set<string>();
    for (const number of known) {
      const { data } = await tracked({ number });
      for (const event of data.containers.flatMap((c) => c.events)) {
        expect(STATUSES.has(event.status), event.status).toBe(true);
        expect([null, "TRUCK", "VESSEL", "RAIL", "BARGE"]).toContain(event.transport_type);
        if (CODE_OF[event.status]) expect(CODE_OF[event.status]).toContain(event.event_code);
        if (event.status === "BTS") expect(event.transport_type).toBe("BARGE");
        if (event.status === "LTS") expect(["TRUCK", "RAIL"]).toContain(event.transport_type);
        seen.add(event.status);
      }
    }
    expect(seen.size).toBeGreaterThan(5);
  });
});
