/**
 * How references map onto the simulated world, and back.
 *
 * Time is cut into cycles of 18 weeks per carrier. In each cycle every box of a carrier's own number
 * space belongs to one booking: the 10^6 serials of an owner prefix are shuffled per cycle and cut into
 * groups of one to six consecutive shuffled serials, each group being one shipment. A box therefore
 * makes one journey per cycle, with different siblings each time, and its number always leads to the
 * shipment it is currently on.
 *
 * The bill-of-lading and booking numbers the simulator issues encode (cycle mod 4, prefix, group) in
 * the carrier's own number layout, scrambled so that they look random. Querying one of them leads back
 * to exactly the same shipment, and keeps doing so for 4 cycles (about 17 months), after which the
 * number is reused. Only a small share of the number space is issued, so most numbers a user makes up
 * are not; those (and leased boxes) lead to a synthetic shipment of their own, placed in a recent cycle
 * so that made-up references show the same mix of booked, sailing and delivered shipments as issued
 * ones.
 */
import { CARRIERS, type Carrier, LEASING_PREFIXES } from "../../reference-data/carriers";
import { containerPrefixesOf, profileOf, type ReferenceFormat } from "./carrier-profiles";
import { hash32, unitHash } from "./hash";
import { isIssuableSerial, parseContainerNumber } from "./iso6346";

export type ReferenceKind = "equipment" | "document" | "booking";

const DAY_MS = 86_400_000;
export const CYCLE_MS = 126 * DAY_MS;
/** The world's origin; cycles are counted from here, shifted by a per-carrier phase. */
export const EPOCH_MS = Date.UTC(2024, 0, 1);
/** Document numbers carry the cycle modulo this, so they are reused after this many cycles. */
export const DOCUMENT_EPOCHS = 4;
const SERIALS = 1_000_000;
const MAX_GROUP = 6;

export function normalizeReference(value: string): string {
  return value.toUpperCase().replace(/[\s\-./]/g, "");
}

/**
 * The carrier a URL's SCAC names, main SCACs before alternative ones (so an alternative never shadows
 * another carrier), ignoring case and spaces: the simulator's own reading of the shared carrier facts.
 */
export function findSimulatedCarrier(scac: string): Carrier | undefined {
  const wanted = scac.trim().toUpperCase();
  if (wanted.length === 0) return undefined;
  return (
    CARRIERS.find((carrier) => carrier.scac === wanted) ??
    CARRIERS.find((carrier) => carrier.alternativeScacs?.includes(wanted) ?? false)
  );
}

function cyclePhaseMs(scac: string): number {
  return Math.floor(unitHash("cycle-phase", scac) * CYCLE_MS);
}

export function cycleAt(scac: string, nowMs: number): number {
  return Math.floor((nowMs - EPOCH_MS - cyclePhaseMs(scac)) / CYCLE_MS);
}

export function cycleStartMs(scac: string, cycle: number): number {
  return EPOCH_MS + cyclePhaseMs(scac) + cycle * CYCLE_MS;
}

/** The latest cycle not after `nowMs` whose number is congruent to `residue` modulo DOCUMENT_EPOCHS. */
export function latestCycleWithResidue(scac: string, residue: number, nowMs: number): number {
  const current = cycleAt(scac, nowMs);
  const currentResidue = ((current % DOCUMENT_EPOCHS) + DOCUMENT_EPOCHS) % DOCUMENT_EPOCHS;
  return current - ((currentResidue - residue + DOCUMENT_EPOCHS) % DOCUMENT_EPOCHS);
}

// --- Box groups -----------------------------------------------------------------------------------

function modInverse(value: number, modulus: number): number {
  let [oldR, r] = [value, modulus];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const quotient = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  return ((oldS % modulus) + modulus) % modulus;
}

interface SerialShuffle {
  multiplier: number;
  inverse: number;
  offset: number;
}

