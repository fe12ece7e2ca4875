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
 * AIS payload decoding with ais-stream-decoder (message types 1-3, 5, 18, 24), behind types of our own.
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
      /** ITU-R M.1371 code; class B reports (type 18) have none. */
      navigationStatus: number | null;
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
    this.decoded.length = 0;
    for (const sentence of sentences) this.decoder.write(sentence.raw);
    const raw = this.decoded.shift();
    this.decoded.length = 0;
    const message = raw ? toAisMessage(raw) : null;
    if (!message) this.undecoded++;
    return message;
  }
}
