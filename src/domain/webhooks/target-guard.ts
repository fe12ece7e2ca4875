import {
  type LookupAddress,
  type LookupAllOptions,
  type LookupOptions,
  lookup as systemLookup,
} from "node:dns";

/**
 * Webhook targets must be public. A target is checked when an endpoint is saved, again before every
 * delivery (an IP literal is connected to without any lookup, so this is its only check), and at
 * connect time against every address the name resolves to (a DNS answer that changes between the
 * check and the connection cannot slip past). Redirects are never followed.
 *
 * Everything but the lookup is pure: one verdict for one string, so the table of hostile forms in
 * test/unit/webhooks/target-guard.test.ts pins the rule exactly.
 */

export type AddressVerdict = { public: true } | { public: false; reason: string };

export type TargetHost = { kind: "address"; address: string } | { kind: "name"; name: string };
export type TargetCheck = { ok: true; url: URL; host: TargetHost } | { ok: false; reason: string };

export interface TargetPolicy {
  /** Development and tests only: any address, and plain http. */
  allowPrivate: boolean;
}

export const MAX_TARGET_LENGTH = 2048;

type Range4 = readonly [network: string, prefix: number, what: string];

// IANA's IPv4 special-purpose registry, less the few blocks it marks globally reachable that no
// webhook receiver lives in anyway (AS112, AMT): refusing those costs nothing.
const IPV4_RANGES: readonly Range4[] = [
  ["0.0.0.0", 8, "a this-network address (it reaches the server itself)"],
  ["10.0.0.0", 8, "a private address"],
  ["100.64.0.0", 10, "a shared carrier-grade NAT address"],
  ["127.0.0.0", 8, "a loopback address"],
  ["169.254.0.0", 16, "a link-local address (where cloud metadata services answer)"],
  ["172.16.0.0", 12, "a private address"],
  ["192.0.0.0", 24, "an IETF protocol address"],
  ["192.0.2.0", 24, "a documentation address"],
  ["192.88.99.0", 24, "a deprecated 6to4 relay address"],
  ["192.168.0.0", 16, "a private address"],
  ["198.18.0.0", 15, "a benchmarking address"],
  ["198.51.100.0", 24, "a documentation address"],
  ["203.0.113.0", 24, "a documentation address"],
  ["224.0.0.0", 4, "a multicast address"],
  ["240.0.0.0", 4, "a reserved or broadcast address"],
];

/** Dotted decimal only: every other spelling has been normalised by URL parsing or the resolver. */
function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

