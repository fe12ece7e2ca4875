import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Webhook targets must be public: never private, loopback, link-local, unique-local, CGNAT,
 * multicast or a cloud metadata address. Checked when an endpoint is saved, and again on every
 * delivery against the address actually connected to (DNS rebinding cannot slip past).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
  ["fd00:ec2::254", 128],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]!);
    return !blocked.check(address, "ipv6");
  }
  return !blocked.check(address, "ipv4");
}

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Shape and scheme; `allowPrivate` (development and tests only) also allows plain http. */
export function checkTargetShape(raw: string, allowPrivate: boolean): TargetCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return { ok: false, reason: "the URL must use https" };
  }
  if (url.username || url.password) return { ok: false, reason: "the URL must not carry credentials" };
  if (raw.length > 2048) return { ok: false, reason: "the URL is longer than 2048 characters" };
  return { ok: true, url };
}

/** Resolves the host and refuses it when any address it resolves to is not public. */
export async function checkTargetAddress(url: URL, allowPrivate: boolean): Promise<TargetCheck> {
  if (allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host))
    return isPublicAddress(host)
      ? { ok: true, url }
      : { ok: false, reason: `${host} is not a public address` };
  try {
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host, { all: true }, (err, list) => (err ? reject(err) : resolve(list))),
    );
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad)
      return { ok: false, reason: `${host} resolves to ${bad.address}, which is not a public address` };
    return { ok: true, url };
  } catch {
    return { ok: false, reason: `${host} does not resolve` };
  }
}

/**
 * A `lookup` for node's http(s).request that refuses non-public answers: the connection is made only
 * to an address that passed the check, so a DNS answer that changes between check and connect fails.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) {
        const refused = Object.assign(new Error(`refused: ${hostname} resolves to ${bad.address}`), {
          code: "EBLOCKEDADDRESS",
        });
        return callback(refused, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
