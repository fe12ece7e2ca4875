import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AisPayloadDecoder } from "../../../src/upstream/vessels/ais-decoder";
import {
  aisDestination,
  destinationLocode,
  etaInstant,
} from "../../../src/upstream/vessels/ais-positions.provider";
import {
  FragmentAssembler,
  nmeaChecksum,
  readSentence,
  withChecksum,
} from "../../../src/upstream/vessels/nmea";
import { extendedClassBReport, longRangeReport, positionReport, staticReport } from "./ais-encode";

// Recorded sentences (ais-stream-decoder's README): a class A position of a Dutch inland vessel, and the
// two-part static and voyage report of AKRA 102 bound for Merak.
const RECORDED_POSITION = "!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0*41";
const RECORDED_STATIC = [
  "!AIVDM,2,1,7,A,57lof8`2F5HeT<eC:204e86373:222222222221@8HQC16Ch0:RA7kAD,0*28",
  "!AIVDM,2,2,7,A,PBp888888888880,2*79",
];

function decodeAll(lines: string[]) {
  const assembler = new FragmentAssembler();
  const decoder = new AisPayloadDecoder();
  const out = [];
  for (const line of lines) {
    const reading = readSentence(line);
    if (!reading.ok) continue;
    const group = assembler.push(reading.sentence, 0);
    if (group) out.push(decoder.decode(group));
  }
  return out;
}

describe("NMEA sentences", () => {
  it("checks the checksum: the XOR of everything between ! and *", () => {
    expect(nmeaChecksum("AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0")).toBe("41");
    expect(readSentence(RECORDED_POSITION)).toMatchObject({
      ok: true,
      sentence: { channel: "B", fragmentCount: 1 },
    });
    const corrupted = RECORDED_POSITION.replace("133i;", "133j;");
    expect(readSentence(corrupted)).toMatchObject({ ok: false, reason: "bad_checksum" });
    expect(readSentence(RECORDED_POSITION.replace("*41", "*42"))).toMatchObject({
      ok: false,
      reason: "bad_checksum",
    });
  });

  it("strips a tag block and tells other sentences and broken lines apart", () => {
    const tagged = `\\s:rORBCOMM000,c:1426802006*4B\\${RECORDED_POSITION}`;
    expect(readSentence(tagged)).toMatchObject({ ok: true, sentence: { raw: RECORDED_POSITION } });
    expect(readSentence("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")).toMatchObject({
      ok: false,
      reason: "not_ais",
    });
    expect(readSentence("!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r")).toMatchObject({
      ok: false,
      reason: "malformed",
    });
  });
});