const formatIPv4 = (value: number) =>
  [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");

const IPV4_NETWORKS = IPV4_RANGES.map(([network, prefix, what]) => ({
  scale: 2 ** (32 - prefix),
  network: parseIPv4(network)!,
  what,
}));

function classifyIPv4(value: number): { public: true } | { public: false; what: string } {
  const range = IPV4_NETWORKS.find((r) => Math.floor(value / r.scale) === Math.floor(r.network / r.scale));
  return range ? { public: false, what: range.what } : { public: true };
}

function parseIPv6(text: string): bigint | null {
  let s = text;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseIPv4(dotted[2]!);
    if (v4 === null) return null;
    s = `${dotted[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...tail].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

const within = (address: bigint, network: bigint, prefix: number) =>
  address >> BigInt(128 - prefix) === network >> BigInt(128 - prefix);
const v6 = (text: string) => parseIPv6(text)!;
const bits32 = (address: bigint, from: number) => Number((address >> BigInt(96 - from)) & 0xffffffffn);

// Forms that carry an IPv4 address a packet really goes to: judged by that IPv4 address, so a public
// one stays usable and 127.0.0.1 cannot hide inside. `at` is the bit where the IPv4 address starts.
const EMBEDDING: readonly { network: bigint; prefix: number; at: number; xor?: number; name: string }[] = [
  { network: v6("::ffff:0:0"), prefix: 96, at: 96, name: "an IPv4-mapped address" },
  { network: v6("::ffff:0:0:0"), prefix: 96, at: 96, name: "an IPv4-translated address" },
  { network: v6("64:ff9b::"), prefix: 96, at: 96, name: "a NAT64 address" },
  { network: v6("2002::"), prefix: 16, at: 16, name: "a 6to4 address" },
  // Teredo: the relay goes through the server (bits 32-64) to the client's NAT, whose address is the
  // last 32 bits inverted. Both must be public.
  { network: v6("2001::"), prefix: 32, at: 32, name: "a Teredo address (server)" },
  { network: v6("2001::"), prefix: 32, at: 96, xor: 0xffffffff, name: "a Teredo address (client)" },
];

// Checked after the embedding forms, first match wins: the narrower ranges come first.
const IPV6_RANGES: readonly { network: bigint; prefix: number; what: string }[] = [
  { network: v6("::"), prefix: 128, what: "the unspecified address (it reaches the server itself)" },
  { network: v6("::1"), prefix: 128, what: "a loopback address" },
  { network: v6("::"), prefix: 96, what: "a deprecated IPv4-compatible address" },
  { network: v6("64:ff9b:1::"), prefix: 48, what: "a local-use NAT64 address" },
  { network: v6("100::"), prefix: 64, what: "a discard-only address" },
  { network: v6("2001::"), prefix: 23, what: "an IETF protocol address" },
  { network: v6("2001:db8::"), prefix: 32, what: "a documentation address" },
  { network: v6("3fff::"), prefix: 20, what: "a documentation address" },
  { network: v6("fc00::"), prefix: 7, what: "a unique-local (private) address" },
  { network: v6("fe80::"), prefix: 10, what: "a link-local address" },
  { network: v6("fec0::"), prefix: 10, what: "a deprecated site-local address" },
  { network: v6("ff00::"), prefix: 8, what: "a multicast address" },
];
/** Every kind of non-public range the guard refuses, as its reasons name them. */
export const REFUSED_RANGE_KINDS: readonly string[] = [
  ...new Set([...IPV4_RANGES.map(([, , what]) => what), ...IPV6_RANGES.map((r) => r.what)]),
];
// Only 2000::/3 is allocated for global unicast; everything else outside the forms above is reserved.
const GLOBAL_UNICAST = { network: v6("2000::"), prefix: 3 };

/** Whether an IP address (as URL parsing or the resolver writes it) may receive webhooks. */
export function classifyAddress(address: string): AddressVerdict {
  const v4 = parseIPv4(address);
  if (v4 !== null) {
    const verdict = classifyIPv4(v4);
    return verdict.public ? verdict : { public: false, reason: `${address} is ${verdict.what}` };
  }
  if (address.includes("%")) return { public: false, reason: `${address} carries an IPv6 zone id` };
  const value = parseIPv6(address);
  if (value === null) return { public: false, reason: `${address} is not an IP address` };
  for (const form of EMBEDDING) {
    if (!within(value, form.network, form.prefix)) continue;
    const embedded = (bits32(value, form.at) ^ (form.xor ?? 0)) >>> 0;
    const verdict = classifyIPv4(embedded);
    if (!verdict.public) {
      return {
        public: false,
        reason: `${address} is ${form.name} embedding ${formatIPv4(embedded)}, ${verdict.what}`,
      };
    }
  }
  if (EMBEDDING.some((form) => within(value, form.network, form.prefix))) return { public: true };
  const range = IPV6_RANGES.find((r) => within(value, r.network, r.prefix));
  if (range) return { public: false, reason: `${address} is ${range.what}` };
  if (!within(value, GLOBAL_UNICAST.network, GLOBAL_UNICAST.prefix)) {
    return { public: false, reason: `${address} is a reserved address outside global unicast` };
  }
  return { public: true };
}

/** RFC 6761: localhost and every name under it mean this machine, whatever a resolver says. */
function classifyName(name: string): AddressVerdict {
  const bare = name.replace(/\.+$/, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) {
    return { public: false, reason: `${name} names this machine` };
  }
  return { public: true };
}

/**
 * The pure part of the check, run at creation and before every delivery. The URL is parsed the way
 * the sender parses it (WHATWG), so `2130706433`, `0x7f.1`, `127.1` and `0177.0.0.1` are all judged
 * as the 127.0.0.1 they connect to. A name passes here and is judged by what it resolves to.
 */
export function checkTarget(raw: string, policy: TargetPolicy): TargetCheck {
  if (raw.length > MAX_TARGET_LENGTH) {
    return { ok: false, reason: `the URL is longer than ${MAX_TARGET_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: "the URL must use https" };
  }
  const bracketed = url.hostname.startsWith("[");
  const literal = bracketed ? url.hostname.slice(1, -1) : url.hostname;
  const host: TargetHost =
    bracketed || parseIPv4(literal) !== null
      ? { kind: "address", address: literal }
      : { kind: "name", name: literal };
  if (!policy.allowPrivate) {
    // The host first: for `https://example.com@127.0.0.1/` the reason that matters is the address.
    const verdict = host.kind === "address" ? classifyAddress(host.address) : classifyName(host.name);
    if (!verdict.public) return { ok: false, reason: verdict.reason };
    if (url.protocol !== "https:") return { ok: false, reason: "the URL must use https" };
  }
  if (url.username || url.password) return { ok: false, reason: "the URL must not carry credentials" };
  return { ok: true, url, host };
}

