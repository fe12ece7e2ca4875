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
    };

/** A carrier whose credentials are missing: it answers `unauthorized` with this reason, no request made. */
export type CarrierAuth = CarrierAuthConfig | { kind: "unconfigured"; reason: string };

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

  private async fetchToken(): Promise<AuthHeaders> {
    const basic = Buffer.from(
      `${formEncode(this.config.clientId)}:${formEncode(this.config.clientSecret)}`,
    ).toString("base64");
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (this.config.scope) form.set("scope", this.config.scope);
    const where = `${this.scac} token endpoint`;
    const result = await requestWithRetry(this.http, {
      url: this.tokenUrl,
      method: "POST",
      headers: {
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: form.toString(),
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
