/**
 * Deterministic randomness for the simulated world. Everything the simulator invents is derived from
 * string keys through these functions, never from Math.random, so the same reference yields the same
 * shipment on every machine and in every run. Only 32-bit integer arithmetic (Math.imul) is used, which
 * is exact in every JavaScript engine.
 */

/** 128 bits of hash (four 32-bit words) of a string; cyrb128 by bryc, public domain. */
export function hash128(key: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < key.length; i++) {
    const k = key.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** An unsigned 32-bit hash of the parts joined by "|". */
export function hash32(...parts: readonly (string | number)[]): number {
  return hash128(parts.join("|"))[0];
}

/** A number in [0, 1) derived from the parts: a stable coin for "is this reference unknown?" and such. */
export function unitHash(...parts: readonly (string | number)[]): number {
  return hash32(...parts) / 4294967296;
}

/** A UUID-shaped identifier (version 4 layout) derived from a key, so event IDs are stable. */
export function uuidFrom(key: string): string {
  const words = hash128(key);
  const hex = words.map((word) => word.toString(16).padStart(8, "0")).join("");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A seeded pseudo-random stream (sfc32). One stream per shipment: the order of draws is part of the
 * world's definition, so code that plans a shipment must draw in a fixed order.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    [this.a, this.b, this.c, this.d] = hash128(seed);
    // The first outputs of sfc32 are weakly mixed; discard a few.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("SeededRandom.pick: empty list");
    return item;
  }

  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let threshold = this.next() * total;
    for (const [item, weight] of items) {
      threshold -= weight;
      if (threshold < 0) return item;
    }
    const last = items[items.length - 1];
    if (last === undefined) throw new Error("SeededRandom.weighted: empty list");
    return last[0];
  }

  /** A standard normal draw (Box-Muller), for lognormal delays. */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
