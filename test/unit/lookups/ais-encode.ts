/**
 * Builds AIVDM sentences for fixtures (ITU-R M.1371 bit layouts, 6-bit armouring, NMEA checksum), the
 * way a transponder's output reads, so tests can name the vessels they need. Recorded sentences from
 * the field are used too; this only fills the gaps.
 */
import { withChecksum } from "../../../src/upstream/vessels/nmea";

class Bits {
  private bits = "";
  uint(value: number, width: number): this {
    this.bits += (BigInt.asUintN(width, BigInt(Math.round(value))) as bigint)
      .toString(2)
      .padStart(width, "0");
    return this;
  }
  int(value: number, width: number): this {
    return this.uint(Number(BigInt.asUintN(width, BigInt(Math.round(value)))), width);
  }
  text(value: string, chars: number): this {
    const padded = value.toUpperCase().padEnd(chars, "@").slice(0, chars);
    for (const ch of padded) {
      const code = ch.charCodeAt(0);
      this.uint(code >= 64 ? code - 64 : code, 6);
    }
    return this;
  }
  armour(): { payload: string; fillBits: number } {
    const fillBits = (6 - (this.bits.length % 6)) % 6;
    const bits = this.bits + "0".repeat(fillBits);
    let payload = "";
    for (let i = 0; i < bits.length; i += 6) {
      const v = Number.parseInt(bits.slice(i, i + 6), 2);
      payload += String.fromCharCode(v < 40 ? v + 48 : v + 56);
    }
    return { payload, fillBits };
  }
}

export function positionReport(input: {
  mmsi: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  heading: number;
  navStatus?: number;
  channel?: string;
}): string {
  const bits = new Bits()
    .uint(1, 6)
    .uint(0, 2)
    .uint(input.mmsi, 30)
    .uint(input.navStatus ?? 0, 4)
    .int(-128, 8)
    .uint(input.speed * 10, 10)
    .uint(1, 1)
    .int(input.lon * 600000, 28)
    .int(input.lat * 600000, 27)
    .uint(input.course * 10, 12)
    .uint(input.heading, 9)
    .uint(30, 6)
    .uint(0, 2)
    .uint(0, 3)
    .uint(0, 1)
    .uint(0, 19);
  const { payload, fillBits } = bits.armour();
  return withChecksum(`!AIVDM,1,1,,${input.channel ?? "A"},${payload},${fillBits}`);
}

/** A type 5 static and voyage report, split over two sentences like a transponder sends it. */
export function staticReport(input: {
  mmsi: number;
  imo: number;
  callSign: string;
  name: string;
  draught: number;
  destination: string;
  eta: { month: number; day: number; hour: number; minute: number };
  sequenceId?: number;
  channel?: string;
}): [string, string] {
  const bits = new Bits()
    .uint(5, 6)
    .uint(0, 2)
    .uint(input.mmsi, 30)
    .uint(0, 2)
    .uint(input.imo, 30)
    .text(input.callSign, 7)
    .text(input.name, 20)
    .uint(71, 8)
    .uint(200, 9)
    .uint(100, 9)
    .uint(30, 6)
    .uint(30, 6)
    .uint(1, 4)
    .uint(input.eta.month, 4)
    .uint(input.eta.day, 5)
    .uint(input.eta.hour, 5)
    .uint(input.eta.minute, 6)
    .uint(input.draught * 10, 8)
    .text(input.destination, 20)
    .uint(0, 1)
    .uint(0, 1);
  const { payload, fillBits } = bits.armour();
  const id = input.sequenceId ?? 3;
  const channel = input.channel ?? "B";
  return [
    withChecksum(`!AIVDM,2,1,${id},${channel},${payload.slice(0, 60)},0`),
    withChecksum(`!AIVDM,2,2,${id},${channel},${payload.slice(60)},${fillBits}`),
  ];
}

/** A type 19 extended class B position report, with the ship's name, over two sentences. */
export function extendedClassBReport(input: {
  mmsi: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  heading: number;
  name: string;
  sequenceId?: number;
}): [string, string] {
  const bits = new Bits()
    .uint(19, 6)
    .uint(0, 2)
    .uint(input.mmsi, 30)
    .uint(0, 8)
    .uint(input.speed * 10, 10)
    .uint(1, 1)
    .int(input.lon * 600000, 28)
    .int(input.lat * 600000, 27)
    .uint(input.course * 10, 12)
    .uint(input.heading, 9)
    .uint(30, 6)
    .uint(0, 4)
    .text(input.name, 20)
    .uint(70, 8)
    .uint(100, 9)
    .uint(50, 9)
    .uint(10, 6)
    .uint(10, 6)
    .uint(1, 4)
    .uint(0, 1)
    .uint(0, 1)
    .uint(1, 1)
    .uint(0, 4);
  const { payload, fillBits } = bits.armour();
  const id = input.sequenceId ?? 4;
  return [
    withChecksum(`!AIVDM,2,1,${id},A,${payload.slice(0, 30)},0`),
    withChecksum(`!AIVDM,2,2,${id},A,${payload.slice(30)},${fillBits}`),
  ];
}

/** A type 27 long-range broadcast: position in 1/10 minute, speed in knots, course in degrees. */
export function longRangeReport(input: {
  mmsi: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  navStatus: number;
}): string {
  const bits = new Bits()
    .uint(27, 6)
    .uint(3, 2)
    .uint(input.mmsi, 30)
    .uint(0, 1)
    .uint(0, 1)
    .uint(input.navStatus, 4)
    .int(input.lon * 600, 18)
    .int(input.lat * 600, 17)
    .uint(input.speed, 6)
    .uint(input.course, 9)
    .uint(0, 1)
    .uint(0, 1);
  const { payload, fillBits } = bits.armour();
  return withChecksum(`!AIVDM,1,1,,B,${payload},${fillBits}`);
}