function serialShuffle(scac: string, prefix: string, cycle: number): SerialShuffle {
  // An affine map modulo 10^6 is a bijection when the multiplier shares no factor with 10.
  let multiplier = (hash32("shuffle", scac, prefix, cycle) % (SERIALS - 1)) + 1;
  while (multiplier % 2 === 0 || multiplier % 5 === 0) multiplier = (multiplier + 1) % SERIALS;
  return {
    multiplier,
    inverse: modInverse(multiplier, SERIALS),
    offset: hash32("shuffle-offset", scac, prefix, cycle) % SERIALS,
  };
}

function isGroupStart(scac: string, prefix: string, cycle: number, position: number): boolean {
  return position % MAX_GROUP === 0 || unitHash("group-start", scac, prefix, cycle, position) < 0.45;
}

function serialAt(shuffle: SerialShuffle, position: number): number {
  return Number(
    (BigInt(shuffle.inverse) * BigInt((position - shuffle.offset + SERIALS) % SERIALS)) % BigInt(SERIALS),
  );
}

/** The serials shipped together under one group, shuffled position `start` being the group's first. */
export function groupMembers(
  scac: string,
  prefix: string,
  cycle: number,
  start: number,
): number[] | undefined {
  if (!isGroupStart(scac, prefix, cycle, start)) return undefined;
  const shuffle = serialShuffle(scac, prefix, cycle);
  const members: number[] = [];
  for (let position = start; position < SERIALS; position++) {
    if (position !== start && isGroupStart(scac, prefix, cycle, position)) break;
    const serial = serialAt(shuffle, position);
    if (isIssuableSerial(prefix, serial)) members.push(serial);
  }
  return members.length > 0 ? members : undefined;
}

/** The start position of the group a serial belongs to in a cycle. */
export function groupStartOf(scac: string, prefix: string, cycle: number, serial: number): number {
  const shuffle = serialShuffle(scac, prefix, cycle);
  let position = Number(
    (BigInt(shuffle.multiplier) * BigInt(serial) + BigInt(shuffle.offset)) % BigInt(SERIALS),
  );
  while (!isGroupStart(scac, prefix, cycle, position)) position--;
  return position;
}

// --- Document numbers ------------------------------------------------------------------------------

type DocumentCodec = "document" | "booking";

interface KeySpace {
  prefixes: readonly string[];
  size: bigint;
  multiplier: bigint;
  offset: bigint;
  format: ReferenceFormat;
}

function effectiveFormat(base: ReferenceFormat, size: bigint): ReferenceFormat {
  let digits = base.digits;
  const capacity = () => BigInt(base.alphabet.length) ** BigInt(base.letters) * 10n ** BigInt(digits);
  while (capacity() < size) digits++;
  return { ...base, digits };
}

function keySpace(carrier: Carrier, codec: DocumentCodec): KeySpace | undefined {
  const prefixes = containerPrefixesOf(carrier);
  if (prefixes.length === 0) return undefined;
  const profile = profileOf(carrier);
  const sameAsBillOfLading = codec === "booking" && profile.bookingIsBillOfLading;
  const which = sameAsBillOfLading ? "document" : codec;
  const size = BigInt(DOCUMENT_EPOCHS) * BigInt(prefixes.length) * BigInt(SERIALS);
  // Primes larger than any factor of the size, so the scramble is a bijection.
  const multiplier = which === "document" ? 1_000_003n : 999_983n;
  const offset = BigInt(hash32("document-offset", carrier.scac, which)) % size;
  const base = which === "document" ? profile.billOfLading : profile.booking;
  return { prefixes, size, multiplier, offset, format: effectiveFormat(base, size) };
}

function encodeBody(format: ReferenceFormat, value: bigint): string {
  const digitSpace = 10n ** BigInt(format.digits);
  let high = value / digitSpace;
  const low = value % digitSpace;
  const radix = BigInt(format.alphabet.length);
  let letters = "";
  for (let i = 0; i < format.letters; i++) {
    letters = (format.alphabet[Number(high % radix)] ?? "") + letters;
    high /= radix;
  }
  return `${letters}${low.toString().padStart(format.digits, "0")}`;
}

