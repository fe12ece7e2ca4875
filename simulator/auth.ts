/**
 * Per-carrier authentication, as carriers put it in front of their DCSA APIs (no spec defines it): none, an
 * API key header (CMA CGM's keyId, ZIM's subscription key), a client id and secret in headers
 * (Hapag-Lloyd's X-IBM-Client-Id/-Secret) or OAuth2 client credentials (Maersk, Evergreen). The token
 * endpoint can insist on one dialect: HTTP Basic, credentials in the form body, a header beside them
 * (Maersk's Consumer-Key), or an RFC 7523 client assertion verified against the client's public key or
 * certificate (MSC's Azure AD). Tokens expire by the simulator's clock, so a test can move time past a
 * token's life.
 */
import {
  createHash,
  createPublicKey,
  randomBytes,
  timingSafeEqual,
  verify,
  X509Certificate,
} from "node:crypto";
import type { IncomingMessage } from "node:http";

export type SimulatorAuth =
  | { kind: "none" }
  | { kind: "api-key"; header: string; value: string }
  | {
      kind: "client-id-secret";
      idHeader: string;
      secretHeader: string;
      clientId: string;
      clientSecret: string;
    }
  | {
      kind: "oauth2";
      clientId: string;
      clientSecret: string;
      tokenTtlSeconds?: number;
      /** A subscription key demanded next to the bearer token (Maersk's Consumer-Key, ZIM's). */
      apiKeyHeader?: string;
      apiKey?: string;
      /** The only way of client authentication the token endpoint accepts; absent: Basic or body. */
      tokenAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
      /** The subscription key is demanded on the token request too (Maersk). */
      apiKeyOnTokenRequest?: boolean;
      /** private_key_jwt: the PEM public key that verifies the assertion. */
      publicKey?: string;
      /** private_key_jwt: the PEM certificate; verifies the assertion and demands its `x5t` thumbprint. */
      certificate?: string;
    };

export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

interface IssuedToken {
  scac: string;
  expiresAt: number;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export type AuthOutcome = { ok: true } | { ok: false; message: string; challenge?: string };

/** Issues and checks OAuth2 bearer tokens, counting issues per carrier. */
export class TokenIssuer {
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly issued = new Map<string, number>();

  issue(scac: string, ttlSeconds: number, nowMs: number): string {
    // Expired tokens are of no further use; drop them so a long run does not grow the map.
    for (const [token, entry] of this.tokens) if (entry.expiresAt <= nowMs) this.tokens.delete(token);
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, { scac, expiresAt: nowMs + ttlSeconds * 1000 });
    this.issued.set(scac, (this.issued.get(scac) ?? 0) + 1);
    return token;
  }

  check(scac: string, token: string, nowMs: number): "valid" | "expired" | "unknown" {
    const entry = this.tokens.get(token);
    if (!entry || entry.scac !== scac) return "unknown";
    return entry.expiresAt > nowMs ? "valid" : "expired";
  }

  issueCounts(): Record<string, number> {
    return Object.fromEntries(this.issued);
  }
}

/** Whether a request to a carrier's events endpoint carries the credentials its strategy demands. */
export function authorize(
  req: IncomingMessage,
  { auth, scac, tokens, nowMs }: { auth: SimulatorAuth; scac: string; tokens: TokenIssuer; nowMs: number },
): AuthOutcome {
  switch (auth.kind) {
    case "none":
      return { ok: true };
    case "api-key":
      return sameSecret(header(req, auth.header), auth.value)
        ? { ok: true }
        : { ok: false, message: `A valid ${auth.header} header is required.` };
    case "client-id-secret":
      return sameSecret(header(req, auth.idHeader), auth.clientId) &&
        sameSecret(header(req, auth.secretHeader), auth.clientSecret)
        ? { ok: true }
        : { ok: false, message: `Valid ${auth.idHeader} and ${auth.secretHeader} headers are required.` };
    case "oauth2": {
      if (
        auth.apiKeyHeader &&
        auth.apiKey !== undefined &&
        !sameSecret(header(req, auth.apiKeyHeader), auth.apiKey)
      ) {
        return { ok: false, message: `A valid ${auth.apiKeyHeader} header is required.` };
      }
      const match = /^Bearer\s+(\S+)$/i.exec(header(req, "authorization") ?? "");
      if (!match?.[1]) {
        return { ok: false, message: "A bearer token is required.", challenge: 'Bearer realm="dcsa-tnt"' };
      }
      const state = tokens.check(scac, match[1], nowMs);
      if (state === "valid") return { ok: true };
      return {
        ok: false,
        message: state === "expired" ? "The access token has expired." : "The access token is not valid.",
        challenge: `Bearer realm="dcsa-tnt", error="invalid_token"`,
      };
    }
  }
}

