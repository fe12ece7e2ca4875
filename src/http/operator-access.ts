import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIP, isIPv4 } from "node:net";
import type { Request, Response } from "express";
import type { AppConfig } from "../config";
import { clientAddress } from "./gate";
import type { OutcomeCode } from "./outcomes";

/**
 * Who may read `/metrics`. Unconfigured it stays open, as a fresh install expects (a scraper on the
 * same host needs nothing); with QUAYSIDE_METRICS_ALLOW the caller's address (the proxy's client
 * address when QUAYSIDE_TRUST_PROXY is on) must be in a listed range, and with QUAYSIDE_METRICS_TOKEN
 * it must send the token as a bearer token. When both are set, both must hold.
 */
export function metricsAccess(
  settings: AppConfig["metrics"],
): (req: Request, res: Response) => OutcomeCode | undefined {
  const allowed = new BlockList();
  for (const rule of settings.allow) {
    if (rule.prefix === undefined) allowed.addAddress(rule.address, rule.family);
    else allowed.addSubnet(rule.address, rule.prefix, rule.family);
  }
  // Both sides hashed, so the comparison takes the same time whatever the length of the guess.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  const expected = settings.token === undefined ? undefined : digest(settings.token);

  return (req, res) => {
    if (settings.allow.length > 0 && !isAllowed(allowed, clientAddress(req))) {
      return "metrics_address_not_allowed";
    }
    if (expected) {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "")?.[1];
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="Quayside metrics"');
        return "metrics_token_required";
      }
    }
    return undefined;
  };
}

function isAllowed(allowed: BlockList, address: string): boolean {
  if (isIP(address) === 0) return false; // a socket already gone reports no address
  // A dual-stack socket reports IPv4 callers as ::ffff:a.b.c.d; the operator lists them as a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return allowed.check(mapped, "ipv4") || allowed.check(address, "ipv6");
  return isIPv4(address) ? allowed.check(address, "ipv4") : allowed.check(address, "ipv6");
}