function decodeBody(format: ReferenceFormat, body: string): bigint | undefined {
  if (body.length !== format.letters + format.digits) return undefined;
  const radix = BigInt(format.alphabet.length);
  let high = 0n;
  for (let i = 0; i < format.letters; i++) {
    const index = format.alphabet.indexOf(body[i] ?? "");
    if (index < 0) return undefined;
    high = high * radix + BigInt(index);
  }
  const digits = body.slice(format.letters);
  if (!/^\d+$/.test(digits)) return undefined;
  return high * 10n ** BigInt(format.digits) + BigInt(digits);
}

export interface GroupKey {
  cycle: number;
  prefix: string;
  start: number;
}

/** The document or booking number the simulator issues for a box group. */
export function issueDocumentNumber(
  carrier: Carrier,
  codec: DocumentCodec,
  key: GroupKey,
): string | undefined {
  const space = keySpace(carrier, codec);
  if (!space) return undefined;
  const prefixIndex = space.prefixes.indexOf(key.prefix);
  if (prefixIndex < 0) return undefined;
  const residue = ((key.cycle % DOCUMENT_EPOCHS) + DOCUMENT_EPOCHS) % DOCUMENT_EPOCHS;
  const plain =
    (BigInt(residue) * BigInt(space.prefixes.length) + BigInt(prefixIndex)) * BigInt(SERIALS) +
    BigInt(key.start);
  const scrambled = (space.multiplier * plain + space.offset) % space.size;
  return `${space.format.prefix}${encodeBody(space.format, scrambled)}`;
}

function acceptedPrefixes(carrier: Carrier, format: ReferenceFormat): string[] {
  const prefixes = new Set([
    format.prefix,
    ...carrier.blPrefixes,
    carrier.scac,
    ...(carrier.alternativeScacs ?? []),
  ]);
  prefixes.delete("");
  return [...prefixes].sort((a, b) => b.length - a.length);
}

interface DecodedDocument {
  residue: number;
  prefix: string;
  start: number;
}

function decodeDocumentNumber(
  carrier: Carrier,
  codec: DocumentCodec,
  reference: string,
): DecodedDocument | undefined {
  const space = keySpace(carrier, codec);
  if (!space) return undefined;
  const bodies = [reference];
  for (const prefix of acceptedPrefixes(carrier, space.format)) {
    if (reference.startsWith(prefix)) bodies.push(reference.slice(prefix.length));
  }
  // A number printed with a prefix must be quoted with it or with none; "MEDU" alone is not a body.
  for (const body of bodies.reverse()) {
    const scrambled = decodeBody(space.format, body);
    if (scrambled === undefined || scrambled >= space.size) continue;
    const inverse = BigInt(modInverse(Number(space.multiplier % space.size), Number(space.size)));
    const plain = (inverse * ((scrambled - space.offset + space.size) % space.size)) % space.size;
    const start = Number(plain % BigInt(SERIALS));
    const rest = plain / BigInt(SERIALS);
    const prefixIndex = Number(rest % BigInt(space.prefixes.length));
    const residue = Number(rest / BigInt(space.prefixes.length));
    const prefix = space.prefixes[prefixIndex];
    if (prefix === undefined) continue;
    return { residue, prefix, start };
  }
  return undefined;
}

/** A synthetic reference number in a carrier's layout, for the document a user did not quote. */
export function syntheticDocumentNumber(carrier: Carrier, codec: DocumentCodec, seed: string): string {
  const profile = profileOf(carrier);
  const format =
    codec === "booking" && !profile.bookingIsBillOfLading ? profile.booking : profile.billOfLading;
  let body = "";
  for (let i = 0; i < format.letters; i++) {
    body += format.alphabet[hash32(seed, codec, "letter", i) % format.alphabet.length] ?? "";
  }
  for (let i = 0; i < format.digits; i++) body += String(hash32(seed, codec, "digit", i) % 10);
  return `${format.prefix}${body}`;
}

// --- Resolution ------------------------------------------------------------------------------------

