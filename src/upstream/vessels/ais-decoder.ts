import aisStreamDecoderModule from "ais-stream-decoder";
import type { AisSentence } from "./nmea";

/**
 * The package is CommonJS compiled from TypeScript (`exports.default = class ...`). Node's ES module
 * loader, which `npm start` runs under, hands a default import the whole exports object; vitest and
 * bundlers hand it `exports.default`. Take the class either way.
 */
const AisStreamDecoder =
  (aisStreamDecoderModule as unknown as { default?: typeof aisStreamDecoderModule }).default ??
  aisStreamDecoderModule;
type StreamDecoder = InstanceType<typeof AisStreamDecoder>;

/**
 * AIS payload decoding with ais-stream-decoder (message types 1-3, 5, 18, 24), behind types of our own;
 * types 19 (extended class B position with the ship's name) and 27 (the long-range broadcast satellite
 * receivers pick up far offshore) are read here, since the library does not know them.
 * The library keeps one buffer for multi-sentence messages whatever their sequence id, so it is fed only
 * complete messages, in order, from `FragmentAssembler`; checksums were checked before too.
 */
export type AisMessage =
  | {
      kind: "position";
      mmsi: string;
      lat: number;
      lon: number;
      /** Knots. */
      speed: number | null;
      course: number | null;
      heading: number | null;
      /** ITU-R M.1371 code; class B reports (types 18 and 19) have none. */
      navigationStatus: number | null;
      /** The ship's name, when the report carries one (type 19, the extended class B report). */
      name?: string | null;
    }
  | {
      kind: "static";
      mmsi: string;
      imo: string | null;
      name: string | null;
      callSign: string | null;
      draught: number | null;
      destination: string | null;
      /** UTC, without a year, as AIS sends it. */
      eta: { month: number; day: number; hour: number; minute: number } | null;
    }
  | { kind: "name"; mmsi: string; name: string };

interface RawMessage {
  type: number;
  mmsi: number;
  lat?: number | null;
  lon?: number | null;
  speedOverGround?: number | null;
  courseOverGround?: number | null;
  heading?: number | null;
  navStatus?: number;
  imo?: number;
  name?: string;
  callsign?: string;
  draught?: number;
  destination?: string;
  etaMonth?: number | null;
  etaDay?: number | null;
  etaHour?: number | null;
  etaMinute?: number | null;
  partNum?: number;
}

const text = (value: string | undefined) => {
  const trimmed = value?.replace(/@+$/, "").trim();
  return trimmed ? trimmed : null;
};

export function toAisMessage(raw: RawMessage): AisMessage | null {
  const mmsi = String(raw.mmsi).padStart(9, "0");
  if (raw.type === 1 || raw.type === 2 || raw.type === 3 || raw.type === 18) {
    if (raw.lat === null || raw.lon === null || raw.lat === undefined || raw.lon === undefined) return null;
    if (Math.abs(raw.lat) > 90 || Math.abs(raw.lon) > 180) return null;
    return {
      kind: "position",
      mmsi,
      lat: raw.lat,
      lon: raw.lon,
      speed: raw.speedOverGround ?? null,
      course: raw.courseOverGround ?? null,
      heading: raw.heading ?? null,
      navigationStatus: raw.type === 18 ? null : (raw.navStatus ?? null),
    };
  }
  if (raw.type === 5) {
    const eta =
      raw.etaMonth && raw.etaDay && raw.etaHour !== null && raw.etaHour !== undefined
        ? { month: raw.etaMonth, day: raw.etaDay, hour: raw.etaHour, minute: raw.etaMinute ?? 0 }
        : null;
    return {
      kind: "static",
      mmsi,
      imo: raw.imo && raw.imo >= 1_000_000 && raw.imo <= 9_999_999 ? String(raw.imo) : null,
      name: text(raw.name),
      callSign: text(raw.callsign),
      draught: raw.draught ? raw.draught : null,
      destination: text(raw.destination),
      eta,
    };
  }
  if (raw.type === 24 && raw.partNum === 0) {
    const name = text(raw.name);
    return name ? { kind: "name", mmsi, name } : null;
  }
  return null;
}

/** Decodes complete messages; one decoder per feed. */
export class AisPayloadDecoder {
  private decoder = this.create();
  private readonly decoded: RawMessage[] = [];
  /** Messages of types we do not read, or payloads that did not decode. */
  undecoded = 0;

  private create(): StreamDecoder {
    const decoder = new AisStreamDecoder({ silent: true });
    decoder.on("data", (json: string) => {
      this.decoded.push(JSON.parse(json) as RawMessage);
    });
    // Anything but a DecodingError destroys the stream: start a fresh one for the next message.
    decoder.on("error", () => {
      this.decoder = this.create();
    });
    return decoder;
  }

