/**
 * How references map onto the simulated world, and back.
 *
 * Time is cut into cycles of 18 weeks per carrier. In each cycle every box of a carrier's own number
 * space belongs to one booking: the 10^6 serials of an owner prefix are shuffled per cycle and cut into
 * groups of one to six consecutive shuffled serials, each group being one shipment. A box therefore
 * makes one journey per cycle, with different siblings each time, and its number always leads to the
 * shipment it is currently on. A lessor's box is on hire to one carrier (a fixed bijection spreads the
 * lessors' number space over the carriers) and makes one journey of its own per cycle, alone.
 *
 * The bill-of-lading and booking numbers the simulator issues encode (cycle mod 4, prefix, group) or
 * (cycle mod 4, hire slot) in the carrier's own number layout, scrambled so that they look random.
 * Querying one of them leads back to exactly the same shipment, and keeps doing so for 4 cycles (about
 * 17 months), after which the number is reused. These are the only document numbers the world holds: a
 * number it did not issue (most made-up ones) is unknown, as it is at a real carrier. A made-up number
 * is found only when it happens to be one the world issued, as likely as the carrier's issued numbers
 * fill its layout (documented per carrier in simulator/README.md).
 */
import { CARRIERS, type Carrier, LEASING_PREFIXES } from "../../reference-data/carriers";
import { containerPrefixesOf, profileOf, type ReferenceFormat } from "./carrier-profiles";
import { hash32, unitHash } from "./hash";
import { containerNumber, isIssuableSerial, parseContainerNumber } from "./iso6346";

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

// --- Leased boxes ------------------------------------------------------------------------------------

/** Lessors' owner prefixes, in a fixed order: their boxes form one number space of LESSORS * 10^6. */
const LESSOR_PREFIXES: readonly string[] = [...LEASING_PREFIXES];
const LEASED_SPACE = LESSOR_PREFIXES.length * SERIALS;
/** A prime above any factor of LEASED_SPACE (its factors are 2, 5 and those of the lessor count). */
const HIRE_MULTIPLIER = 1_000_003;
const HIRE_INVERSE = modInverse(HIRE_MULTIPLIER % LEASED_SPACE, LEASED_SPACE);
const HIRE_OFFSET = hash32("hire-offset") % LEASED_SPACE;

/** Carriers that hire lessors' boxes: those answering box queries with owner prefixes of their own. */
const HIRING_CARRIERS: readonly string[] = CARRIERS.filter(
  (carrier) => carrier.supportedTypes.includes("container") && containerPrefixesOf(carrier).length > 0,
).map((carrier) => carrier.scac);
/** Hire slots per carrier, counted in blocks of 10^6 so they sit beside the owner prefixes. */
const HIRE_BLOCKS = Math.ceil(Math.ceil(LEASED_SPACE / HIRING_CARRIERS.length) / SERIALS);

function hirePosition(reference: string): number | undefined {
  const parsed = parseContainerNumber(reference);
  if (!parsed) return undefined;
  const lessor = LESSOR_PREFIXES.indexOf(parsed.prefix);
  if (lessor < 0) return undefined;
  const index = lessor * SERIALS + parsed.serial;
  return Number((BigInt(HIRE_MULTIPLIER) * BigInt(index) + BigInt(HIRE_OFFSET)) % BigInt(LEASED_SPACE));
}

/** The hire slot of a leased box at the carrier that operates it, or undefined at any other carrier. */
export function hireSlotOf(carrier: Carrier, reference: string): number | undefined {
  const position = hirePosition(reference);
  if (position === undefined) return undefined;
  if (HIRING_CARRIERS[position % HIRING_CARRIERS.length] !== carrier.scac) return undefined;
  return Math.floor(position / HIRING_CARRIERS.length);
}