export type ResolvedReference =
  | { kind: "group"; carrier: Carrier; prefix: string; start: number; cycle: number; members: number[] }
  /** A document number the world did not issue: each cycle it may name a synthetic shipment. */
  | { kind: "synthetic"; carrier: Carrier; referenceKind: ReferenceKind; reference: string }
  /** A box of the carrier's own number space: which cycle's shipment shows depends on the clock. */
  | { kind: "box"; carrier: Carrier; prefix: string; serial: number; reference: string }
  /** A leased box this carrier happens to operate; each cycle it is on a synthetic shipment. */
  | { kind: "leased-box"; carrier: Carrier; reference: string };

const OTHER_CARRIER_PREFIXES: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const owners = new Map<string, Set<string>>();
  for (const carrier of CARRIERS) {
    for (const code of [carrier.scac, ...(carrier.alternativeScacs ?? []), ...carrier.blPrefixes]) {
      if (!/^[A-Z]{4}$/.test(code)) continue;
      const set = owners.get(code) ?? new Set<string>();
      set.add(carrier.scac);
      owners.set(code, set);
    }
  }
  return owners;
})();

/** Whether a free-form document number could be this carrier's at all. */
function plausibleDocumentNumber(carrier: Carrier, reference: string): boolean {
  if (!/^[A-Z0-9]{6,35}$/.test(reference)) return false;
  if ((reference.match(/\d/g)?.length ?? 0) < 4) return false;
  if (parseContainerNumber(reference)) return false;
  const owners = OTHER_CARRIER_PREFIXES.get(reference.slice(0, 4));
  return !owners || owners.has(carrier.scac);
}

function supports(carrier: Carrier, kind: ReferenceKind): boolean {
  if (kind === "booking") return carrier.resolvesBookings;
  return carrier.supportedTypes.includes(kind === "equipment" ? "container" : "bl");
}

/** The carrier that operates a leased box (each lessor box is on hire to one carrier at a time). */
export function operatorOfLeasedBox(reference: string): string | undefined {
  const candidates = CARRIERS.filter(
    (carrier) => carrier.supportedTypes.includes("container") && containerPrefixesOf(carrier).length > 0,
  );
  return candidates[hash32("lessee", reference) % candidates.length]?.scac;
}

/**
 * Maps a normalized reference to where it lives in the world, or undefined when the carrier cannot
 * know it (wrong format, another carrier's number, a query type the carrier does not answer).
 */
export function resolveReference(
  carrier: Carrier,
  kind: ReferenceKind,
  reference: string,
  nowMs: number,
  options: { ignoreSupport?: boolean } = {},
): ResolvedReference | undefined {
  if (!options.ignoreSupport && !supports(carrier, kind)) return undefined;
  if (kind === "equipment") {
    const parsed = parseContainerNumber(reference);
    if (!parsed || !isIssuableSerial(parsed.prefix, parsed.serial)) return undefined;
    if (containerPrefixesOf(carrier).includes(parsed.prefix)) {
      return { kind: "box", carrier, prefix: parsed.prefix, serial: parsed.serial, reference };
    }
    if (LEASING_PREFIXES.has(parsed.prefix) && operatorOfLeasedBox(reference) === carrier.scac) {
      return { kind: "leased-box", carrier, reference };
    }
    return undefined;
  }
  const decoded = decodeDocumentNumber(carrier, kind, reference);
  if (decoded) {
    const cycle = latestCycleWithResidue(carrier.scac, decoded.residue, nowMs);
    const members = groupMembers(carrier.scac, decoded.prefix, cycle, decoded.start);
    if (members)
      return { kind: "group", carrier, prefix: decoded.prefix, start: decoded.start, cycle, members };
  }
  if (!plausibleDocumentNumber(carrier, reference)) return undefined;
  return { kind: "synthetic", carrier, referenceKind: kind, reference };
}

/** Whether a made-up document number names a shipment in a given cycle (in about three cycles of five). */
export function isSyntheticActive(
  carrier: Carrier,
  kind: ReferenceKind,
  reference: string,
  cycle: number,
): boolean {
  return unitHash("active", carrier.scac, kind, reference, cycle) < 0.6;
}
