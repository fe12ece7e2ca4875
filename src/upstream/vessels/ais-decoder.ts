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
 * AIS payload decoding behind types of our own. Position reports (types 1-3, 18, 19 with the ship's
 * name, 27 the long-range broadcast satellite receivers pick up far offshore) are read here from the
 * bits, each field checked; the static reports (types 5 and 24) by ais-stream-decoder. Either way a
 * payload shorter than its type's length is refused first: the library reads missing bits as whatever
 * is left of the string, so a truncated report came out with a wrong course or latitude.
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

/** A static report the library decoded, in our types; null for what we do not read (type 24 part B). */
export function toAisMessage(raw: RawMessage): AisMessage | null {
  const mmsi = String(raw.mmsi).padStart(9, "0");
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

/**
 * Why a complete message was not read. `truncated`: fewer bits than ITU-R M.1371 gives the message
 * type, so the fields at its end would be read from bits that are not there (a type 1 cut after the
 * course read a course of 65° where the ship steered 260°). `invalid_field`: a field outside the values
 * the standard allows (its "not available" value aside). `no_position`: a position report saying it
 * has no position (latitude 91°, longitude 181°). `unsupported_type`: a type we do not read.
 */
export type AisRefusal =
  | { reason: "truncated"; type: number; bits: number; required: number }
  | { reason: "invalid_field"; type: number; field: string; value: number }
  | { reason: "no_position"; type: number }
  | { reason: "unsupported_type"; type: number | null };

export type AisReading = { ok: true; message: AisMessage } | { ok: false; refusal: AisRefusal };

/**
 * Bits of each type we read (ITU-R M.1371-5, annex 8): a payload shorter than this is refused whole.
 * Type 24 part A is 160 bits (some transmitters add 8 spare bits to 168; longer is accepted).
 * Type 5 is 424 bits; its last field we read, the destination, ends at bit 422.
 */
const REQUIRED_BITS: Readonly<Record<number, number>> = {
  1: 168,
  2: 168,
  3: 168,
  5: 424,
  18: 168,
  19: 312,
  24: 160,
  27: 96,
};
const TYPE_24_PART_B_BITS = 168;

/** Decodes complete messages; one decoder per feed. */
export class AisPayloadDecoder {
  private decoder = this.create();
  private readonly decoded: RawMessage[] = [];
  /** Messages of types we do not read, or payloads that did not decode. */
  undecoded = 0;
  /** The refusals behind `undecoded`, by reason. */
  readonly refused: Record<AisRefusal["reason"], number> = {
    truncated: 0,
    invalid_field: 0,
    no_position: 0,
    unsupported_type: 0,
  };

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
    const reading = this.read(sentences);
    return reading.ok ? reading.message : null;
  }

  /** The message the sentences carry, or why it was refused. */
  read(sentences: readonly AisSentence[]): AisReading {
    const reading = this.readMessage(sentences);
    if (!reading.ok) {
      this.undecoded++;
      this.refused[reading.refusal.reason]++;
    }
    return reading;
  }

  private readMessage(sentences: readonly AisSentence[]): AisReading {
    const bits = payloadBits(sentences);
    const type = unsigned(bits, 0, 6);
    const required = type === null ? undefined : REQUIRED_BITS[type];
    if (type === null || required === undefined) return refuse({ reason: "unsupported_type", type });
    const needed = type === 24 && unsigned(bits, 38, 2) === 1 ? TYPE_24_PART_B_BITS : required;
    if (bits.length < needed)
      return refuse({ reason: "truncated", type, bits: bits.length, required: needed });
    const mmsi = unsigned(bits, 8, 30) ?? 0;
    // MMSI 0 is no station: a receiver's placeholder or a corrupted report.
    if (mmsi === 0) return refuse({ reason: "invalid_field", type, field: "mmsi", value: 0 });
    if (type === 1 || type === 2 || type === 3 || type === 18 || type === 19 || type === 27) {
      return readPosition(bits, type, String(mmsi).padStart(9, "0"));
    }
    this.decoded.length = 0;
    // The library compares checksums in upper case only; ours were checked case-blind already.
    for (const sentence of sentences) this.decoder.write(upperCaseChecksum(sentence.raw));
    const raw = this.decoded.shift();
    this.decoded.length = 0;
    const message = raw ? toAisMessage(raw) : null;
    return message ? { ok: true, message } : refuse({ reason: "unsupported_type", type });
  }
}

