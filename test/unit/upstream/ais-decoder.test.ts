/**
 * What the AIS decoder refuses: a payload shorter than its message type (ITU-R M.1371-5) and a field
 * outside the values the standard allows. Before, a truncated type 1 report was decoded from the bits
 * that were left: the course or the latitude came out wrong and went into the vessel's position.
 */
import { describe, expect, it } from "vitest";
import { AisPayloadDecoder, type AisReading } from "../../../src/upstream/vessels/ais-decoder";
import {
  type AisSentence,
  FragmentAssembler,
  readSentence,
  withChecksum,
} from "../../../src/upstream/vessels/nmea";
import { extendedClassBReport, longRangeReport, positionReport, staticReport } from "../lookups/ais-encode";

// A recorded class A report (ais-stream-decoder's README): 28 characters, 168 bits, course 260.1°.
const RECORDED = "!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:Ow:2>`<,0*41";
// The same report cut after 21 characters (126 bits), mid-course, as a receiver passes on a sentence
// it lost the end of; the checksum is the XOR of the shorter body, so the sentence itself is well formed.
const CUT_MID_COURSE = "!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1r:,0*13";
// Cut after 19 characters (114 bits), mid-latitude.
const CUT_MID_LATITUDE = "!AIVDM,1,1,,B,133i;RPP1DPEbcDMV@1,0*5B";

function sentences(lines: readonly string[]): AisSentence[] {
  const assembler = new FragmentAssembler();
  let complete: AisSentence[] | null = null;
  for (const line of lines) {
    const reading = readSentence(line);
    if (!reading.ok) throw new Error(`${line}: ${reading.reason}`);
    complete = assembler.push(reading.sentence, 0);
  }
  if (!complete) throw new Error("the sentences do not make a complete message");
  return complete;
}

const read = (...lines: string[]): AisReading => new AisPayloadDecoder().read(sentences(lines));

/** A one-sentence message with the payload cut to `chars` characters, its checksum recomputed. */
function cut(line: string, chars: number): string {
  const fields = line.replace(/\*[0-9A-F]{2}$/i, "").split(",");
  fields[5] = fields[5]!.slice(0, chars);
  fields[6] = "0";
  return withChecksum(fields.join(","));
}