  /** The message the sentences carry, or null for types we do not use or payloads that do not decode. */
  decode(sentences: readonly AisSentence[]): AisMessage | null {
    const own = decodeOwnTypes(sentences);
    if (own !== undefined) {
      if (!own) this.undecoded++;
      return own;
    }
    this.decoded.length = 0;
    // The library compares checksums in upper case only; ours were checked case-blind already.
    for (const sentence of sentences) this.decoder.write(upperCaseChecksum(sentence.raw));
    const raw = this.decoded.shift();
    this.decoded.length = 0;
    const message = raw ? toAisMessage(raw) : null;
    if (!message) this.undecoded++;
    return message;
  }
}

function upperCaseChecksum(raw: string): string {
  const star = raw.lastIndexOf("*");
  return star < 0 ? raw : raw.slice(0, star) + raw.slice(star).toUpperCase();
}

/** The payload's bits, 6 to a character (ITU-R M.1371 armouring), fill bits of the last part dropped. */
function payloadBits(sentences: readonly AisSentence[]): string {
  let bits = "";
  for (const sentence of sentences) {
    for (const ch of sentence.payload) {
      let v = ch.charCodeAt(0) - 48;
      if (v > 40) v -= 8;
      bits += v.toString(2).padStart(6, "0");
    }
  }
  const fill = sentences.at(-1)?.fillBits ?? 0;
  return fill > 0 ? bits.slice(0, bits.length - fill) : bits;
}

function unsigned(bits: string, start: number, width: number): number | null {
  if (start + width > bits.length) return null;
  return Number.parseInt(bits.slice(start, start + width), 2);
}

function signed(bits: string, start: number, width: number): number | null {
  const value = unsigned(bits, start, width);
  if (value === null) return null;
  return bits[start] === "1" ? value - 2 ** width : value;
}

function sixBitText(bits: string, start: number, chars: number): string | null {
  let out = "";
  for (let i = 0; i < chars; i++) {
    const v = unsigned(bits, start + i * 6, 6);
    if (v === null) break;
    out += String.fromCharCode(v < 32 ? v + 64 : v);
  }
  return text(out);
}

const MESSAGE_TYPE_19 = 19;
const MESSAGE_TYPE_27 = 27;

/**
 * Types 19 and 27, read from the bits; undefined for every other type (the library's), null when the
 * payload is too short or carries no position ("not available" values: longitude 181, latitude 91).
 */
export function decodeOwnTypes(sentences: readonly AisSentence[]): AisMessage | null | undefined {
  const bits = payloadBits(sentences);
  const type = unsigned(bits, 0, 6);
  if (type !== MESSAGE_TYPE_19 && type !== MESSAGE_TYPE_27) return undefined;
  const mmsiNumber = unsigned(bits, 8, 30);
  if (mmsiNumber === null) return null;
  const mmsi = String(mmsiNumber).padStart(9, "0");
  if (type === MESSAGE_TYPE_19) {
    // Speed 0.1 kn (1023: none), longitude and latitude in 1/10,000 minute, course 0.1° (3600: none),
    // heading in degrees (511: none), the name in 20 six-bit characters.
    const speed = unsigned(bits, 46, 10);
    const lon = signed(bits, 57, 28);
    const lat = signed(bits, 85, 27);
    const course = unsigned(bits, 112, 12);
    const heading = unsigned(bits, 124, 9);
    if (lon === null || lat === null) return null;
    return position(mmsi, lat / 600_000, lon / 600_000, {
      speed: speed === null || speed === 1023 ? null : speed / 10,
      course: course === null || course >= 3600 ? null : course / 10,
      heading: heading === null || heading === 511 ? null : heading,
      navigationStatus: null,
      name: sixBitText(bits, 143, 20),
    });
  }
  // Type 27: navigation status, longitude and latitude in 1/10 minute, speed in knots (63: none),
  // course in degrees (511: none).
  const status = unsigned(bits, 40, 4);
  const lon = signed(bits, 44, 18);
  const lat = signed(bits, 62, 17);
  const speed = unsigned(bits, 79, 6);
  const course = unsigned(bits, 85, 9);
  if (lon === null || lat === null) return null;
  return position(mmsi, lat / 600, lon / 600, {
    speed: speed === null || speed === 63 ? null : speed,
    course: course === null || course === 511 ? null : course,
    heading: null,
    navigationStatus: status === null || status === 15 ? null : status,
  });
}

function position(
  mmsi: string,
  lat: number,
  lon: number,
  rest: Omit<Extract<AisMessage, { kind: "position" }>, "kind" | "mmsi" | "lat" | "lon">,
): AisMessage | null {
  // 91° and 181° are the standard's "not available"; anything beyond the globe is no position either.
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { kind: "position", mmsi, lat, lon, ...rest };
}