/** The leased box in a carrier's hire slot, or undefined when the slot holds no issuable box. */
export function leasedBoxAt(carrier: Carrier, slot: number): string | undefined {
  const carrierIndex = HIRING_CARRIERS.indexOf(carrier.scac);
  if (carrierIndex < 0) return undefined;
  const position = slot * HIRING_CARRIERS.length + carrierIndex;
  if (position >= LEASED_SPACE) return undefined;
  const index = Number(
    (BigInt(HIRE_INVERSE) * BigInt((position - HIRE_OFFSET + LEASED_SPACE) % LEASED_SPACE)) %
      BigInt(LEASED_SPACE),
  );
  const prefix = LESSOR_PREFIXES[Math.floor(index / SERIALS)];
  const serial = index % SERIALS;
  if (prefix === undefined || !isIssuableSerial(prefix, serial)) return undefined;
  return containerNumber(prefix, serial);
}

// --- Document numbers ------------------------------------------------------------------------------

type DocumentCodec = "document" | "booking";

/**
 * One range of scrambled values: own groups fill [0, own) exactly as before hire slots existed, so the
 * numbers of the carrier's own shipments did not change when leased boxes got numbers of their own;
 * hire slots fill [own, own + hire).
 */
interface ScrambledRange {
  base: bigint;
  size: bigint;
  multiplier: bigint;
  offset: bigint;
}

interface KeySpace {
  prefixes: readonly string[];
  own: ScrambledRange;
  hire: ScrambledRange;
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
  const ownSize = BigInt(DOCUMENT_EPOCHS) * BigInt(prefixes.length) * BigInt(SERIALS);
  const hireSize = BigInt(DOCUMENT_EPOCHS) * BigInt(HIRE_BLOCKS) * BigInt(SERIALS);
  // Primes larger than any factor of the sizes, so each scramble is a bijection.
  const multiplier = which === "document" ? 1_000_003n : 999_983n;
  const base = which === "document" ? profile.billOfLading : profile.booking;
  return {
    prefixes,
    own: {
      base: 0n,
      size: ownSize,
      multiplier,
      offset: BigInt(hash32("document-offset", carrier.scac, which)) % ownSize,
    },
    hire: {
      base: ownSize,
      size: hireSize,
      multiplier,
      offset: BigInt(hash32("hire-document-offset", carrier.scac, which)) % hireSize,
    },
    format: effectiveFormat(base, ownSize + hireSize),
  };
}

function scramble(range: ScrambledRange, plain: bigint): bigint {
  return range.base + ((range.multiplier * plain + range.offset) % range.size);
}

/** The plain value of a scrambled one, or undefined when the value is outside the range. */
function unscramble(range: ScrambledRange, value: bigint): bigint | undefined {
  const local = value - range.base;
  if (local < 0n || local >= range.size) return undefined;
  const inverse = BigInt(modInverse(Number(range.multiplier % range.size), Number(range.size)));
  return (inverse * ((local - range.offset + range.size) % range.size)) % range.size;
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

/** A shipment's place in the number plan: a group of the carrier's own boxes, or a leased box's slot. */
export type GroupKey = { cycle: number; prefix: string; start: number } | { cycle: number; hireSlot: number };

function residueOf(cycle: number): number {
  return ((cycle % DOCUMENT_EPOCHS) + DOCUMENT_EPOCHS) % DOCUMENT_EPOCHS;
}

/** The document or booking number the simulator issues for a shipment of its number plan. */
export function issueDocumentNumber(
  carrier: Carrier,
  codec: DocumentCodec,
  key: GroupKey,
): string | undefined {
  const space = keySpace(carrier, codec);
  if (!space) return undefined;
  const residue = BigInt(residueOf(key.cycle));
  let scrambled: bigint;
  if ("hireSlot" in key) {
    if (key.hireSlot < 0 || key.hireSlot >= HIRE_BLOCKS * SERIALS) return undefined;
    scrambled = scramble(space.hire, residue * BigInt(HIRE_BLOCKS * SERIALS) + BigInt(key.hireSlot));
  } else {
    const prefixIndex = space.prefixes.indexOf(key.prefix);
    if (prefixIndex < 0) return undefined;
    const plain =
      (residue * BigInt(space.prefixes.length) + BigInt(prefixIndex)) * BigInt(SERIALS) + BigInt(key.start);
    scrambled = scramble(space.own, plain);
  }
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

type DecodedDocument =
  | { residue: number; prefix: string; start: number }
  | { residue: number; hireSlot: number };

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
    if (scrambled === undefined) continue;
    const own = unscramble(space.own, scrambled);
    if (own !== undefined) {
      const start = Number(own % BigInt(SERIALS));
      const rest = own / BigInt(SERIALS);
      const prefix = space.prefixes[Number(rest % BigInt(space.prefixes.length))];
      if (prefix === undefined) continue;
      return { residue: Number(rest / BigInt(space.prefixes.length)), prefix, start };
    }
    const hire = unscramble(space.hire, scrambled);
    if (hire !== undefined) {
      const slots = BigInt(HIRE_BLOCKS * SERIALS);
      return { residue: Number(hire / slots), hireSlot: Number(hire % slots) };
    }
  }
  return undefined;
}