describe("AIS payloads shorter than their message type", () => {
  it("reads the whole recorded report and refuses it cut mid-course or mid-latitude (well-formed sentences)", () => {
    expect(read(RECORDED)).toEqual({
      ok: true,
      message: {
        kind: "position",
        mmsi: "205278090",
        lat: 51.725665,
        lon: 4.73319,
        speed: 8.4,
        course: 260.1,
        heading: null,
        navigationStatus: 0,
      },
    });
    // The checksums above are right: the sentences pass the NMEA check, only the payload is short.
    expect(cut(RECORDED, 21)).toBe(CUT_MID_COURSE);
    expect(cut(RECORDED, 19)).toBe(CUT_MID_LATITUDE);
    // The feed's path (`decode`) keeps nothing of them: before, the first gave course 65°, the second latitude 12.9°.
    expect(new AisPayloadDecoder().decode(sentences([CUT_MID_COURSE]))).toBeNull();
    expect(new AisPayloadDecoder().decode(sentences([CUT_MID_LATITUDE]))).toBeNull();
    expect(read(CUT_MID_COURSE)).toEqual({
      ok: false,
      refusal: { reason: "truncated", type: 1, bits: 126, required: 168 },
    });
    expect(read(CUT_MID_LATITUDE)).toEqual({
      ok: false,
      refusal: { reason: "truncated", type: 1, bits: 114, required: 168 },
    });
  });

  it("refuses a type 1 report one character short, where only the radio status is missing", () => {
    expect(read(cut(RECORDED, 27))).toMatchObject({ ok: false, refusal: { reason: "truncated", bits: 162 } });
  });

  it("refuses short type 5, 19 and 27 messages, and reads them whole", () => {
    const voyage = staticReport({
      mmsi: 228098700,
      imo: 9776418,
      callSign: "FJZP",
      name: "CMA CGM JACQUES SAADE",
      draught: 14.5,
      destination: "NLRTM",
      eta: { month: 12, day: 1, hour: 6, minute: 30 },
    });
    expect(read(...voyage)).toMatchObject({ ok: true, message: { kind: "static", destination: "NLRTM" } });
    // The second sentence without its last characters: the destination is cut short.
    const [first, second] = voyage;
    const shortSecond = withChecksum(
      second
        .replace(/\*[0-9A-F]{2}$/i, "")
        .replace(/,([^,]*),(\d)$/, (_m, payload: string) => `,${payload.slice(0, -3)},0`),
    );
    expect(read(first, shortSecond)).toMatchObject({
      ok: false,
      refusal: { reason: "truncated", type: 5, required: 424 },
    });

    const classB = extendedClassBReport({
      mmsi: 244123456,
      lat: 51.95,
      lon: 4.05,
      speed: 6.3,
      course: 271.4,
      heading: 270,
      name: "RIVER BARGE ONE",
    });
    expect(read(...classB)).toMatchObject({ ok: true, message: { name: "RIVER BARGE ONE" } });
    const classBOneSentence = withChecksum(
      `!AIVDM,1,1,,A,${classB[0].split(",")[5]}${classB[1].split(",")[5]!.slice(0, 10)},0`,
    );
    expect(read(classBOneSentence)).toMatchObject({
      ok: false,
      refusal: { reason: "truncated", type: 19, required: 312 },
    });

    const longRange = longRangeReport({
      mmsi: 538009876,
      lat: -12.5,
      lon: -45.25,
      speed: 14,
      course: 95,
      navStatus: 0,
    });
    expect(read(longRange)).toMatchObject({ ok: true, message: { course: 95 } });
    expect(read(cut(longRange, 14))).toMatchObject({
      ok: false,
      refusal: { reason: "truncated", type: 27, bits: 84, required: 96 },
    });
  });
});

describe("AIS fields outside the standard's values", () => {
  const report = (fields: Partial<Parameters<typeof positionReport>[0]>) =>
    read(
      positionReport({
        mmsi: 366999001,
        lat: 37.8,
        lon: -122.3,
        speed: 12,
        course: 90,
        heading: 91,
        ...fields,
      }),
    );

  it("refuses a course, heading, latitude or longitude no ship can have, and an MMSI of 0", () => {
    expect(report({ course: 409.5 })).toEqual({
      ok: false,
      refusal: { reason: "invalid_field", type: 1, field: "course", value: 409.5 },
    });
    expect(report({ heading: 400 })).toMatchObject({ refusal: { field: "heading", value: 400 } });
    expect(report({ lat: 95 })).toMatchObject({ refusal: { field: "latitude", value: 95 } });
    expect(report({ lon: -200 })).toMatchObject({ refusal: { field: "longitude", value: -200 } });
    expect(report({ mmsi: 0 })).toMatchObject({ refusal: { field: "mmsi", value: 0 } });
  });

  it("reads the standard's 'not available' values as unknown, and a report without a position as none", () => {
    expect(report({ speed: 102.3, course: 360, heading: 511 })).toMatchObject({
      ok: true,
      message: { speed: null, course: null, heading: null },
    });
    expect(report({ lat: 91, lon: 181 })).toEqual({ ok: false, refusal: { reason: "no_position", type: 1 } });
  });

  it("counts each refusal by its reason, for the feed's statistics", () => {
    const decoder = new AisPayloadDecoder();
    decoder.decode(sentences([CUT_MID_COURSE]));
    decoder.decode(
      sentences([
        positionReport({ mmsi: 366999001, lat: 37.8, lon: -122.3, speed: 1, course: 400, heading: 1 }),
      ]),
    );
    expect(decoder.decode(sentences([RECORDED]))).toMatchObject({ course: 260.1 });
    expect(decoder.undecoded).toBe(2);
    expect(decoder.refused).toEqual({ truncated: 1, invalid_field: 1, no_position: 0, unsupported_type: 0 });
  });
});