export type Lookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const defaultLookup: Lookup = (hostname, options, callback) =>
  systemLookup(hostname, options, (err, addresses) => callback(err, addresses ?? []));

/** The first address of `addresses` that may not receive webhooks, with the reason. */
function firstBlocked(hostname: string, addresses: LookupAddress[]): string | null {
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.public) return `${hostname} resolves to a non-public address: ${verdict.reason}`;
  }
  return addresses.length === 0 ? `${hostname} does not resolve` : null;
}

/** At creation: a name is refused when any address it resolves to is not public, or it does not resolve. */
/** How long a webhook target's name may take to resolve when an endpoint is saved or fired. */
export const RESOLVE_TIMEOUT_MS = 3_000;

export async function resolveTarget(
  check: Extract<TargetCheck, { ok: true }>,
  policy: TargetPolicy,
  lookup: Lookup = defaultLookup,
): Promise<TargetCheck> {
  if (policy.allowPrivate || check.host.kind === "address") return check;
  const { name } = check.host;
  // A slow resolver must not hold the caller's request (and its socket) for the system resolver's
  // whole retry schedule: past RESOLVE_TIMEOUT_MS the name is judged as not resolving.
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    new Promise<LookupAddress[] | null>((resolve) =>
      lookup(name, { all: true }, (err, list) => resolve(err ? null : list)),
    ),
    new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), RESOLVE_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  if (addresses === "timeout") {
    return { ok: false, reason: `${name} did not resolve within ${RESOLVE_TIMEOUT_MS / 1000} s` };
  }
  if (addresses === null) return { ok: false, reason: `${name} does not resolve` };
  const blocked = firstBlocked(name, addresses);
  return blocked ? { ok: false, reason: blocked } : check;
}

/** The error a refused connection fails with; its message goes to the attempt log. */
export class BlockedTargetError extends Error {
  readonly code = "EBLOCKEDADDRESS";
  constructor(reason: string) {
    super(`blocked: ${reason}`);
  }
}

/**
 * A `lookup` for node's http(s).request that refuses non-public answers: the connection is made only
 * to an address that passed the check, so a DNS answer that changes between check and connect fails.
 * Node skips `lookup` for an IP literal: those are judged by `checkTarget` before the request.
 */
export function guardedLookup(policy: TargetPolicy, lookup: Lookup = defaultLookup) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (err, list) => {
      if (!policy.allowPrivate) {
        // The answer first, so the log names the address; the name rule holds whatever was answered.
        const named = classifyName(hostname);
        const blocked = (err ? null : firstBlocked(hostname, list)) ?? (named.public ? null : named.reason);
        if (blocked) return callback(new BlockedTargetError(blocked), []);
      }
      if (err) return callback(err, []);
      if (list.length === 0)
        return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" }), []);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
