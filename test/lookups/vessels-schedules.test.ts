/**
 * Lookups that reach a provider: vessel positions (AIS feed and the simulator's world), sailing
 * schedules (DCSA Commercial Schedules from the simulator), and the daily allowance they share, counted
 * exactly under concurrency. One app serves the whole file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARRIERS } from "../../reference-data/carriers";
import { routesBetween } from "../../simulator/world/fleet";
import { portByCode } from "../../simulator/world/ports";
import { DAY_MS } from "../../src/domain/limits/fixed-window";
import { DEFAULT_SCHEDULE_CARRIERS } from "../../src/upstream/schedules/schedule-gateway";
import { AisFeedIngester } from "../../src/upstream/vessels/ais-feed.ingester";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { wallClockIn } from "../support/wall-clock";
import { positionReport, staticReport } from "../unit/lookups/ais-encode";

// Recorded: AKRA 102's two-part static report (bound for Merak) and a Dutch inland vessel's position.
const AKRA_STATIC = [
  "!AIVDM,2,1,7,A,57lof8`2F5HeT<eC:204e86373:222222222221@8HQC16Ch0:RA7kAD,0*28",
  "!AIVDM,2,2,7,A,PBp888888888880,2*79",
];
const INLAND_POSITION = "\\s:rSTATION,c:1763600000*1A\\!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0*41";

const TWINS = [
  { mmsi: 219000111, imo: 9300116 },
  { mmsi: 219000222, imo: 9300128 },
];

let app: TestApp;
let vesselOrg: OrgWithKey;
let scheduleOrg: OrgWithKey;
let dir: string;

// One app for the file (the simulator's vessels and timetables, plus an AIS feed file).
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "quayside-ais-"));
  const feed = path.join(dir, "feed.nmea");
  writeFileSync(
    feed,
    [
      ...AKRA_STATIC,
      positionReport({ mmsi: 525200930, lat: -5.93, lon: 106.0, speed: 11.3, course: 271.4, heading: 270 }),
      INLAND_POSITION,
      "!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0*40", // bad checksum
      "garbage line",
      // Two ships broadcasting the same name (names are not unique), each with its own IMO number.
      ...TWINS.flatMap(({ mmsi, imo }, i) => [
        ...staticReport({
          mmsi,
          imo,
          callSign: `TW${i}`,
          name: "NORDIC STAR",
          draught: 9,
          destination: "DEHAM",
          eta: { month: 3, day: 1, hour: 12, minute: 0 },
          sequenceId: 5 + i,
        }),
        positionReport({ mmsi, lat: 54 + i, lon: 8, speed: 12, course: 90, heading: 90 }),
      ]),
    ].join("\r\n"),
  );
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_AIS_FEED: `file:${feed}`,
    },
  });
  vesselOrg = await app.fixtures.organization({ plan: "free" });
  scheduleOrg = await app.fixtures.organization({ plan: "starter" });
});
afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const track = (query: string, key = vesselOrg.key) =>
  fetch(`${app.url}/api/v1/vessel/track?${query}`, { headers: { authorization: `Bearer ${key}` } });
const LOCAL_STYLE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe("GET /api/v1/vessel/track", () => {
  it("answers the section 2.6 fields from the simulator's world, spending one lookup", async () => {
    const res = await track("imo=9839430&mmsi=355000001");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lookup-limit")).toBe("100");
    expect(res.headers.get("x-lookup-remaining")).toBe("99");
    const { data } = await res.json();
    expect(data).toMatchObject({
      imo: "9839430",
      name: "MSC GULSUN",
      cached: false,
      origin_locode: expect.stringMatching(/^[A-Z]{5}$/),
      destination_locode: expect.stringMatching(/^[A-Z]{5}$/),
      origin_port: expect.any(String),
      destination_port: expect.any(String),
    });
    for (const field of ["lat", "lon", "speed", "draught", "course_over_ground", "true_heading"]) {
      expect(typeof data[field], field).toBe("number");
    }
    expect(data.navigation_status).toMatch(/^(Under way using engine|At anchor|Moored)$/);
    for (const field of ["timestamp", "atd", "eta"]) expect(data[field], field).toMatch(LOCAL_STYLE);
    // Each offset-less time has its UTC companion (docs/decisions/times.md); `timestamp` is UTC's clock.
    expect(data.timestamp_utc).toBe(`${data.timestamp}.000Z`);
    for (const field of ["atd", "eta"]) {
      expect(data[`${field}_utc`], field).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const offsetHours = (Date.parse(`${data[field]}Z`) - Date.parse(data[`${field}_utc`])) / 3_600_000;
      expect(Math.abs(offsetHours), field).toBeLessThanOrEqual(14);
      expect((offsetHours * 4) % 1, field).toBe(0);
    }
    expect(Date.parse(`${data.atd}Z`)).toBeLessThan(Date.now() + DAY_MS);
  });

  it("serves a repeat within 5 minutes from the cache: cached: true, free, no X-Lookup-* headers", async () => {
    const repeat = await track("imo=9839430&mmsi=355000001");
    expect(repeat.status).toBe(200);
    expect((await repeat.json()).data.cached).toBe(true);
    expect(repeat.headers.get("x-lookup-remaining")).toBeNull();
    expect((await app.services.lookups.allowances.peek(await principal(), "vessel_schedule")).remaining).toBe(
      99,
    );
  });

  it("answers from the AIS feed first: position, static and voyage data joined by MMSI", async () => {
    const res = await track("imo=9835915&mmsi=525200930");
    const { data } = await res.json();
    expect(data).toMatchObject({
      imo: "9835915",
      mmsi: "525200930",
      name: "AKRA 102",
      speed: 11.3,
      course_over_ground: 271.4,
      true_heading: 270,
      draught: 4.2,
      navigation_status: "Under way using engine",
      origin_port: null,
      origin_locode: null,
      atd: null,
      destination_port: "ID_MERAK",
      destination_locode: null,
      cached: false,
    });
    expect(data.lat).toBeCloseTo(-5.93, 4);
    expect(data.eta).toMatch(/^\d{4}-09-07T16:00:00$/);
    // A vessel known only by its position report, found by MMSI whatever the IMO asked.
    const inland = await (await track("imo=1234567&mmsi=205278090")).json();
    expect(inland.data).toMatchObject({ mmsi: "205278090", lat: 51.725665, lon: 4.73319, imo: null });
  });

  it("refuses an imo that is not 7 digits or an mmsi that is not 9, with 400", async () => {
    for (const [query, param] of [
      ["imo=983943&mmsi=355000001", "imo"],
      ["imo=98394300&mmsi=355000001", "imo"],
      ["imo=9839430&mmsi=35500000", "mmsi"],
      ["imo=9839430&mmsi=abcdefghi", "mmsi"],
      ["mmsi=355000001", "imo"],
      ["imo=9839430", "mmsi"],
    ]) {
      const res = await track(query!);
      expect(res.status, query).toBe(400);
      expect((await res.json()).data).toMatchObject({ error: "invalid_parameter", param });
    }
  });

  it("answers 404 vessel_not_found for a vessel no source knows (the lookup is spent)", async () => {
    const res = await track("imo=9000003&mmsi=999999999");
    expect(res.status).toBe(404);
    expect((await res.json()).data).toMatchObject({ error: "vessel_not_found", imo: "9000003" });
    expect(res.headers.get("x-lookup-remaining")).not.toBeNull();
  });

  it("answers 429 lookup_limit_exceeded once the day's allowance is spent", async () => {
    const other = await app.fixtures.organization({ plan: "free" });
    await app.services.limiter.consume(`lookups:vessel_schedule:${other.keyId}`, 100, DAY_MS, 100);
    const res = await track("imo=9811000&mmsi=353136000", other.key);
    expect(res.status).toBe(429);
    expect(res.headers.get("x-lookup-limit")).toBe("100");
    expect(res.headers.get("x-lookup-remaining")).toBe("0");
    expect(Number(res.headers.get("x-lookup-reset"))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await res.json()).data).toMatchObject({ error: "lookup_limit_exceeded", limit: 100 });
    // What another key of the organisation cached is still served, free, past the allowance.
    const teammate = await app.fixtures.teammate(vesselOrg.organizationId);
    await app.services.limiter.consume(`lookups:vessel_schedule:${teammate.keyId}`, 100, DAY_MS, 100);
    const repeat = await track("imo=9839430&mmsi=355000001", teammate.key);
    expect(repeat.status).toBe(200);
    expect((await repeat.json()).data.cached).toBe(true);
    // Another organisation's cache is not: it tells nobody who else watches the vessel.
    expect((await track("imo=9839430&mmsi=355000001", other.key)).status).toBe(429);
  });
});

describe("vesselPosition by IMO number alone or by name (GraphQL core)", () => {
  let org: OrgWithKey;
  beforeAll(async () => {
    org = await app.fixtures.organization({ plan: "starter" });
  });
  const QUERY = `query($imo: String, $mmsi: String, $name: String) {
    vesselPosition(imo: $imo, mmsi: $mmsi, name: $name) {
      __typename
      ... on VesselTrack { cached position { imo mmsi name source
        lastPortCall { locode at localDateTime port { countryCode } } nextPortCall { locode name at localDateTime } }
        allowance { remaining } }
      ... on VesselNotFound { imo mmsi name allowance { remaining } }
      ... on VesselAmbiguous { name candidates { imo mmsi name } allowance { remaining } }
      ... on LookupInputInvalid { param message }
    } }`;
  const ask = async (variables: Record<string, unknown>) => {
    const { body } = await graphql(app, org.key, QUERY, variables);
    expect(body.errors).toBeUndefined();
    return body.data!.vesselPosition as Record<string, any>;
  };

  it("finds a simulator ship by IMO number without an MMSI", async () => {
    const found = await ask({ imo: "9811000" });
    expect(found).toMatchObject({
      __typename: "VesselTrack",
      cached: false,
      position: { imo: "9811000", mmsi: "353136000", name: "EVER GIVEN", source: "simulator" },
    });
    expect(found.position.lastPortCall.locode).toMatch(/^[A-Z]{5}$/);
    expect(found.position.lastPortCall.localDateTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(found.position.lastPortCall.port.countryCode).toMatch(/^[A-Z]{2}$/);
    expect(Date.parse(found.position.nextPortCall.at)).toBeGreaterThan(
      Date.parse(found.position.lastPortCall.at),
    );
  });

  it("finds an AIS vessel by IMO number alone, the latest report of that IMO", async () => {
    expect(await ask({ imo: "9835915" })).toMatchObject({
      position: { imo: "9835915", mmsi: "525200930", name: "AKRA 102", source: "ais", lastPortCall: null },
    });
  });

  it("caches by what was asked: IMO alone, IMO with MMSI and a name are different questions", async () => {
    const withMmsi = await ask({ imo: "9839260", mmsi: "355000009" });
    expect(withMmsi).toMatchObject({ cached: false, position: { name: "MSC MINA" } });
    const remaining = withMmsi.allowance.remaining as number;
    expect(await ask({ imo: "9839260" })).toMatchObject({
      cached: false,
      allowance: { remaining: remaining - 1 },
    });
    expect(await ask({ imo: "9839260" })).toMatchObject({ cached: true, allowance: null });
    expect(await ask({ imo: "9839260", mmsi: "355000009" })).toMatchObject({ cached: true });
    expect(await ask({ name: "msc mina" })).toMatchObject({
      cached: false,
      allowance: { remaining: remaining - 2 },
    });
    // The same name however it is written: one cache entry.
    expect(await ask({ name: " MSC-Mina " })).toMatchObject({ cached: true, position: { imo: "9839260" } });
  });

  it("finds a vessel by name in the AIS feed first, then in the simulator's world", async () => {
    expect(await ask({ name: "Akra 102" })).toMatchObject({
      position: { imo: "9835915", name: "AKRA 102", source: "ais" },
    });
    expect(await ask({ name: "CMA CGM Antoine de Saint-Exupéry" })).toMatchObject({
      position: { imo: "9776418", mmsi: "228098700", source: "simulator" },
    });
  });

  it("answers VesselAmbiguous, listing them, when several vessels bear the name; the lookup is spent", async () => {
    const before = await ask({ imo: "9839272" });
    const answer = await ask({ name: "nordic star" });
    expect(answer).toMatchObject({
      __typename: "VesselAmbiguous",
      name: "nordic star",
      allowance: { remaining: before.allowance.remaining - 1 },
    });
    expect(answer.candidates).toHaveLength(2);
    expect(answer.candidates).toEqual(
      expect.arrayContaining(
        TWINS.map(({ mmsi, imo }) => ({ imo: String(imo), mmsi: String(mmsi), name: "NORDIC STAR" })),
      ),
    );
    // Each is found by its IMO number.
    expect(await ask({ imo: String(TWINS[1]!.imo) })).toMatchObject({
      position: { mmsi: String(TWINS[1]!.mmsi), source: "ais" },
    });
  });

  it("answers VesselNotFound with what was asked, spending the lookup", async () => {
    expect(await ask({ name: "Flying Dutchman" })).toMatchObject({
      __typename: "VesselNotFound",
      imo: null,
      mmsi: null,
      name: "Flying Dutchman",
      allowance: { remaining: expect.any(Number) },
    });
    expect(await ask({ imo: "9000003" })).toMatchObject({
      __typename: "VesselNotFound",
      imo: "9000003",
      mmsi: null,
    });
    // Names are matched whole.
    expect(await ask({ name: "EVER" })).toMatchObject({ __typename: "VesselNotFound" });
  });

  it("refuses a name with numbers, nothing at all, or a malformed number, before spending", async () => {
    for (const [variables, param] of [
      [{ name: "EVER GIVEN", imo: "9811000" }, "name"],
      [{ name: "EVER GIVEN", mmsi: "353136000" }, "name"],
      [{}, "imo"],
      [{ imo: " " }, "imo"],
      [{ mmsi: "353136000" }, "imo"],
      [{ imo: "981100" }, "imo"],
      [{ imo: "9811000", mmsi: "3531360" }, "mmsi"],
      [{ name: "-x-" }, "name"],
      [{ name: "A".repeat(101) }, "name"],
    ] as const) {
      expect(await ask(variables), JSON.stringify(variables)).toMatchObject({
        __typename: "LookupInputInvalid",
        param,
      });
    }
  });
});

async function principal() {
  const key = await app.services.db.prisma.apiKey.findUniqueOrThrow({
    where: { id: vesselOrg.keyId },
    include: { user: true, organization: true },
  });
  const { principalOf } = await import("../../src/domain/accounts/principal");
  return principalOf(key);
}

describe("the AIS feed ingester over TCP", () => {
  let server: Server;
  let feedPort: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    feedPort = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("decodes lines as they stream (a message split over writes), counts bad checksums, stores per MMSI", async () => {
    const ingester = new AisFeedIngester({
      source: { kind: "tcp", host: "127.0.0.1", port: feedPort },
      prisma: app.services.db.prisma,
      clock: app.services.clock,
      logger: app.services.logger,
      flushMs: 50,
    });
    await ingester.start();
    await waitFor(() => sockets.length > 0);
    const [part1, part2] = staticReport({
      mmsi: 353136000,
      imo: 9811000,
      callSign: "H3RC",
      name: "EVER GIVEN",
      draught: 15.7,
      destination: "NL RTM",
      eta: { month: 12, day: 1, hour: 6, minute: 0 },
    });
    const socket = sockets[0]!;
    socket.write(`${part1}\r\n${part2.slice(0, 10)}`);
    socket.write(`${part2.slice(10)}\r\n`);
    socket.write(
      `${positionReport({ mmsi: 353136000, lat: 29.9, lon: 32.55, speed: 0, course: 0, heading: 12, navStatus: 1 })}\r\n`,
    );
    socket.write(`${part1.replace("*", "X*")}\r\n`);
    await waitFor(() => ingester.stats.rowsWritten >= 1 && ingester.stats.lines >= 4);
    expect(ingester.stats).toMatchObject({ connected: true, positions: 1, staticReports: 1, malformed: 1 });
    socket.write("!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0*40\r\n");
    await waitFor(() => ingester.stats.badChecksum === 1);
    await ingester.stop();
    const row = await app.services.db.prisma.vesselPosition.findUniqueOrThrow({
      where: { mmsi: "353136000" },
    });
    expect(row).toMatchObject({
      imo: "9811000",
      name: "EVER GIVEN",
      destination: "NL RTM",
      eta: "12-01T06:00",
      navigationStatus: "At anchor",
      draught: 15.7,
    });
    const res = await track("imo=9811000&mmsi=353136000");
    expect((await res.json()).data).toMatchObject({
      destination_locode: "NLRTM",
      destination_port: "Rotterdam",
      eta: expect.stringMatching(/-12-01T07:00:00$/), // 06:00 UTC is 07:00 in Rotterdam
    });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const today = new Date().toISOString().slice(0, 10);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const schedules = (query: string, key = scheduleOrg.key) =>
  fetch(`${app.url}/api/v1/voyage/schedules?${query}`, { headers: { authorization: `Bearer ${key}` } });
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Shanghai's date of MSC's next sailing from Shanghai to Rotterdam in the simulator's world. */
function shanghaiWeekOfNextMscSailing(): string {
  const now = Date.now();
  const [first] = routesBetween({
    carrier: CARRIERS.find((c) => c.scac === "MSCU")!,
    origin: portByCode("CNSHA"),
    destination: portByCode("NLRTM"),
    // A day ahead, so the sailing has not left Shanghai by the time the request is answered.
    from: now + 86_400_000,
    to: now + 70 * 86_400_000,
    by: "departure",
    maxTransshipments: 0,
  });
  if (!first) throw new Error("MSC has no sailing from Shanghai to Rotterdam in ten weeks");
  return wallClockIn(new Date(first.legs[0]!.calls[0]!.depart).toISOString(), "Asia/Shanghai").slice(0, 10);
}