const refuse = (refusal: AisRefusal): AisReading => ({ ok: false, refusal });

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

/** Where a position report keeps its fields, and in which units (ITU-R M.1371-5). */
interface PositionLayout {
  status?: number;
  speed: { at: number; width: number; scale: number; none: number };
  lon: { at: number; width: number };
  lat: { at: number; width: number };
  /** Units per degree of longitude and latitude. */
  perDegree: number;
  course: { at: number; width: number; scale: number; none: number };
  heading?: number;
  name?: number;
}

const CLASS_A: PositionLayout = {
  status: 38,
  speed: { at: 50, width: 10, scale: 10, none: 1023 },
  lon: { at: 61, width: 28 },
  lat: { at: 89, width: 27 },
  perDegree: 600_000,
  course: { at: 116, width: 12, scale: 10, none: 3600 },
  heading: 128,
};
const CLASS_B: PositionLayout = {
  speed: { at: 46, width: 10, scale: 10, none: 1023 },
  lon: { at: 57, width: 28 },
  lat: { at: 85, width: 27 },
  perDegree: 600_000,
  course: { at: 112, width: 12, scale: 10, none: 3600 },
  heading: 124,
};
const LAYOUTS: Readonly<Record<number, PositionLayout>> = {
  1: CLASS_A,
  2: CLASS_A,
  3: CLASS_A,
  18: CLASS_B,
  // The extended class B report adds the ship's name in 20 six-bit characters.
  19: { ...CLASS_B, name: 143 },
  // The long-range broadcast: 1/10 minute, whole knots (63: none), whole degrees (511: none).
  27: {
    status: 40,
    speed: { at: 79, width: 6, scale: 1, none: 63 },
    lon: { at: 44, width: 18 },
    lat: { at: 62, width: 17 },
    perDegree: 600,
    course: { at: 85, width: 9, scale: 1, none: 511 },
  },
};
const HEADING_NONE = 511;
const STATUS_NONE = 15;

/**
 * A position report (types 1-3, 18, 19 and 27) read from its bits, whose length was checked before.
 * Every field is either a value the standard allows or its "not available" value (read as null);
 * anything else refuses the whole report, since one corrupted field says the others may be too.
 */
function readPosition(bits: string, type: number, mmsi: string): AisReading {
  const layout = LAYOUTS[type]!;
  const field = (at: number, width: number) => unsigned(bits, at, width)!;
  const invalid = (name: string, value: number) =>
    refuse({ reason: "invalid_field", type, field: name, value });
  const lonRaw = signed(bits, layout.lon.at, layout.lon.width)!;
  const latRaw = signed(bits, layout.lat.at, layout.lat.width)!;
  // 181° and 91° are the standard's "not available".
  if (lonRaw === 181 * layout.perDegree || latRaw === 91 * layout.perDegree) {
    return refuse({ reason: "no_position", type });
  }
  if (Math.abs(lonRaw) > 180 * layout.perDegree) return invalid("longitude", lonRaw / layout.perDegree);
  if (Math.abs(latRaw) > 90 * layout.perDegree) return invalid("latitude", latRaw / layout.perDegree);
  const speed = field(layout.speed.at, layout.speed.width);
  const course = field(layout.course.at, layout.course.width);
  if (course !== layout.course.none && course >= 360 * layout.course.scale) {
    return invalid("course", course / layout.course.scale);
  }
  const heading = layout.heading === undefined ? HEADING_NONE : field(layout.heading, 9);
  if (heading !== HEADING_NONE && heading >= 360) return invalid("heading", heading);
  const status = layout.status === undefined ? null : field(layout.status, 4);
  const message: AisMessage = {
    kind: "position",
    mmsi,
    lat: latRaw / layout.perDegree,
    lon: lonRaw / layout.perDegree,
    speed: speed === layout.speed.none ? null : speed / layout.speed.scale,
    course: course === layout.course.none ? null : course / layout.course.scale,
    heading: heading === HEADING_NONE ? null : heading,
    // Class A reports keep "not defined" (15) as sent, as the library did; the long-range one reads it as none.
    navigationStatus: status === null || (type === 27 && status === STATUS_NONE) ? null : status,
  };
  if (layout.name !== undefined) message.name = sixBitText(bits, layout.name, 20);
  return { ok: true, message };
}
