import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { ConfigError } from "./config-error";
import { type DocumentsConfig, documentEnvironment, documentsConfig } from "./workspace-config";

export { ConfigError };

/**
 * The only place that reads the environment. Parsed once at start-up; a bad value stops the process
 * with a message naming the variable, rather than failing later in a request.
 */
const booleanFromEnv = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["true", "1", "yes"].includes(v)));

const commaList = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

const decodes = (text: string) => {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  QUAYSIDE_DATA_DIR: z.string().default("./.data"),
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  QUAYSIDE_MIN_INSTANCES: z.coerce.number().int().min(1).max(1_000).default(1),
  QUAYSIDE_PUBLIC_URL: z.string().url().optional(),
  /** AES-256-GCM key for shared secrets at rest (docs/decisions/secrets-at-rest.md): base64 of 32 bytes. */
  QUAYSIDE_SECRETS_KEY: z
    .string()
    .refine((v) => Buffer.from(v, "base64").length === 32, "must be base64 of 32 bytes")
    .optional(),
  QUAYSIDE_DEMO_KEY: z
    .string()
    .min(16, "QUAYSIDE_DEMO_KEY must be at least 16 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "QUAYSIDE_DEMO_KEY may hold letters, digits, '_' and '-' only")
    .optional(),
  QUAYSIDE_DEMO: booleanFromEnv(true),
  QUAYSIDE_COMPAT_PREFIX: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/, "QUAYSIDE_COMPAT_PREFIX must look like /compat")
    .default("/compat"),
  QUAYSIDE_MCP_ENABLED: booleanFromEnv(true),
  QUAYSIDE_SANDBOX_ENABLED: booleanFromEnv(true),
  /**
   * When the sandbox world is built: at start (sandbox requests answer 503 with Retry-After until it
   * is ready), or on the first sandbox request (which waits for it). auto: at start on a PGlite data
   * folder (`npm start`); on the first request on an in-memory database or PostgreSQL, where test
   * servers that never serve the sandbox would each build one (a deployment sets start).
   */
  QUAYSIDE_SANDBOX_WORLD: z
    .enum(["auto", "start", "first-request"], {
      error: "QUAYSIDE_SANDBOX_WORLD is auto, start or first-request",
    })
    .default("auto"),
  QUAYSIDE_MCP_ALLOWED_HOSTS: z
    .string()
    .default("")
    .refine(
      (v) => commaList(v).every((h) => h === "*" || /^[A-Za-z0-9.:[\]-]+$/.test(h)),
      "QUAYSIDE_MCP_ALLOWED_HOSTS looks like mcp.example.com,10.0.0.5 (host names, no ports) or *",
    ),
  QUAYSIDE_MCP_ALLOWED_ORIGINS: z
    .string()
    .default("")
    .refine(
      (v) => commaList(v).every((o) => o === "*" || /^https?:\/\/[^\s/]+$/.test(o)),
      "QUAYSIDE_MCP_ALLOWED_ORIGINS looks like https://app.example.com,http://localhost:6274 or *",
    ),
  QUAYSIDE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  QUAYSIDE_GRAPHQL_EXECUTION: z.enum(["compiled", "interpreted"]).default("compiled"),
  QUAYSIDE_ANSWER_CACHE: booleanFromEnv(true),
  QUAYSIDE_ANSWER_CACHE_ENTRIES: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  QUAYSIDE_DOCUMENT_CACHE_ENTRIES: z.coerce.number().int().min(0).max(10_000_000).default(5_000),
  QUAYSIDE_BODY_LIMIT: z.string().default("1mb"),
  QUAYSIDE_TRUST_PROXY: booleanFromEnv(false),
  QUAYSIDE_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  QUAYSIDE_SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(5_000),
  QUAYSIDE_MAX_CONNECTIONS: z.coerce.number().int().min(2).max(1_000_000).optional(),
  QUAYSIDE_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  QUAYSIDE_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  QUAYSIDE_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  QUAYSIDE_SOCKET_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  QUAYSIDE_METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine((v) => v === undefined || v.length >= 24, "QUAYSIDE_METRICS_TOKEN must be at least 24 characters")
    .refine(
      (v) => v === undefined || /^[\x21-\x7e]+$/.test(v),
      "QUAYSIDE_METRICS_TOKEN may hold printable ASCII only, no spaces",
    ),
  QUAYSIDE_METRICS_ALLOW: z
    .string()
    .default("")
    .refine(
      (v) => commaList(v).every((entry) => parseAddressRule(entry) !== undefined),
      "QUAYSIDE_METRICS_ALLOW looks like 127.0.0.1,10.0.0.0/8,::1 (addresses or CIDR ranges)",
    ),
  QUAYSIDE_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  QUAYSIDE_KEYLESS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  QUAYSIDE_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).default(5),
  QUAYSIDE_CONTRACT_TERMS_CACHE_SECONDS: z.coerce.number().int().min(0).default(5),
  QUAYSIDE_ETA_SNAPSHOT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  QUAYSIDE_SIMULATOR: z.enum(["embedded", "off"]).default("embedded"),
  QUAYSIDE_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  /** Real carriers' habits for the embedded simulator, as `quayside simulator --habits` reads them. */
  QUAYSIDE_SIMULATOR_HABITS: z.string().trim().default(""),
  /** Lines with a `cosco-cop` registry entry asked through the embedded simulator's COP profile (COSU). */
  QUAYSIDE_SIMULATOR_COP: z.string().trim().default(""),
  QUAYSIDE_CARRIER_REGISTRY: z.string().optional(),
  QUAYSIDE_CARRIER_STATUS: z
    .string()
    .regex(
      /^\s*$|^([A-Za-z0-9]{4}=(active|maintenance|disabled))(,[A-Za-z0-9]{4}=(active|maintenance|disabled))*$/,
      "QUAYSIDE_CARRIER_STATUS looks like MAEU=maintenance,ZIMU=disabled",
    )
    .default(""),
  QUAYSIDE_CARRIER_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  QUAYSIDE_CARRIER_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  QUAYSIDE_CARRIER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    // The DCSA adapter's own default (DCSA_TNT_DEFAULTS.maxConcurrency), written out: configuration is
    // the bottom layer and imports no adapter (docs/decisions/architecture.md).
    .default(8),
  // `only`: a worker process (background work, and /healthz, /readyz, /metrics; no API).
  QUAYSIDE_WORKERS: z.enum(["on", "off", "only"]).default("on"),
  // Disruption feeds: `auto` (the embedded simulator's feeds when it runs, else the real ones), `real`,
  // `simulator`, `off`, or the path of a JSON file listing sources.
  QUAYSIDE_DISRUPTION_FEEDS: z.string().default("auto"),
  QUAYSIDE_DISRUPTION_FEED_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(15 * 60_000),
  QUAYSIDE_DISRUPTION_FEED_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  QUAYSIDE_DISRUPTION_FEED_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(5 * 1_048_576),
  QUAYSIDE_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).default(5_000),
  QUAYSIDE_WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).default(1_000),
  /** Minutes between two samplings of a watched port's AIS area (congestion anchorage waits). */
  QUAYSIDE_CONGESTION_SAMPLE_MINUTES: z.coerce.number().int().min(1).max(360).default(60),
  /** Ports watched for congestion besides the 60 largest container ports (comma-separated codes). */
  QUAYSIDE_CONGESTION_PORTS: z.string().default(""),
  /**
   * Day one (docs/day-one.md): the simulator's recent past sampled at first start. auto: on a new
   * PGlite data folder with the embedded simulator, the demo and the workers; on/off: always/never
   * (still only with the embedded simulator and an unsampled database).
   */
  QUAYSIDE_DAY_ONE: z
    .enum(["auto", "on", "off"], { error: "QUAYSIDE_DAY_ONE is auto, on or off" })
    .default("auto"),
  QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFromEnv(false),
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine(
      (v) => v === undefined || /^smtps?:\/\/[^/\s]+/.test(v),
      "SMTP_URL looks like smtp://user:password@mail.example.com:587 or smtps://mail.example.com",
    ),
  QUAYSIDE_MAIL_FROM: z
    .string()
    .regex(/^[^\r\n]*<?[^@\s<>]+@[^@\s<>]+>?$/, "QUAYSIDE_MAIL_FROM looks like Quayside <alerts@example.com>")
    .default("Quayside <quayside@localhost>"),
  QUAYSIDE_GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).default(12),
  QUAYSIDE_GRAPHQL_MAX_COST: z.coerce.number().int().min(10).default(20_000),
  QUAYSIDE_GRAPHQL_MAX_QUERY_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(32_768),
  QUAYSIDE_GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).max(50_000).default(2_000),
  // No wildcard: a browser page from any origin must never reach a keyed API with its credentials.
  QUAYSIDE_GRAPHQL_CORS_ORIGINS: z
    .string()
    .default("")
    .refine(
      (v) => commaList(v).every((o) => /^https?:\/\/[^\s/*]+$/.test(o)),
      "QUAYSIDE_GRAPHQL_CORS_ORIGINS looks like https://app.example.com,http://localhost:3000 (no *)",
    ),
  QUAYSIDE_GRAPHIQL: booleanFromEnv(false),
  QUAYSIDE_TERMINALS_URL: z
    .string()
    .regex(/^(https?:\/\/\S+)?$/, "QUAYSIDE_TERMINALS_URL is an http(s) base URL")
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  QUAYSIDE_AIS_FEED: z
    .string()
    .regex(
      /^(tcp:\/\/[^\s:/]+:\d{1,5}\/?|file:.+|[^:]+)?$/,
      "QUAYSIDE_AIS_FEED is tcp://host:port or file:PATH",
    )
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  // OpenTelemetry's own variables (https://opentelemetry.io/docs/specs/otel/protocol/exporter/): traces
  // are exported only when an endpoint is set, so tracing is off by default.
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine(
      (v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v),
      "OTEL_EXPORTER_OTLP_ENDPOINT looks like http://collector:4318",
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .refine(
      (v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v),
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT looks like http://collector:4318/v1/traces",
    ),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(["http/json", ""], {
      message:
        "OTEL_EXPORTER_OTLP_PROTOCOL: Quayside exports traces as http/json only (every OTLP/HTTP collector accepts it)",
    })
    .optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z
    .enum(["http/json", ""], {
      message:
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: Quayside exports traces as http/json only (every OTLP/HTTP collector accepts it)",
    })
    .optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .default("")
    .refine(
      (v) => commaList(v).every((pair) => /^[^=\s]+=.+$/.test(pair) && decodes(pair)),
      "OTEL_EXPORTER_OTLP_HEADERS looks like api-key=secret,x-tenant=ops",
    ),
  OTEL_SERVICE_NAME: z.string().default("quayside"),
  OTEL_SDK_DISABLED: booleanFromEnv(false),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  QUAYSIDE_SCHEDULE_CARRIERS: z
    .string()
    .regex(
      /^\s*$|^[A-Za-z0-9]{4}(\s*,\s*[A-Za-z0-9]{4})*$/,
      "QUAYSIDE_SCHEDULE_CARRIERS looks like MSCU,MAEU",
    )
    .default("MSCU,MAEU,CMDU,COSU,HLCU,ONEY,EGLV,HDMU,YMLU,ZIMU"),
  ...documentEnvironment,
});

export type DatabaseTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  redisUrl: string | undefined;
  /**
   * The fewest API instances that share `REDIS_URL`. While Redis is unreachable each instance grants
   * 1/N of every window, N the instances alive when Redis last answered, never fewer than this.
   */
  minInstances: number;
  publicUrl: string | undefined;
  /**
   * The key that seals shared secrets at rest: QUAYSIDE_SECRETS_KEY, else `keyFile` (created at first
   * start in the data folder); neither (an in-memory data folder): a key for this process only.
   */
  secrets: { key: Buffer | undefined; keyFile: string | undefined };
  demo: { enabled: boolean; key: string | undefined };
  compatPrefix: string;
  mcpEnabled: boolean;
  /** `/api/v1/sandbox/*`: keyless copies of every v1 endpoint over a fixed demo world. */
  sandboxEnabled: boolean;
  /** Host names (no port) `/api/mcp` accepts besides loopback and the public URL's; `*` accepts any. */
  mcpAllowedHosts: string[];
  /** Browser origins `/api/mcp` accepts besides loopback and the public URL's; `*` accepts any. */
  mcpAllowedOrigins: string[];
  logLevel: z.infer<typeof environmentSchema>["QUAYSIDE_LOG_LEVEL"];
  /** How the facades' persisted operations execute: compiled once at start-up, or by graphql-js per call. */
  graphqlExecution: z.infer<typeof environmentSchema>["QUAYSIDE_GRAPHQL_EXECUTION"];
  /**
   * Answers of the facades' read operations kept until a write changes them (in Redis with
   * REDIS_URL, else in this process; docs/decisions/read-path.md).
   */
  answerCache: boolean;
  /**
   * Answers this process keeps in memory when there is no Redis (least recently used out). A v1
   * stored read's answer takes about 2-3 KB of heap, one with the full document tens of KB
   * (docs/decisions/read-path.md): the default 10,000 is tens of megabytes. With Redis, Redis holds
   * them and its own memory policy applies.
   */
  answerCacheEntries: number;
  /**
   * Parsed document versions this process keeps (`DocumentStore`), least recently used out: a read
   * whose version is held skips parsing it. A document is 7.6 KB of JSON on average in the
   * benchmark's pool (100 KB for a bill of lading of 10 boxes), two to three times that parsed: the
   * default 5,000 is some 100 MB at most. 0 keeps none.
   */
  documentCacheEntries: number;
  bodyLimit: string;
  trustProxy: boolean;
  shutdownGraceMs: number;
  /**
   * After SIGTERM, how long the listener keeps serving while `/readyz` answers 503, so a load balancer
   * stops sending before connections are refused. SIGINT (Ctrl-C at a terminal) skips it.
   */
  shutdownDrainMs: number;
  /**
   * What one process grants its HTTP clients. `maxConnections` open sockets at most (beyond it the
   * idlest socket is closed to make room); headers must arrive within `headersTimeoutMs`, the whole
   * request within `requestTimeoutMs`; an idle keep-alive socket is closed after `keepAliveTimeoutMs`
   * and any socket silent both ways after `socketIdleTimeoutMs`.
   */
  http: {
    maxConnections: number;
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    socketIdleTimeoutMs: number;
  };
  /** `/metrics` asks for this bearer token and/or a caller in these ranges when set; open otherwise. */
  metrics: { token: string | undefined; allow: AddressRule[] };
  /** Unknown keys per client address per minute before they are answered 429 (a good key never is). */
  authFailuresPerMinute: number;
  /** Requests without any key per client address per minute before they are answered 429. */
  keylessPerMinute: number;
  /** How long an authenticated key's row is reused in this process without asking the database; 0: never. */
  keyCacheSeconds: number;
  /**
   * How long an organisation's D&D contract terms are reused in this process; a write through this
   * process takes effect at once, one through another process within this time; 0: never reused.
   */
  contractTermsCacheSeconds: number;
  /**
   * Predictive ETA snapshots (every prediction computed, scored once the vessel arrives) are deleted
   * this many days after their computation by the eta worker (docs/decisions/eta.md).
   */
  etaSnapshotRetentionDays: number;
  simulator: { mode: "embedded" | "off"; port: number; habits: string; cop: string[] };
  carrierRegistryFile: string | undefined;
  /**
   * Per-call timeout and attempts (first included) of carrier requests, and how many requests each
   * carrier has in flight at once from this process (a registry entry's `maxConcurrency` wins).
   */
  carrierCalls: { timeoutMs: number; attempts: number; concurrency: number };
  /** Carriers put under maintenance or disabled by the operator, by SCAC. */
  carrierStatus: Record<string, "active" | "maintenance" | "disabled">;
  webhookAllowPrivateTargets: boolean;
  /** E-mail: through the SMTP server at `smtpUrl` when set, else into the database outbox. */
  mail: { smtpUrl: string | undefined; from: string };
  /** Disruption feed ingestion (docs/decisions/disruptions.md, "Sources"). */
  disruptionFeeds: { sources: string; intervalMs: number; timeoutMs: number; maxBytes: number };
  /**
   * Background workers of this process: refresh, discovery, webhook delivery, disruptions, congestion.
   * `only`: the process runs them and serves no API, only /healthz, /readyz and /metrics.
   */
  workers: { enabled: boolean; only: boolean; intervalMs: number; webhookIntervalMs: number };
  /** Port congestion: how often watched ports are sampled, and ports watched beyond the largest 60. */
  congestion: { sampleEveryMs: number; extraPorts: string[] };
  /** Day one: sample the simulator's recent past at first start (docs/day-one.md). */
  dayOne: "auto" | "on" | "off";
  /** When the sandbox world is built (docs/day-one.md): at start, or on the first sandbox request. */
  sandboxWorld: "start" | "first-request";
  graphql: {
    maxDepth: number;
    maxCost: number;
    /** A client's document is refused above these, before it is parsed. */
    maxQueryBytes: number;
    maxTokens: number;
    /** Browser origins allowed to call `/graphql` cross-origin; empty: no CORS headers at all. */
    corsOrigins: string[];
    /** GraphiQL loads its scripts from a CDN (unpkg), so it is served only when asked for. */
    graphiql: boolean;
  };
  /** AIS feed to ingest (tcp://host:port or file:PATH); unset: no AIS positions. */
  aisFeed: string | undefined;
  /** Base URL of the terminal container inquiries; unset: the embedded simulator's terminals, if it runs. */
  terminalsUrl: string | undefined;
  /** Workspace documents: the upload cap and where the bytes go (docs/decisions/workspace.md). */
  documents: DocumentsConfig;
  /** Carriers whose DCSA Commercial Schedules APIs a schedule search asks, by SCAC. */
  scheduleCarriers: string[];
  /**
   * OpenTelemetry traces: exported over OTLP/HTTP (JSON) to `endpoint` when set; null: off, and no span
   * is made. Root spans are sampled at `sampleRatio`; an incoming `traceparent`'s decision is kept.
   */
  tracing: {
    endpoint: string;
    headers: Record<string, string>;
    serviceName: string;
    sampleRatio: number;
  } | null;
  /** Carrier credentials are looked up by variable name from the registry file, so keep the raw map. */
  environment: Readonly<Record<string, string | undefined>>;
}

/** One entry of an address allow-list: an address, or a CIDR range. */
export interface AddressRule {
  family: "ipv4" | "ipv6";
  address: string;
  prefix: number | undefined;
}

export function parseAddressRule(entry: string): AddressRule | undefined {
  const [address = "", prefixText, ...rest] = entry.split("/");
  if (rest.length > 0) return undefined;
  const family = isIP(address);
  if (family === 0) return undefined;
  const max = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? undefined : Number(prefixText);
  if (prefix !== undefined && prefix > max) return undefined;
  return { family: family === 4 ? "ipv4" : "ipv6", address, prefix };
}

/**
 * Without QUAYSIDE_MAX_CONNECTIONS, half the process's open-file limit (the other half is for the
 * database, carrier calls, webhook deliveries and files), between 64 and 10,000. The limit is read
 * from /proc on Linux; elsewhere 1,024 is assumed (the usual soft limit).
 */
function defaultMaxConnections(): number {
  let softLimit = 1024;
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    if (line?.[1]) softLimit = line[1] === "unlimited" ? 1_000_000 : Number(line[1]);
  } catch {
    // Not Linux: keep the assumption.
  }
  return Math.min(10_000, Math.max(64, Math.floor(softLimit / 2)));
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.QUAYSIDE_REQUEST_TIMEOUT_MS < e.QUAYSIDE_HEADERS_TIMEOUT_MS) {
    throw new ConfigError(
      "Invalid configuration: QUAYSIDE_REQUEST_TIMEOUT_MS must be at least QUAYSIDE_HEADERS_TIMEOUT_MS (headers are part of the request)",
    );
  }
  let database: DatabaseTarget;
  if (e.DATABASE_URL && /^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    database = { kind: "postgres", url: e.DATABASE_URL };
  } else if (e.DATABASE_URL) {
    throw new ConfigError("Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://");
  } else {
    database = {
      kind: "pglite",
      dataDir: e.QUAYSIDE_DATA_DIR === "memory://" ? "memory://" : path.resolve(e.QUAYSIDE_DATA_DIR),
    };
  }
  return {
    port: e.PORT,
    host: e.HOST,
    database,
    redisUrl: e.REDIS_URL,
    minInstances: e.QUAYSIDE_MIN_INSTANCES,
    publicUrl: e.QUAYSIDE_PUBLIC_URL,
    secrets: {
      key: e.QUAYSIDE_SECRETS_KEY ? Buffer.from(e.QUAYSIDE_SECRETS_KEY, "base64") : undefined,
      keyFile:
        e.QUAYSIDE_DATA_DIR === "memory://"
          ? undefined
          : path.join(path.resolve(e.QUAYSIDE_DATA_DIR), "secrets.key"),
    },
    demo: { enabled: e.QUAYSIDE_DEMO, key: e.QUAYSIDE_DEMO_KEY },
    compatPrefix: e.QUAYSIDE_COMPAT_PREFIX,
    mcpEnabled: e.QUAYSIDE_MCP_ENABLED,
    sandboxEnabled: e.QUAYSIDE_SANDBOX_ENABLED,
    mcpAllowedHosts: commaList(e.QUAYSIDE_MCP_ALLOWED_HOSTS).map((h) => h.toLowerCase()),
    mcpAllowedOrigins: commaList(e.QUAYSIDE_MCP_ALLOWED_ORIGINS).map((o) => o.toLowerCase()),
    logLevel: e.QUAYSIDE_LOG_LEVEL,
    graphqlExecution: e.QUAYSIDE_GRAPHQL_EXECUTION,
    answerCache: e.QUAYSIDE_ANSWER_CACHE,
    answerCacheEntries: e.QUAYSIDE_ANSWER_CACHE_ENTRIES,
    documentCacheEntries: e.QUAYSIDE_DOCUMENT_CACHE_ENTRIES,
    bodyLimit: e.QUAYSIDE_BODY_LIMIT,
    trustProxy: e.QUAYSIDE_TRUST_PROXY,
    shutdownGraceMs: e.QUAYSIDE_SHUTDOWN_GRACE_MS,
    shutdownDrainMs: e.QUAYSIDE_SHUTDOWN_DRAIN_MS,
    http: {
      maxConnections: e.QUAYSIDE_MAX_CONNECTIONS ?? defaultMaxConnections(),
      headersTimeoutMs: e.QUAYSIDE_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.QUAYSIDE_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.QUAYSIDE_KEEP_ALIVE_TIMEOUT_MS,
      socketIdleTimeoutMs: e.QUAYSIDE_SOCKET_IDLE_TIMEOUT_MS,
    },
    metrics: {
      token: e.QUAYSIDE_METRICS_TOKEN,
      allow: commaList(e.QUAYSIDE_METRICS_ALLOW).map((entry) => parseAddressRule(entry)!),
    },
    authFailuresPerMinute: e.QUAYSIDE_AUTH_FAILURES_PER_MINUTE,
    keylessPerMinute: e.QUAYSIDE_KEYLESS_PER_MINUTE,
    keyCacheSeconds: e.QUAYSIDE_KEY_CACHE_SECONDS,
    contractTermsCacheSeconds: e.QUAYSIDE_CONTRACT_TERMS_CACHE_SECONDS,
    etaSnapshotRetentionDays: e.QUAYSIDE_ETA_SNAPSHOT_RETENTION_DAYS,
    simulator: {
      mode: e.QUAYSIDE_SIMULATOR,
      port: e.QUAYSIDE_SIMULATOR_PORT,
      habits: e.QUAYSIDE_SIMULATOR_HABITS,
      cop: commaList(e.QUAYSIDE_SIMULATOR_COP).map((scac) => scac.toUpperCase()),
    },
    carrierRegistryFile: e.QUAYSIDE_CARRIER_REGISTRY,
    carrierCalls: {
      timeoutMs: e.QUAYSIDE_CARRIER_TIMEOUT_MS,
      attempts: e.QUAYSIDE_CARRIER_ATTEMPTS,
      concurrency: e.QUAYSIDE_CARRIER_CONCURRENCY,
    },
    carrierStatus: Object.fromEntries(
      e.QUAYSIDE_CARRIER_STATUS.split(",")
        .filter((pair) => pair.trim())
        .map((pair) => pair.trim().split("=") as [string, "active" | "maintenance" | "disabled"]),
    ),
    webhookAllowPrivateTargets: e.QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS,
    mail: { smtpUrl: e.SMTP_URL, from: e.QUAYSIDE_MAIL_FROM },
    disruptionFeeds: {
      sources: e.QUAYSIDE_DISRUPTION_FEEDS,
      intervalMs: e.QUAYSIDE_DISRUPTION_FEED_INTERVAL_MS,
      timeoutMs: e.QUAYSIDE_DISRUPTION_FEED_TIMEOUT_MS,
      maxBytes: e.QUAYSIDE_DISRUPTION_FEED_MAX_BYTES,
    },
    workers: {
      enabled: e.QUAYSIDE_WORKERS !== "off",
      only: e.QUAYSIDE_WORKERS === "only",
      intervalMs: e.QUAYSIDE_WORKER_INTERVAL_MS,
      webhookIntervalMs: e.QUAYSIDE_WEBHOOK_INTERVAL_MS,
    },
    congestion: {
      sampleEveryMs: e.QUAYSIDE_CONGESTION_SAMPLE_MINUTES * 60_000,
      extraPorts: commaList(e.QUAYSIDE_CONGESTION_PORTS).map((code) => code.toUpperCase()),
    },
    dayOne: e.QUAYSIDE_DAY_ONE,
    sandboxWorld:
      e.QUAYSIDE_SANDBOX_WORLD === "auto"
        ? e.QUAYSIDE_DATA_DIR !== "memory://" && !e.DATABASE_URL
          ? "start"
          : "first-request"
        : e.QUAYSIDE_SANDBOX_WORLD,
    graphql: {
      maxDepth: e.QUAYSIDE_GRAPHQL_MAX_DEPTH,
      maxCost: e.QUAYSIDE_GRAPHQL_MAX_COST,
      maxQueryBytes: e.QUAYSIDE_GRAPHQL_MAX_QUERY_BYTES,
      maxTokens: e.QUAYSIDE_GRAPHQL_MAX_TOKENS,
      corsOrigins: commaList(e.QUAYSIDE_GRAPHQL_CORS_ORIGINS).map((o) => o.toLowerCase()),
      graphiql: e.QUAYSIDE_GRAPHIQL,
    },
    aisFeed: e.QUAYSIDE_AIS_FEED,
    terminalsUrl: e.QUAYSIDE_TERMINALS_URL,
    documents: documentsConfig(e, e.QUAYSIDE_DATA_DIR),
    scheduleCarriers: e.QUAYSIDE_SCHEDULE_CARRIERS.split(",")
      .map((scac) => scac.trim().toUpperCase())
      .filter(Boolean),
    tracing: tracingConfig(e),
    environment: env,
  };
}

/**
 * The traces endpoint as OpenTelemetry defines it: the signal's own variable is used as is; the
 * general one gets `/v1/traces` appended.
 */
function tracingConfig(e: z.infer<typeof environmentSchema>): AppConfig["tracing"] {
  const endpoint =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`
      : undefined);
  if (!endpoint || e.OTEL_SDK_DISABLED) return null;
  const headers = Object.fromEntries(
    commaList(e.OTEL_EXPORTER_OTLP_HEADERS).map((pair) => {
      const at = pair.indexOf("=");
      return [decodeURIComponent(pair.slice(0, at).trim()), decodeURIComponent(pair.slice(at + 1).trim())];
    }),
  );
  return { endpoint, headers, serviceName: e.OTEL_SERVICE_NAME, sampleRatio: e.OTEL_TRACES_SAMPLER_ARG };
}
