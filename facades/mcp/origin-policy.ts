/**
 * DNS-rebinding protection for `/api/mcp` (MCP specification, transports: servers MUST validate the
 * `Origin` header, and a server on localhost must not answer pages of other sites). A hostile page
 * whose name was re-pointed at this server reaches it with its own name in `Host` and `Origin`, so:
 *
 * - `Origin`, when sent (browsers send it, other clients usually do not), must be a loopback origin
 *   (any port), the public URL's origin, or one listed in `QUAYSIDE_MCP_ALLOWED_ORIGINS`.
 * - `Host` is checked when the server is bound to a loopback address, or when
 *   `QUAYSIDE_MCP_ALLOWED_HOSTS` lists names: it must then be a loopback name, the public URL's host
 *   or a listed one (ports ignored). A server bound to all interfaces is reached under names it cannot
 *   know (load balancers, private DNS), so it checks `Host` only when told which names are its own.
 *
 * `*` in either list switches that check off (for a proxy that already does it).
 */
export interface OriginPolicyInput {
  /** The address the server binds (`HOST`). */
  bindHost: string;
  /** `QUAYSIDE_PUBLIC_URL`, when set. */
  publicUrl: string | undefined;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

export type OriginCheck = { ok: true } | { ok: false; header: "Host" | "Origin"; message: string };

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopbackName(hostname: string): boolean {
  return (
    LOOPBACK_NAMES.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith(".localhost")
  );
}

function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function originOf(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

export function originPolicy(
  input: OriginPolicyInput,
): (host: string | undefined, origin: string | undefined) => OriginCheck {
  const publicUrl = input.publicUrl ? originOf(input.publicUrl) : null;
  const hostsOpen = input.allowedHosts.includes("*");
  const checkHosts =
    !hostsOpen && (isLoopbackName(input.bindHost.toLowerCase()) || input.allowedHosts.length > 0);
  const hosts = new Set(input.allowedHosts.map((h) => hostnameOf(h) ?? h.toLowerCase()));
  if (publicUrl) hosts.add(publicUrl.hostname.toLowerCase());
  const originsOpen = input.allowedOrigins.includes("*");
  const origins = new Set(input.allowedOrigins.map((o) => originOf(o)?.origin ?? o.toLowerCase()));
  if (publicUrl) origins.add(publicUrl.origin);

  return (host, origin) => {
    if (checkHosts) {
      const hostname = host ? hostnameOf(host) : null;
      if (!hostname || !(isLoopbackName(hostname) || hosts.has(hostname))) {
        return {
          ok: false,
          header: "Host",
          message: `Host ${host ?? "(none)"} is not a name this server answers to. Set QUAYSIDE_MCP_ALLOWED_HOSTS to add it.`,
        };
      }
    }
    if (origin !== undefined && !originsOpen) {
      const url = originOf(origin);
      const allowed = url !== null && (isLoopbackName(url.hostname.toLowerCase()) || origins.has(url.origin));
      if (!allowed) {
        return {
          ok: false,
          header: "Origin",
          message: `Origin ${origin} is not allowed to call this server. Set QUAYSIDE_MCP_ALLOWED_ORIGINS to add it.`,
        };
      }
    }
    return { ok: true };
  };
}
