import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabaseTarget } from "../support/database";
import {
  extendedClassBReport,
  longRangeReport,
  positionReport,
  staticReport,
} from "../unit/lookups/ais-encode";
import {
  DEMO_KEY,
  type ServiceProcess,
  serviceEnvironment,
  startService,
  temporaryFolder,
} from "./service-process";

/**
 * Issue 24 item 8: `QUAYSIDE_AIS_FEED=file:...` under the real start command (Node's own module loader,
 * not vitest's), then a position from the file served by `GET /api/v1/vessel/track`. Before the decoder
 * took the CommonJS class either way, this start-up exited with "AisStreamDecoder is not a constructor".
 */
const folder = temporaryFolder();
const running: ServiceProcess[] = [];
afterAll(() => {
  for (const service of running) service.child.kill("SIGKILL");
  folder.remove();
});

const auth = { authorization: `Bearer ${DEMO_KEY}` };

// Vessels the simulator's world does not have, so only the feed can answer for them.
const CLASS_A = { mmsi: 244870123, imo: 9412345, name: "FEEDTEST HARMONY" };
const LONG_RANGE = { mmsi: 538090123, imo: 9487654, name: "FEEDTEST OCEANIC" };

describe("the AIS feed under npm start", () => {
  it("serves vessel positions read from a feed file, types 1, 19 and 27, lower-case checksums too", async () => {
    const feed = path.join(path.dirname(folder.dir), "feed.nmea");
    const eta = { month: 12, day: 3, hour: 6, minute: 0 };
    const lowerCaseChecksum = (sentence: string) =>
      sentence.replace(/\*([0-9A-F]{2})$/, (_, h: string) => `*${h.toLowerCase()}`);
    writeFileSync(
      feed,
      [
        ...staticReport({ ...CLASS_A, callSign: "PDAB", draught: 12.1, destination: "NLRTM", eta }),
        lowerCaseChecksum(
          positionReport({ mmsi: CLASS_A.mmsi, lat: 51.9, lon: 3.95, speed: 11.4, course: 84, heading: 85 }),
        ),
        ...staticReport({
          ...LONG_RANGE,
          callSign: "V7AB",
          draught: 13,
          destination: "SGSIN",
          eta,
          sequenceId: 5,
        }),
        longRangeReport({
          mmsi: LONG_RANGE.mmsi,
          lat: -8.5,
          lon: 72.25,
          speed: 17,
          course: 101,
          navStatus: 0,
        }),
        ...extendedClassBReport({
          mmsi: 244999777,
          lat: 52.1,
          lon: 4.3,
          speed: 3.2,
          course: 10,
          heading: 12,
          name: "FEEDTEST BARGE",
        }),
        "",
      ].join("\n"),
    );
    const target = await freshDatabaseTarget();
    const service = await startService({
      ...serviceEnvironment(target, folder.dir),
      QUAYSIDE_SIMULATOR: "off",
      QUAYSIDE_AIS_FEED: `file:${feed}`,
    });
    running.push(service);

    const track = async (vessel: { imo: number; mmsi: number }) => {
      const response = await fetch(
        `${service.url}/api/v1/vessel/track?imo=${vessel.imo}&mmsi=${vessel.mmsi}`,
        { headers: auth },
      );
      return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
    };

    const classA = await track(CLASS_A);
    expect(classA.status).toBe(200);
    expect(classA.body.data).toMatchObject({
      imo: String(CLASS_A.imo),
      mmsi: String(CLASS_A.mmsi),
      name: CLASS_A.name,
      speed: 11.4,
      destination_locode: "NLRTM",
    });
    expect(classA.body.data.lat).toBeCloseTo(51.9, 4);

    const longRange = await track(LONG_RANGE);
    expect(longRange.status).toBe(200);
    expect(longRange.body.data).toMatchObject({
      mmsi: String(LONG_RANGE.mmsi),
      name: LONG_RANGE.name,
      speed: 17,
    });
    expect(longRange.body.data.lon).toBeCloseTo(72.25, 2);

    // A vessel the feed never reported is not found, not a crash.
    expect((await track({ imo: 9300001, mmsi: 211000001 })).status).toBe(404);

    const ingested = service.logs().find((line) => line.msg === "AIS file ingested") as
      | { positions: number; badChecksum: number }
      | undefined;
    expect(ingested).toMatchObject({ positions: 3, badChecksum: 0 });
  }, 90_000);
});
