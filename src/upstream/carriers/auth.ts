import { createHash, createPrivateKey, randomUUID, sign, X509Certificate } from "node:crypto";
import { z } from "zod";
import type { HttpDeps } from "../http/request";
import { requestWithRetry } from "../http/request";
import type { CarrierFailure } from "./carrier-adapter";

/**
 * How Quayside authenticates to one carrier. The same shapes configure the simulator
 * (`startSimulator({ auth: { [SCAC]: ... } })`), so one setting drives both sides; the simulator's
 * oauth2 adds its own `tokenTtlSeconds`, which the client ignores.
 */
export type CarrierAuthConfig =
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
      /** Defaults to `{baseUrl}/oauth/token`, where the simulator serves it. */
      tokenUrl?: string;
      scope?: string;
      /** Some carriers want a subscription key next to the bearer token (Maersk Consumer-Key, ZIM). */
      apiKeyHeader?: string;
      apiKey?: string;
      /**
       * How the client authenticates at the token endpoint (RFC 6749 §2.3.1, RFC 7523): HTTP Basic
       * (default), id and secret in the form body (Maersk, ZIM's older gateway), or a JWT client
       * assertion signed with a private key (MSC's Azure AD).
       */
      tokenAuthMethod?: TokenAuthMethod;
      /** The subscription key also goes on the token request (Maersk's Consumer-Key). */
      apiKeyOnTokenRequest?: boolean;
      /** private_key_jwt: the PEM private key (RS256) that signs the client assertion. */
      privateKey?: string;
      /** private_key_jwt: the PEM certificate of that key; its SHA-1 thumbprint goes out as `x5t`. */
      certificate?: string;
      /** private_key_jwt: the assertion's `aud`; defaults to the token URL (Azure AD wants exactly that). */
      audience?: string;
    };

export type TokenAuthMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt";

export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

const base64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

/** `x5t`: base64url of the SHA-1 digest of the certificate's DER bytes (RFC 7515 §4.1.7). */
export function certificateThumbprint(certificatePem: string): string {
  return base64url(createHash("sha1").update(new X509Certificate(certificatePem).raw).digest());
}

/**
 * An RFC 7523 client assertion: iss and sub the client id, aud the token endpoint, a fresh jti, five
 * minutes of life, signed RS256 with the client's private key.
 */
export function signClientAssertion(options: {
  clientId: string;
  audience: string;
  privateKey: string;
  certificate?: string;
  nowMs: number;
}): string {
  const header: Record<string, string> = { alg: "RS256", typ: "JWT" };
  if (options.certificate) header.x5t = certificateThumbprint(options.certificate);
  const iat = Math.floor(options.nowMs / 1000);
  const payload = {
    iss: options.clientId,
    sub: options.clientId,
    aud: options.audience,
    jti: randomUUID(),
    iat,
    nbf: iat,
    exp: iat + 300,
  };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign("sha256", Buffer.from(input), createPrivateKey(options.privateKey));
  return `${input}.${base64url(signature)}`;
}

/** A carrier whose credentials are missing: it answers `unauthorized` with this reason, no request made. */
/**
 * `cop-hmac`: COSCO COP's per-request HMAC signature (cosco-cop.signing.ts). It is not a header set a
 * session can hand out, so only the `cosco-cop` adapter uses it; the registry pairs the two.
 */
export type CopHmacAuth = { kind: "cop-hmac"; apiKey: string; secretKey: string };

export type CarrierAuth = CarrierAuthConfig | CopHmacAuth | { kind: "unconfigured"; reason: string };

export type AuthHeaders =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; outcome: CarrierFailure };

export interface AuthSession {
  headers(): Promise<AuthHeaders>;
  /**
   * The carrier answered 401 to a request made with the current credentials. True when a fresh try
   * can help (a cached OAuth2 token was dropped); false for static credentials.
   */
  rejected(): boolean;
}

export function createAuthSession(
  auth: CarrierAuth,
  baseUrl: string,
  scac: string,
  http: HttpDeps,
): AuthSession {
  switch (auth.kind) {
    case "none":
      return staticSession({});
    case "api-key":
      return staticSession({ [auth.header]: auth.value });
    case "client-id-secret":
      return staticSession({ [auth.idHeader]: auth.clientId, [auth.secretHeader]: auth.clientSecret });
    case "oauth2":
      return new OAuth2Session(
        auth,
        auth.tokenUrl ?? `${baseUrl.replace(/\/+$/, "")}/oauth/token`,
        scac,
        http,
      );
    case "cop-hmac":
      return {
        headers: async () => ({
          ok: false,
          outcome: {
            kind: "unauthorized",
            reason: `${scac}: COP request signing needs the cosco-cop adapter`,
          },
        }),
        rejected: () => false,
      };
    case "unconfigured":
      return {
        headers: async () => ({ ok: false, outcome: { kind: "unauthorized", reason: auth.reason } }),
        rejected: () => false,
      };
  }
}

function staticSession(headers: Record<string, string>): AuthSession {
  return { headers: async () => ({ ok: true, headers }), rejected: () => false };
}

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
});

// Without expires_in we still reuse the token for a while and rely on the 401 retry when it lapses.
const DEFAULT_TOKEN_LIFETIME_S = 300;

/**
 * RFC 6749 section 2.3.1: id and secret are form-encoded before the Basic encoding. A space goes out as
 * %20 rather than "+": form decoders read both, and servers that use a plain URI decode read only %20.
 */
