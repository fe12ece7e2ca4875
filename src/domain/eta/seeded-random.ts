/**
 * The model's random source: a 32-bit FNV-1a hash of the prediction's identity seeds a mulberry32
 * stream, so the same shipment at the same hour draws the same samples on every process and run.
 */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface RandomStream {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
}

export function seededStream(seed: number): RandomStream {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    normal: () => {
      const u = Math.max(1e-12, next());
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}