/**
 * Whether a number could be one the world issues as a bill of lading or a booking, in any cycle: the
 * example references (example-references.ts) avoid these, so no planned shipment ever shadows them.
 */
export function isIssuedDocumentNumber(carrier: Carrier, reference: string): boolean {
  return (
    decodeDocumentNumber(carrier, "document", reference) !== undefined ||
    decodeDocumentNumber(carrier, "booking", reference) !== undefined
  );
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
  /** An issued document of a leased box's journey in a cycle. */
  | { kind: "hired"; carrier: Carrier; reference: string; hireSlot: number; cycle: number }
  /** A box of the carrier's own number space: which cycle's shipment shows depends on the clock. */
  | { kind: "box"; carrier: Carrier; prefix: string; serial: number; reference: string }
  /** A leased box this carrier operates: each cycle it makes a journey of its own. */
  | { kind: "leased-box"; carrier: Carrier; reference: string; hireSlot: number }
  /**
   * A document number the world did not issue. Only the sandbox's world (every reference leads to a
   * shipment) asks for these; the carriers' world does not know them.
   */
  | { kind: "synthetic"; carrier: Carrier; referenceKind: ReferenceKind; reference: string };

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
  const position = hirePosition(reference);
  return position === undefined ? undefined : HIRING_CARRIERS[position % HIRING_CARRIERS.length];
}

/**
 * Maps a normalized reference to where it lives in the world, or undefined when the carrier cannot
 * know it (wrong format, another carrier's number, a document number the world did not issue, a query
 * type the carrier does not answer). `madeUp` lets plausible numbers the world did not issue through
 * as synthetic references, for the sandbox's world.
 */
export function resolveReference(
  carrier: Carrier,
  kind: ReferenceKind,
  reference: string,
  nowMs: number,
  options: { ignoreSupport?: boolean; madeUp?: boolean } = {},
): ResolvedReference | undefined {
  if (!options.ignoreSupport && !supports(carrier, kind)) return undefined;
  if (kind === "equipment") {
    const parsed = parseContainerNumber(reference);
    if (!parsed || !isIssuableSerial(parsed.prefix, parsed.serial)) return undefined;
    if (containerPrefixesOf(carrier).includes(parsed.prefix)) {
      return { kind: "box", carrier, prefix: parsed.prefix, serial: parsed.serial, reference };
    }
    const hireSlot = hireSlotOf(carrier, reference);
    if (hireSlot !== undefined) return { kind: "leased-box", carrier, reference, hireSlot };
    return undefined;
  }
  // The document filter answers the carrier's bookings too (the service asks a booking the way it asks
  // a bill of lading: docs/decisions/carriers.md); the booking filter answers bookings only.
  const decoded =
    decodeDocumentNumber(carrier, kind, reference) ??
    (kind === "document" ? decodeDocumentNumber(carrier, "booking", reference) : undefined);
  if (decoded) {
    const cycle = latestCycleWithResidue(carrier.scac, decoded.residue, nowMs);
    if ("hireSlot" in decoded) {
      const box = leasedBoxAt(carrier, decoded.hireSlot);
      if (box) return { kind: "hired", carrier, reference: box, hireSlot: decoded.hireSlot, cycle };
    } else {
      const members = groupMembers(carrier.scac, decoded.prefix, cycle, decoded.start);
      if (members)
        return { kind: "group", carrier, prefix: decoded.prefix, start: decoded.start, cycle, members };
    }
  }
  if (!options.madeUp || !plausibleDocumentNumber(carrier, reference)) return undefined;
  return { kind: "synthetic", carrier, referenceKind: kind, reference };
}