export interface TokenRequestOutcome {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * The client-credentials token endpoint (RFC 6749 §4.4): credentials in HTTP Basic or in the form body,
 * errors in the RFC's JSON shape.
 */
export function tokenRequest(
  req: IncomingMessage,
  rawBody: string,
  {
    auth,
    scac,
    tokens,
    nowMs,
    tokenUrl = "",
  }: {
    auth: Extract<SimulatorAuth, { kind: "oauth2" }>;
    scac: string;
    tokens: TokenIssuer;
    nowMs: number;
    /** The token endpoint's own URL: the audience a client assertion must name. */
    tokenUrl?: string;
  },
): TokenRequestOutcome {
  const contentType = header(req, "content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return {
      status: 400,
      body: { error: "invalid_request", error_description: "Use application/x-www-form-urlencoded." },
    };
  }
  const form = new URLSearchParams(rawBody);
  if (form.get("grant_type") !== "client_credentials") {
    return {
      status: 400,
      body: { error: "unsupported_grant_type", error_description: "Only client_credentials is supported." },
    };
  }
  if (
    auth.apiKeyOnTokenRequest &&
    auth.apiKeyHeader &&
    auth.apiKey !== undefined &&
    !sameSecret(header(req, auth.apiKeyHeader), auth.apiKey)
  ) {
    return invalidClient(`A valid ${auth.apiKeyHeader} header is required.`);
  }
  const method = auth.tokenAuthMethod;
  const basic = /^Basic\s+(\S+)$/i.exec(header(req, "authorization") ?? "");
  const assertion = form.get("client_assertion");
  if (method === "private_key_jwt" || (method === undefined && assertion !== null)) {
    if (form.get("client_assertion_type") !== CLIENT_ASSERTION_TYPE || assertion === null) {
      return invalidClient("A client_assertion of type jwt-bearer is required.");
    }
    const problem = checkAssertion(assertion, {
      auth,
      tokenUrl,
      clientIdField: form.get("client_id"),
      nowMs,
    });
    if (problem) return invalidClient(problem);
  } else {
    if (method === "client_secret_basic" && !basic) {
      return invalidClient("Client credentials are expected in HTTP Basic.");
    }
    if (method === "client_secret_post" && (basic || !form.has("client_secret"))) {
      return invalidClient("Client credentials are expected in the form body.");
    }
    let clientId = form.get("client_id") ?? undefined;
    let clientSecret = form.get("client_secret") ?? undefined;
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon >= 0) {
        try {
          clientId = decodeURIComponent(decoded.slice(0, colon));
          clientSecret = decodeURIComponent(decoded.slice(colon + 1));
        } catch {
          return invalidClient("Client authentication failed.");
        }
      }
    }
    if (!sameSecret(clientId, auth.clientId) || !sameSecret(clientSecret, auth.clientSecret)) {
      return invalidClient("Client authentication failed.");
    }
  }
  const ttl = auth.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  return {
    status: 200,
    body: { access_token: tokens.issue(scac, ttl, nowMs), token_type: "Bearer", expires_in: ttl },
    headers: { "Cache-Control": "no-store" },
  };
}

export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

function invalidClient(description: string): TokenRequestOutcome {
  return {
    status: 401,
    body: { error: "invalid_client", error_description: description },
    headers: { "WWW-Authenticate": 'Basic realm="token"' },
  };
}

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (!segment) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An RFC 7523 client assertion as Azure AD checks it: RS256 over header.payload with the registered key,
 * the certificate's SHA-1 thumbprint in `x5t` when a certificate is registered, iss = sub = the client,
 * aud = this token endpoint, unexpired by the simulator's clock. Returns what is wrong, or undefined.
 */
function checkAssertion(
  assertion: string,
  {
    auth,
    tokenUrl,
    clientIdField,
    nowMs,
  }: {
    auth: Extract<SimulatorAuth, { kind: "oauth2" }>;
    tokenUrl: string;
    clientIdField: string | null;
    nowMs: number;
  },
): string | undefined {
  const parts = assertion.split(".");
  const head = decodeSegment(parts[0]);
  const claims = decodeSegment(parts[1]);
  if (parts.length !== 3 || !head || !claims || !parts[2]) return "The client assertion is not a JWT.";
  if (head.alg !== "RS256") return "The client assertion must be signed RS256.";
  let key: ReturnType<typeof createPublicKey>;
  if (auth.certificate) {
    const certificate = new X509Certificate(auth.certificate);
    const thumbprint = createHashSha1(certificate.raw);
    if (head.x5t !== thumbprint) return "The client assertion's x5t names no registered certificate.";
    key = certificate.publicKey;
  } else if (auth.publicKey) {
    key = createPublicKey(auth.publicKey);
  } else {
    return "No key is registered for this client.";
  }
  const signed = verify(
    "sha256",
    Buffer.from(`${parts[0]}.${parts[1]}`),
    key,
    Buffer.from(parts[2], "base64url"),
  );
  if (!signed) return "The client assertion's signature does not verify.";
  if (claims.iss !== auth.clientId || claims.sub !== auth.clientId) {
    return "The client assertion names another client.";
  }
  if (clientIdField !== null && clientIdField !== auth.clientId) return "client_id does not match.";
  if (tokenUrl && claims.aud !== tokenUrl) return "The client assertion is meant for another audience.";
  const nowS = nowMs / 1000;
  if (typeof claims.exp !== "number" || claims.exp <= nowS) return "The client assertion has expired.";
  if (typeof claims.nbf === "number" && claims.nbf > nowS + 60)
    return "The client assertion is not yet valid.";
  return undefined;
}

function createHashSha1(der: Buffer): string {
  return createHash("sha1").update(der).digest("base64url");
}