function formEncode(v: string): string {
  return encodeURIComponent(v);
}

class OAuth2Session implements AuthSession {
  private token: { header: string; refreshAtMs: number } | null = null;
  private pending: Promise<AuthHeaders> | null = null;

  constructor(
    private readonly config: Extract<CarrierAuthConfig, { kind: "oauth2" }>,
    private readonly tokenUrl: string,
    private readonly scac: string,
    private readonly http: HttpDeps,
  ) {}

  async headers(): Promise<AuthHeaders> {
    if (this.token && this.http.clock.now().getTime() < this.token.refreshAtMs) {
      return { ok: true, headers: this.withApiKey(this.token.header) };
    }
    // Concurrent lookups share one token request. It carries no caller signal: one caller giving up
    // must not fail the others waiting on the same token.
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  rejected(): boolean {
    const had = this.token !== null;
    this.token = null;
    return had;
  }

  private withApiKey(authorization: string): Record<string, string> {
    const headers: Record<string, string> = { Authorization: authorization };
    if (this.config.apiKeyHeader && this.config.apiKey)
      headers[this.config.apiKeyHeader] = this.config.apiKey;
    return headers;
  }

  /** The form and headers of a client-credentials token request in the carrier's dialect. */
  private tokenRequest(): { form: URLSearchParams; headers: Record<string, string> } | string {
    const config = this.config;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (config.scope) form.set("scope", config.scope);
    const headers: Record<string, string> = {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
    };
    if (config.apiKeyOnTokenRequest && config.apiKeyHeader && config.apiKey)
      headers[config.apiKeyHeader] = config.apiKey;
    switch (config.tokenAuthMethod ?? "client_secret_basic") {
      case "client_secret_basic":
        headers.Authorization = `Basic ${Buffer.from(
          `${formEncode(config.clientId)}:${formEncode(config.clientSecret)}`,
        ).toString("base64")}`;
        break;
      case "client_secret_post":
        form.set("client_id", config.clientId);
        form.set("client_secret", config.clientSecret);
        break;
      case "private_key_jwt": {
        let assertion: string;
        try {
          assertion = signClientAssertion({
            clientId: config.clientId,
            audience: config.audience ?? this.tokenUrl,
            privateKey: config.privateKey ?? "",
            certificate: config.certificate,
            nowMs: this.http.clock.now().getTime(),
          });
        } catch {
          // The key or certificate in the environment is not a usable PEM: say so, never its content.
          return `${this.scac} private key or certificate for the client assertion cannot be read`;
        }
        form.set("client_id", config.clientId);
        form.set("client_assertion_type", CLIENT_ASSERTION_TYPE);
        form.set("client_assertion", assertion);
        break;
      }
    }
    return { form, headers };
  }

  private async fetchToken(): Promise<AuthHeaders> {
    const request = this.tokenRequest();
    if (typeof request === "string") return { ok: false, outcome: { kind: "unauthorized", reason: request } };
    const where = `${this.scac} token endpoint`;
    const result = await requestWithRetry(this.http, {
      url: this.tokenUrl,
      method: "POST",
      headers: request.headers,
      body: request.form.toString(),
    });
    if (result.kind === "held") {
      return { ok: false, outcome: { kind: "rate-limited", retryAfterSeconds: result.retryAfterSeconds } };
    }
    if (result.kind !== "response") {
      const reason = `${where}: ${result.reason}`;
      if (result.kind === "too-large") return { ok: false, outcome: { kind: "malformed", reason } };
      const cause = result.kind === "timeout" ? "timeout" : "connection";
      return { ok: false, outcome: { kind: "unreachable", reason, cause } };
    }
    if (result.status === 400 || result.status === 401 || result.status === 403) {
      return {
        ok: false,
        outcome: {
          kind: "unauthorized",
          reason: `${where} refused the client credentials (HTTP ${result.status})`,
        },
      };
    }
    if (result.status === 429) {
      return {
        ok: false,
        outcome: {
          kind: "rate-limited",
          retryAfterSeconds: result.retryAfterMs === null ? null : Math.ceil(result.retryAfterMs / 1000),
        },
      };
    }
    if (result.status < 200 || result.status > 299) {
      return {
        ok: false,
        outcome: { kind: "unreachable", reason: `${where} answered HTTP ${result.status}`, cause: "status" },
      };
    }
    let parsed: z.infer<typeof tokenResponseSchema>;
    try {
      parsed = tokenResponseSchema.parse(JSON.parse(result.body));
    } catch {
      return {
        ok: false,
        outcome: { kind: "malformed", reason: `${where} answered without a usable access_token` },
      };
    }
    const lifetimeMs = (parsed.expires_in ?? DEFAULT_TOKEN_LIFETIME_S) * 1000;
    // Renew a little before expiry so a request never leaves with a token about to lapse in flight.
    const marginMs = Math.min(30_000, lifetimeMs / 10);
    const type =
      parsed.token_type && parsed.token_type.toLowerCase() !== "bearer" ? parsed.token_type : "Bearer";
    this.token = {
      header: `${type} ${parsed.access_token}`,
      refreshAtMs: this.http.clock.now().getTime() + lifetimeMs - marginMs,
    };
    return { ok: true, headers: this.withApiKey(this.token.header) };
  }
}