/**
 * MSC's named ships sail Shanghai to Rotterdam some weeks only (the world's fleet timetable), so the
 * Shanghai to Rotterdam searches ask for the week of MSC's next sailing there.
 */
const MSC_SAILING_WEEK = shanghaiWeekOfNextMscSailing();

describe("GET /api/v1/voyage/schedules", () => {
  it("answers the carriers' sailings with the section 2.7 fields, departing in the week from date", async () => {
    const date = MSC_SAILING_WEEK;
    const res = await schedules(`origin=CNSHA&destination=NLRTM&date=${date}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lookup-limit")).toBe("500");
    expect(res.headers.get("x-lookup-remaining")).toBe("499");
    const body = await res.json();
    expect(body).toMatchObject({ success: true, cached: false });
    expect(body.total).toBe(body.data.length);
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual(
        [
          "arrival_date",
          "arrival_date_utc",
          "departure_date",
          "departure_date_utc",
          "destination",
          "duration",
          "origin",
          "sealine",
          "sealine_name",
          "service_name",
          "transit_type",
          "vessel",
          "voyage",
        ].sort(),
      );
      expect(Object.keys(item.vessel).sort()).toEqual(["imo", "name"]);
      expect(Object.keys(item.origin).sort()).toEqual([
        "country_code",
        "locode",
        "name",
        "terminal",
        "terminal_code",
      ]);
      expect(Object.keys(item.destination)).toHaveLength(5);
      expect(item.origin).toMatchObject({ locode: "CNSHA", country_code: "CN", name: "Shanghai" });
      expect(item.destination).toMatchObject({ locode: "NLRTM", country_code: "NL" });
      expect(item.departure_date).toMatch(WALL_CLOCK);
      expect(item.arrival_date).toMatch(WALL_CLOCK);
      // The port-local dates and their UTC companions are one instant each, at each port's clock.
      expect(wallClockIn(item.departure_date_utc, "Asia/Shanghai")).toBe(item.departure_date);
      expect(wallClockIn(item.arrival_date_utc, "Europe/Amsterdam")).toBe(item.arrival_date);
      expect(item.departure_date_utc).toMatch(/Z$/);
      expect(item.departure_date.slice(0, 10) >= date).toBe(true);
      expect(item.departure_date.slice(0, 10) <= addDays(date, 6)).toBe(true);
      expect(item.duration).toBeGreaterThan(20);
      expect(["unspecified", "transshipment"]).toContain(item.transit_type);
      expect(item.vessel.imo).toMatch(/^\d{7}$/);
      expect(item.sealine).toMatch(/^[A-Z]{4}$/);
    }
    expect(body.data.map((i: { sealine: string }) => i.sealine)).toContain("MSCU");
    const departures = body.data.map((i: { departure_date: string }) => i.departure_date);
    expect([...departures].sort()).toEqual(departures);
  });

  it("widens with week_range and can filter on arrival instead", async () => {
    const one = await (await schedules(`origin=CNSHA&destination=USLGB&date=${today}&week_range=1`)).json();
    const three = await (await schedules(`origin=CNSHA&destination=USLGB&date=${today}&week_range=3`)).json();
    expect(three.total).toBeGreaterThan(one.total);
    const arriving = await (
      await schedules(`origin=CNSHA&destination=USLGB&date=${today}&week_range=2&date_type=arrival`)
    ).json();
    for (const item of arriving.data) {
      expect(item.arrival_date.slice(0, 10) >= today).toBe(true);
      expect(item.arrival_date.slice(0, 10) <= addDays(today, 13)).toBe(true);
    }
  });

  it("offers a transshipment routing when a carrier has no direct sailing on the lane", async () => {
    // MSC has no loop from Nhava Sheva to New York: Dragon to Shanghai, then Santana.
    const body = await (await schedules(`origin=INNSA&destination=USNYC&date=${today}&week_range=2`)).json();
    const msc = body.data.filter((i: { sealine: string }) => i.sealine === "MSCU");
    expect(msc.length).toBeGreaterThan(0);
    for (const item of msc) {
      expect(item.transit_type).toBe("transshipment");
      expect(item.arrival_date > item.departure_date).toBe(true);
    }
  });

  it("serves a repeat within 30 minutes from the cache, free and without X-Lookup-* headers", async () => {
    const query = `origin=SGSIN&destination=USLGB&date=${today}&week_range=2`;
    const first = await schedules(query);
    const remaining = first.headers.get("x-lookup-remaining");
    const repeat = await schedules(query);
    expect((await repeat.json()).cached).toBe(true);
    expect(repeat.headers.get("x-lookup-remaining")).toBeNull();
    // Vessel and schedule lookups share one allowance.
    const vessel = await fetch(`${app.url}/api/v1/vessel/track?imo=9703291&mmsi=355000002`, {
      headers: { authorization: `Bearer ${scheduleOrg.key}` },
    });
    expect(Number(vessel.headers.get("x-lookup-remaining"))).toBe(Number(remaining) - 1);
  });

  it("refuses bad parameters with 400 invalid_parameter naming the parameter, spending nothing", async () => {
    const cases: [string, string][] = [
      [`destination=NLRTM&date=${today}`, "origin"],
      [`origin=SHANGHAI&destination=NLRTM&date=${today}`, "origin"],
      [`origin=CNSHA&destination=NL1TM&date=${today}`, "destination"],
      [`origin=CNSHA&destination=CNSHA&date=${today}`, "destination"],
      ["origin=CNSHA&destination=NLRTM&date=2026-02-30", "date"],
      ["origin=CNSHA&destination=NLRTM", "date"],
      [`origin=CNSHA&destination=NLRTM&date=${today}&week_range=0`, "week_range"],
      [`origin=CNSHA&destination=NLRTM&date=${today}&week_range=7`, "week_range"],
      [`origin=CNSHA&destination=NLRTM&date=${today}&week_range=two`, "week_range"],
      [`origin=CNSHA&destination=NLRTM&date=${today}&date_type=eta`, "date_type"],
    ];
    const before = await schedules(`origin=CNSHA&destination=DEHAM&date=${today}`);
    const remaining = Number(before.headers.get("x-lookup-remaining"));
    for (const [query, param] of cases) {
      const res = await schedules(query);
      expect(res.status, query).toBe(400);
      expect((await res.json()).data, query).toMatchObject({ error: "invalid_parameter", param });
    }
    const after = await schedules(`origin=CNSHA&destination=BEANR&date=${today}`);
    expect(Number(after.headers.get("x-lookup-remaining"))).toBe(remaining - 1);
  });

  it("is the same search on GraphQL, with ports loaded for the endpoints", async () => {
    const { body } = await graphql(
      app,
      scheduleOrg.key,
      `query($date: String!) { sailingSchedules(origin: "CNSHA", destination: "NLRTM", date: $date) {
         __typename ... on SailingSchedules { cached items { sealine voyage origin { locode port { timeZone } } } } } }`,
      // The search the v1 test made: served from its cache.
      { date: MSC_SAILING_WEEK },
    );
    const result = body.data?.sailingSchedules as {
      cached: boolean;
      items: { origin: { port: { timeZone: string } } }[];
    };
    expect(result.cached).toBe(true);
    expect(result.items[0]?.origin.port.timeZone).toBe("Asia/Shanghai");
  });
});

const get = (path: string, key: string) =>
  fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const addDaysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

describe("daily lookup allowances under concurrency", () => {
  it("lets exactly the remaining vessel-and-schedule lookups through when 20 arrive at once", async () => {
    const org = await app.fixtures.organization({ plan: "free" });
    await app.services.limiter.consume(`lookups:vessel_schedule:${org.keyId}`, 100, DAY_MS, 90);
    // Twenty different searches (no cache hit among them): 10 of the 100 a day are left.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        get(`/api/v1/voyage/schedules?origin=CNNGB&destination=BEANR&date=${addDaysFromNow(i)}`, org.key),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const remaining = answers
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get("x-lookup-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect((await refused.json()).data.error).toBe("lookup_limit_exceeded");
      expect(refused.headers.get("x-lookup-remaining")).toBe("0");
    }
  });

  it("counts carrier lookups on their own allowance, exactly too", async () => {
    const org = await app.fixtures.organization({ plan: "business" });
    await app.services.limiter.consume(`lookups:carrier:${org.keyId}`, 1000, DAY_MS, 995);
    const numbers = Array.from({ length: 12 }, (_, i) => `MEDUFR${String(100000 + i)}`);
    const answers = await Promise.all(
      numbers.map((n) => get(`/api/v1/carriers/lookup?number=${n}`, org.key)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(7);
    // The vessel-and-schedule allowance of the key is untouched.
    const vessel = await get("/api/v1/vessel/track?imo=9776418&mmsi=228098700", org.key);
    expect(vessel.headers.get("x-lookup-remaining")).toBe("4999");
  });

  it("gives a lookup back when every provider failed (502), so it costs nothing", async () => {
    const org = await app.fixtures.organization({ plan: "starter" });
    for (const scac of DEFAULT_SCHEDULE_CARRIERS)
      app.simulator!.faults.set(scac, { mode: "server-error", status: 503 });
    try {
      const res = await get(
        `/api/v1/voyage/schedules?origin=CNSHA&destination=USLGB&date=${addDaysFromNow(3)}`,
        org.key,
      );
      expect(res.status).toBe(502);
      expect((await res.json()).data.error).toBe("provider_unavailable");
      expect(res.headers.get("x-lookup-remaining")).toBe("500");
    } finally {
      app.simulator!.faults.clear();
    }
    const ok = await get(
      `/api/v1/voyage/schedules?origin=CNSHA&destination=USLGB&date=${addDaysFromNow(3)}`,
      org.key,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-lookup-remaining")).toBe("499");
  });
});