describe("AIS decoding (ais-stream-decoder behind our types)", () => {
  it("decodes a recorded class A position report", () => {
    const [message] = decodeAll([RECORDED_POSITION]);
    expect(message).toEqual({
      kind: "position",
      mmsi: "205278090",
      lat: 51.725665,
      lon: 4.73319,
      speed: 8.4,
      course: 260.1,
      heading: null,
      navigationStatus: 0,
    });
  });

  it("puts a recorded two-part static report back together", () => {
    const [message] = decodeAll(RECORDED_STATIC);
    expect(message).toEqual({
      kind: "static",
      mmsi: "525200930",
      imo: "9835915",
      name: "AKRA 102",
      callSign: "YCKT2",
      draught: 4.2,
      destination: "ID_MERAK",
      eta: { month: 9, day: 7, hour: 16, minute: 0 },
    });
  });

  it("reassembles interleaved multi-part messages by sequence id and drops incomplete ones", () => {
    const one = staticReport({
      mmsi: 228098700,
      imo: 9776418,
      callSign: "FJZP",
      name: "CMA CGM ANTOINE DE SAINT EXUPERY",
      draught: 14.5,
      destination: "NLRTM",
      eta: { month: 12, day: 1, hour: 6, minute: 30 },
      sequenceId: 1,
    });
    const two = staticReport({
      mmsi: 353136000,
      imo: 9811000,
      callSign: "H3RC",
      name: "EVER GIVEN",
      draught: 15.7,
      destination: "CN SHA",
      eta: { month: 1, day: 15, hour: 12, minute: 0 },
      sequenceId: 2,
    });
    // An orphan second fragment (its first was lost) decodes to nothing and disturbs nothing.
    const orphan = withChecksum("!AIVDM,2,2,5,B,PBp888888888880,2");
    const messages = decodeAll([one[0], two[0], orphan, one[1], two[1]]);
    expect(messages.map((m) => m && "imo" in m && m.imo)).toEqual(["9776418", "9811000"]);
    expect(messages[0]).toMatchObject({ name: "CMA CGM ANTOINE DE S", destination: "NLRTM", draught: 14.5 });

    const assembler = new FragmentAssembler();
    const second = readSentence(one[1]);
    expect(second.ok && assembler.push(second.sentence, 0)).toBeNull();
    const first = readSentence(one[0]);
    expect(first.ok && assembler.push(first.sentence, 0)).toBeNull();
    expect(first.ok && assembler.push(first.sentence, 20_000)).toBeNull(); // the old group expired
    expect(assembler.dropped).toBe(1);
  });

  it("decodes positions written by the fixture encoder (south and west are negative)", () => {
    const [message] = decodeAll([
      positionReport({
        mmsi: 228098700,
        lat: -33.9,
        lon: -18.4,
        speed: 15.2,
        course: 182.5,
        heading: 181,
        navStatus: 5,
      }),
    ]);
    expect(message).toMatchObject({
      mmsi: "228098700",
      speed: 15.2,
      course: 182.5,
      heading: 181,
      navigationStatus: 5,
    });
    expect((message as { lat: number }).lat).toBeCloseTo(-33.9, 5);
    expect((message as { lon: number }).lon).toBeCloseTo(-18.4, 5);
  });

  it("reads type 19, the extended class B report, with the ship's name", () => {
    const [message] = decodeAll(
      extendedClassBReport({
        mmsi: 244123456,
        lat: 51.95,
        lon: 4.05,
        speed: 6.3,
        course: 271.4,
        heading: 270,
        name: "RIVER BARGE ONE",
      }),
    );
    expect(message).toMatchObject({
      kind: "position",
      mmsi: "244123456",
      speed: 6.3,
      course: 271.4,
      heading: 270,
      navigationStatus: null,
      name: "RIVER BARGE ONE",
    });
    expect((message as { lat: number }).lat).toBeCloseTo(51.95, 5);
    expect((message as { lon: number }).lon).toBeCloseTo(4.05, 5);
  });

  it("reads type 27, the long-range broadcast, at its coarser resolution (west and south negative)", () => {
    const [message] = decodeAll([
      longRangeReport({ mmsi: 538009876, lat: -12.5, lon: -45.25, speed: 14, course: 95, navStatus: 0 }),
    ]);
    expect(message).toMatchObject({
      kind: "position",
      mmsi: "538009876",
      speed: 14,
      course: 95,
      heading: null,
      navigationStatus: 0,
    });
    expect((message as { lat: number }).lat).toBeCloseTo(-12.5, 2);
    expect((message as { lon: number }).lon).toBeCloseTo(-45.25, 2);
    // "Not available" (longitude 181°) is no position at all.
    expect(
      decodeAll([
        longRangeReport({ mmsi: 538009876, lat: 91, lon: 181, speed: 63, course: 511, navStatus: 15 }),
      ]),
    ).toEqual([null]);
  });

  it("accepts a lower-case checksum, as some receivers write it", () => {
    const sentence = positionReport({
      mmsi: 366999001,
      lat: 37.8,
      lon: -122.3,
      speed: 0,
      course: 0,
      heading: 91,
    });
    expect(sentence).toMatch(/\*7A$/);
    const lowerCase = sentence.replace(/\*7A$/, "*7a");
    expect(decodeAll([lowerCase])[0]).toMatchObject({ kind: "position", mmsi: "366999001", heading: 91 });
    expect(decodeAll([sentence.replace(/\*7A$/, "*7b")])).toEqual([]);
  });

  it("reads crew-typed destinations and yearless ETAs", () => {
    expect(destinationLocode("NLRTM")).toBe("NLRTM");
    expect(destinationLocode("cn sha")).toBe("CNSHA");
    expect(destinationLocode("CNSHA>NLRTM")).toBe("NLRTM");
    expect(destinationLocode("ID_MERAK")).toBeNull();
    const reported = new Date("2026-12-20T00:00:00Z");
    expect(etaInstant("01-15T12:00", reported)).toBe("2027-01-15T12:00:00.000Z");
    expect(etaInstant("12-10T06:30", reported)).toBe("2026-12-10T06:30:00.000Z");
    expect(etaInstant("02-30T00:00", reported)).toBeNull();
    expect(aisDestination("NLRTM", null, reported)).toEqual({ locode: "NLRTM", name: "Rotterdam", at: null });
    expect(aisDestination("ID_MERAK", null, reported)).toEqual({ locode: null, name: "ID_MERAK", at: null });
  });
});

describe("under Node's own module loader", () => {
  // vitest hands a CommonJS package's `exports.default` to a default import; Node's ES module loader,
  // which `npm start` runs under (tsx registered by bin/quayside.mjs), hands over the exports object.
  // Before the decoder took the class either way, QUAYSIDE_AIS_FEED made `npm start` exit at start-up.
  it("decodes a recorded position the way npm start runs the code", () => {
    const script = [
      'const { AisPayloadDecoder } = await import("./src/upstream/vessels/ais-decoder.ts");',
      'const { readSentence } = await import("./src/upstream/vessels/nmea.ts");',
      `const reading = readSentence(${JSON.stringify(RECORDED_POSITION)});`,
      "const message = new AisPayloadDecoder().decode([reading.sentence]);",
      "console.log(JSON.stringify({ mmsi: message.mmsi, kind: message.kind }));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../../..", import.meta.url)),
      encoding: "utf8",
    });
    const inProcess = decodeAll([RECORDED_POSITION])[0]!;
    expect(inProcess.mmsi).toBe("205278090");
    expect(JSON.parse(out.trim())).toEqual({ mmsi: inProcess.mmsi, kind: inProcess.kind });
  });
});
