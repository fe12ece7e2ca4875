import { readFileSync } from "node:fs";
import { z } from "zod";
import { CARRIERS } from "../../domain/carriers/carrier-directory";
import { type CounterStore, MemoryCounterStore } from "../../domain/limits/counter-store";
import { findPort } from "../../domain/ports/port-directory";
import type { CarrierTracker } from "../../domain/tracking/carrier-tracker";
import { type Clock, systemClock } from "../../lib/clock";
import { createSemaphore } from "../http/concurrency";
import { realSleep, type Sleep } from "../http/request";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../http/retry-policy";
import type { CarrierAuth, CarrierAuthConfig } from "./auth";
import type { CarrierAdapter, CarrierOutcome, CarrierQuery } from "./carrier-adapter";
import { type CarrierBudget, type CarrierCourtesy, createCarrierCourtesy } from "./carrier-courtesy";
import { createCoscoCopAdapter } from "./cosco-cop.adapter";
import {
  createDcsaTntAdapter,
  DCSA_TNT_DEFAULTS,
  defaultEventsPath,
  TNT_VERSIONS,
  type TntVersion,
} from "./dcsa-tnt.adapter";
import {
  type CarrierAnswerSink,
  type CarrierAnswerWarning,
  dcsaTracker,
  type TerminalSignalSink,
} from "./dcsa-tnt.tracker";

/**
 * `config/carriers.registry.json`: which adapter, endpoint and credentials each SCAC uses. The file
 * names environment variables, never secrets; the values come from the env object passed in (read
 * once by src/config.ts). A bad file stops start-up; a missing credential only disables its carrier.
 */

export const DEFAULT_REGISTRY_FILE = new URL("../../../config/carriers.registry.json", import.meta.url);

const envName = z.string().regex(/^[A-Z][A-Z0-9_]*$/, "an environment variable name (A-Z, 0-9, _)");
const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "an HTTP header name");

// Strict objects: a key such as "clientSecret" (a secret pasted into the file) is refused, not ignored.
const authSpecSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("none") }),
  z.strictObject({ kind: z.literal("api-key"), header: headerName, valueEnv: envName }),
  /** COSCO COP: every request signed with HMAC-SHA1 from the apiKey and secretKey COP issued. */
  z.strictObject({ kind: z.literal("cop-hmac"), apiKeyEnv: envName, secretKeyEnv: envName }),
  z.strictObject({
    kind: z.literal("client-id-secret"),
    idHeader: headerName,
    secretHeader: headerName,
    clientIdEnv: envName,
    clientSecretEnv: envName,
  }),
  z
    .strictObject({
      kind: z.literal("oauth2"),
      tokenUrl: z.url().optional(),
      tokenUrlEnv: envName.optional(),
      /** client_secret_basic (default), client_secret_post or private_key_jwt. */
      tokenAuthMethod: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt"]).optional(),
      clientIdEnv: envName,
      /** Required unless tokenAuthMethod is private_key_jwt. */
      clientSecretEnv: envName.optional(),
      /** private_key_jwt: the variable holding the PEM private key. */
      privateKeyEnv: envName.optional(),
      /** private_key_jwt: the variable holding the PEM certificate (sent as its x5t thumbprint). */
      certificateEnv: envName.optional(),
      audience: z.string().min(1).optional(),
      scope: z.string().optional(),
      scopeEnv: envName.optional(),
      apiKeyHeader: headerName.optional(),
      apiKeyEnv: envName.optional(),
      apiKeyOnTokenRequest: z.boolean().optional(),
    })
    .superRefine((spec, ctx) => {
      if (spec.tokenAuthMethod === "private_key_jwt") {
        if (!spec.privateKeyEnv)
          ctx.addIssue({ code: "custom", message: "private_key_jwt needs privateKeyEnv" });
      } else if (!spec.clientSecretEnv) {
        ctx.addIssue({
          code: "custom",
          message: `${spec.tokenAuthMethod ?? "client_secret_basic"} needs clientSecretEnv`,
        });
      }
    }),
]);

/**
 * How a carrier wants a document number written: prefixes it does not want are stripped (Evergreen's
 * FAQ: no EGLV in transportDocumentReference). Container numbers are never changed.
 */
const referenceRulesSchema = z.strictObject({
  stripPrefixes: z.array(z.string().regex(/^[A-Z0-9]{2,6}$/, "an upper-case prefix")).min(1),
  appliesTo: z
    .array(z.enum(["bl", "booking"]))
    .min(1)
    .optional(),
});
export type ReferenceRules = z.infer<typeof referenceRulesSchema>;

/** `dcsa-tnt-2.2`: DCSA Track & Trace 2.2; `cosco-cop`: COSCO's Open-api Platform cargo tracking. */
export const CARRIER_ADAPTER_KINDS = ["dcsa-tnt-2.2", "cosco-cop"] as const;
export type CarrierAdapterKind = (typeof CARRIER_ADAPTER_KINDS)[number];

const carrierSpecSchema = z
  .strictObject({
    name: z.string().min(1),
    adapter: z.enum(CARRIER_ADAPTER_KINDS),
    baseUrl: z.url().nullable(),
    eventsPath: z.string().startsWith("/").optional(),
    /** Which DCSA Track & Trace the carrier serves; 2.2 unless said (see DcsaTntAdapterOptions.tntVersion). */
    tntVersion: z.enum(TNT_VERSIONS).optional(),
    auth: authSpecSchema,
    pageSize: z.number().int().min(1).max(1000).optional(),
    maxPages: z.number().int().min(1).max(1000).optional(),
    maxConcurrency: z.number().int().min(1).max(64).optional(),
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    /** The carrier answers a document only together with the box (HMM): see DcsaTntAdapterOptions. */
    documentWithContainer: z.boolean().optional(),
    references: referenceRulesSchema.optional(),
    /** Where the entry's facts come from (documentation, third-party client), for whoever checks it. */
    source: z.string().optional(),
    /** The carrier's published request budget; every process of the deployment spends from one. */
    rateLimit: z
      .strictObject({
        perMinute: z.number().int().min(1).optional(),
        perDay: z.number().int().min(1).optional(),
      })
      .optional(),
    note: z.string().optional(),
    /**
     * DCSA event subscriptions (docs/decisions/carrier-push.md): Quayside subscribes for the references
     * it tracks with this carrier and applies what the carrier pushes; polling stays as a stretched
     * safety net. `QUAYSIDE_CARRIER_<SCAC>_PUSH=on|off` overrides it.
     */
    push: z
      .strictObject({
        /** Where the subscriptions live, under baseUrl (default /v2/event-subscriptions, /v3/... for 3.0). */
        subscriptionsPath: z.string().startsWith("/").optional(),
      })
      .optional(),
  })
  .refine((spec) => (spec.adapter === "cosco-cop") === (spec.auth.kind === "cop-hmac"), {
    message: "the cosco-cop adapter and the cop-hmac auth go together",
    path: ["auth"],
  });

export const carrierRegistryFileSchema = z.strictObject({
  $comment: z.union([z.string(), z.array(z.string())]).optional(),
  carriers: z.record(z.string().regex(/^[A-Z]{4}$/, "a 4-letter SCAC"), carrierSpecSchema),
});

export type CarrierAuthSpec = z.infer<typeof authSpecSchema>;
export type CarrierRegistryFile = z.infer<typeof carrierRegistryFileSchema>;

export interface CarrierRegistryEntry {
  scac: string;
  name: string;
  adapter: CarrierAdapterKind;
  /** null: no endpoint known for this carrier outside the simulator. */
  baseUrl: string | null;
  eventsPath: string;
  tntVersion: TntVersion;
  auth: CarrierAuth;
  pageSize: number | undefined;
  maxPages: number | undefined;
  maxConcurrency: number | undefined;
  timeoutMs: number | undefined;
  documentWithContainer: boolean;
  references: ReferenceRules | undefined;
  /** Requests per minute / per day the carrier allows; undefined: no budget (only its Retry-After). */
  rateLimit: CarrierBudget | undefined;
  note: string | null;
  /** Event subscriptions at `${baseUrl}${subscriptionsPath}`; null: the carrier is polled only. */
  push: { subscriptionsPath: string } | null;
}

export interface CarrierRegistry {
  mode: "simulator" | "live";
  /** In file order; in simulator mode followed by the directory's other carriers. */
  carriers: ReadonlyMap<string, CarrierRegistryEntry>;
  get(scac: string): CarrierRegistryEntry | undefined;
  /**
   * Whether the carrier can be asked at all: in simulator mode every carrier of the directory; in live
   * mode one with an entry, an endpoint and its credentials. The others are not supported here.
   */
  connected(scac: string): boolean;
}

export interface LoadCarrierRegistryOptions {
  /** Path or URL of the registry file; defaults to config/carriers.registry.json. */
  file?: string | URL;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Embedded mode: every SCAC of the file and of the directory at `${simulatorUrl}/${SCAC}` (the
   * simulator serves every line the directory lists), auth none unless `simulatorAuth` says otherwise.
   */
  simulatorUrl?: string;
  /** The carriers the service lists; defaults to the whole directory. */
  directory?: readonly { scac: string; name: string }[];
  simulatorAuth?: Readonly<Record<string, CarrierAuthConfig>>;
  /**
   * Embedded mode: `cosco-cop` entries asked through the simulator's COP profile (at
   * `${simulatorUrl}/${SCAC}/cop`, signed with these keys) instead of its DCSA API.
   */
  simulatorCop?: Readonly<Record<string, { apiKey: string; secretKey: string }>>;
}

export class CarrierRegistryError extends Error {}

export function loadCarrierRegistry(options: LoadCarrierRegistryOptions): CarrierRegistry {
  const file = options.file ?? DEFAULT_REGISTRY_FILE;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new CarrierRegistryError(
      `Carrier registry ${String(file)} cannot be read: ${(error as Error).message}`,
    );
  }
  const parsed = carrierRegistryFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new CarrierRegistryError(`Carrier registry ${String(file)} is invalid: ${problems}`);
  }
  return buildRegistry(parsed.data, options);
}

export function buildRegistry(
  file: CarrierRegistryFile,
  options: Omit<LoadCarrierRegistryOptions, "file">,
): CarrierRegistry {
  const carriers = new Map<string, CarrierRegistryEntry>();
  const simulatorUrl = options.simulatorUrl?.replace(/\/+$/, "");
  for (const scac of Object.keys(options.simulatorAuth ?? {})) {
    if (!(scac in file.carriers)) {
      throw new CarrierRegistryError(`simulatorAuth names ${scac}, which is not in the carrier registry`);
    }
  }
  for (const scac of Object.keys(options.simulatorCop ?? {})) {
    if (file.carriers[scac]?.adapter !== "cosco-cop") {
      throw new CarrierRegistryError(
        `simulatorCop names ${scac}, which has no cosco-cop entry in the carrier registry`,
      );
    }
  }
  for (const [scac, spec] of Object.entries(file.carriers)) {
    const common = {
      scac,
      name: spec.name,
      adapter: spec.adapter,
      tntVersion: spec.tntVersion ?? "2.2",
      pageSize: spec.pageSize,
      maxPages: spec.maxPages,
      maxConcurrency: spec.maxConcurrency,
      timeoutMs: spec.timeoutMs,
      documentWithContainer: spec.documentWithContainer ?? false,
      references: spec.references,
      note: spec.note ?? null,
      push: pushOf(scac, spec.push, spec.tntVersion ?? "2.2", options.env),
    };
    const cop = options.simulatorCop?.[scac];
    if (simulatorUrl !== undefined && spec.adapter === "cosco-cop" && cop !== undefined) {
      carriers.set(scac, {
        ...common,
        rateLimit: undefined,
        baseUrl: `${simulatorUrl}/${scac}/cop`,
        eventsPath: DCSA_TNT_DEFAULTS.eventsPath,
        auth: { kind: "cop-hmac", apiKey: cop.apiKey, secretKey: cop.secretKey },
      });
      continue;
    }
    if (simulatorUrl !== undefined) {
      carriers.set(scac, {
        ...common,
        // The simulator speaks DCSA for every line, COSCO included: a cosco-cop entry is asked there
        // in DCSA (docs/decisions/carriers.md "COSCO through its own API").
        adapter: "dcsa-tnt-2.2",
        // The simulated carriers are the deployment's own: their real-world budgets do not apply.
        rateLimit: undefined,
        baseUrl: `${simulatorUrl}/${scac}`,
        eventsPath: defaultEventsPath(common.tntVersion),
        auth: options.simulatorAuth?.[scac] ?? { kind: "none" },
      });
      continue;
    }
    const env = options.env;
    const value = (name: string) => {
      const v = env[name]?.trim();
      return v ? v : undefined;
    };
    carriers.set(scac, {
      ...common,
      baseUrl: value(`QUAYSIDE_CARRIER_${scac}_BASE_URL`) ?? spec.baseUrl,
      eventsPath:
        value(`QUAYSIDE_CARRIER_${scac}_EVENTS_PATH`) ??
        spec.eventsPath ??
        defaultEventsPath(common.tntVersion),
      auth: resolveAuth(scac, spec.auth, value),
      rateLimit: spec.rateLimit,
    });
  }
  if (simulatorUrl !== undefined) {
    // Lines the file does not describe still trade in the simulated world: route them there too, so
    // every line the directory lists is trackable with the defaults of `npm start`.
    for (const carrier of options.directory ?? CARRIERS) {
      if (carriers.has(carrier.scac)) continue;
      carriers.set(carrier.scac, {
        scac: carrier.scac,
        name: carrier.name,
        adapter: "dcsa-tnt-2.2",
        baseUrl: `${simulatorUrl}/${carrier.scac}`,
        eventsPath: DCSA_TNT_DEFAULTS.eventsPath,
        tntVersion: "2.2",
        auth: { kind: "none" },
        pageSize: undefined,
        maxPages: undefined,
        maxConcurrency: undefined,
        timeoutMs: undefined,
        documentWithContainer: false,
        references: undefined,
        rateLimit: undefined,
        note: "Not in the registry file: simulator only.",
        push: pushOf(carrier.scac, undefined, "2.2", options.env),
      });
    }
  }
  const get = (scac: string) => carriers.get(scac.trim().toUpperCase());
  return {
    mode: simulatorUrl === undefined ? "live" : "simulator",
    carriers,
    get,
    connected: (scac) => {
      const entry = get(scac);
      return entry !== undefined && entry.baseUrl !== null && entry.auth.kind !== "unconfigured";
    },
  };
}

function resolveAuth(
  scac: string,
  spec: CarrierAuthSpec,
  value: (name: string) => string | undefined,
): CarrierAuth {
  const missing: string[] = [];
  const need = (name: string): string => {
    const v = value(name);
    if (v === undefined) missing.push(name);
    return v ?? "";
  };
  let auth: CarrierAuthConfig;
  switch (spec.kind) {
    case "none":
      return { kind: "none" };
    case "api-key":
      auth = { kind: "api-key", header: spec.header, value: need(spec.valueEnv) };
      break;
    case "client-id-secret":
      auth = {
        kind: "client-id-secret",
        idHeader: spec.idHeader,
        secretHeader: spec.secretHeader,
        clientId: need(spec.clientIdEnv),
        clientSecret: need(spec.clientSecretEnv),
      };
      break;
    case "cop-hmac": {
      const apiKey = need(spec.apiKeyEnv);
      const secretKey = need(spec.secretKeyEnv);
      if (missing.length === 0) return { kind: "cop-hmac", apiKey, secretKey };
      return {
        kind: "unconfigured",
        reason: `${scac} credentials are not configured: set ${missing.join(", ")}`,
      };
    }
    case "oauth2": {
      const tokenUrl = spec.tokenUrlEnv ? (value(spec.tokenUrlEnv) ?? spec.tokenUrl) : spec.tokenUrl;
      if (tokenUrl === undefined) missing.push(spec.tokenUrlEnv ?? "tokenUrl");
      auth = {
        kind: "oauth2",
        tokenUrl,
        tokenAuthMethod: spec.tokenAuthMethod,
        clientId: need(spec.clientIdEnv),
        clientSecret: spec.clientSecretEnv ? need(spec.clientSecretEnv) : "",
        privateKey: spec.privateKeyEnv ? need(spec.privateKeyEnv) : undefined,
        certificate: spec.certificateEnv ? value(spec.certificateEnv) : undefined,
        audience: spec.audience,
        scope: (spec.scopeEnv ? value(spec.scopeEnv) : undefined) ?? spec.scope,
        apiKeyHeader: spec.apiKeyHeader,
        apiKey: spec.apiKeyEnv ? need(spec.apiKeyEnv) : undefined,
        apiKeyOnTokenRequest: spec.apiKeyOnTokenRequest,
      };
      break;
    }
  }
  if (missing.length > 0) {
    return {
      kind: "unconfigured",
      reason: `${scac} credentials are not configured: set ${missing.join(", ")}`,
    };
  }
  return auth;
}

/** The entry's push option, `QUAYSIDE_CARRIER_<SCAC>_PUSH=on|off` first. */
function pushOf(
  scac: string,
  spec: { subscriptionsPath?: string } | undefined,
  version: TntVersion,
  env: Readonly<Record<string, string | undefined>>,
): { subscriptionsPath: string } | null {
  const override = env[`QUAYSIDE_CARRIER_${scac}_PUSH`]?.trim().toLowerCase();
  if (override !== undefined && override !== "" && override !== "on" && override !== "off") {
    throw new CarrierRegistryError(`QUAYSIDE_CARRIER_${scac}_PUSH must be on or off`);
  }
  const wanted = override === "on" ? true : override === "off" ? false : spec !== undefined;
  if (!wanted) return null;
  const versionPath = version === "3.0" ? "/v3/event-subscriptions" : "/v2/event-subscriptions";
  return { subscriptionsPath: spec?.subscriptionsPath ?? versionPath };
}

// -----------------------------------------------------------------------------------------------------

export interface CarrierGatewayOptions {
  clock?: Clock;
  fetch?: typeof fetch;
  sleep?: Sleep;
  random?: () => number;
  /** Defaults for carriers whose registry entry does not set them. */
  timeoutMs?: number;
  pageSize?: number;
  maxPages?: number;
  maxConcurrency?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * Where carriers' cooldowns and request budgets are kept: the service's counter store (Redis when
   * configured, so every process respects them). Absent: this gateway's own memory.
   */
  counters?: CounterStore;
  /** Told the hold, release and availability events of every carrier answer (terminal records). */
  terminalSignals?: TerminalSignalSink;
  /** Told what a carrier answered that was set aside (a container query answered about another box). */
  warn?: CarrierAnswerWarning;
  /** Told every answer's raw events (the push subscriptions keep them). */
  answers?: CarrierAnswerSink;
}

/**
 * The tracking service's carrier port for every carrier of the registry, names resolved against the
 * port catalogue. Every entry is DCSA Track & Trace 2.2 today (`adapter` in the registry file). A
 * carrier with another API would get an adapter kind of its own there, a `CarrierTracker` of its own
 * beside the DCSA one (its client, and its mapper to the tracking document), and a choice by SCAC
 * here; the tracking service would not change.
 */
export function createCarrierTracker(
  registry: CarrierRegistry,
  options: CarrierGatewayOptions = {},
): CarrierTracker {
  return dcsaTracker(createCarrierGateway(registry, options), {
    clock: options.clock ?? systemClock,
    locationLookup: findPort,
    terminalSignals: options.terminalSignals,
    warn: options.warn,
    answers: options.answers,
  });
}

/** One DCSA Track & Trace client per SCAC behind a single `CarrierAdapter`: the events as they came. */
export interface CarrierGateway extends CarrierAdapter {
  supports(scac: string): boolean;
  readonly scacs: readonly string[];
}

export function createCarrierGateway(
  registry: CarrierRegistry,
  options: CarrierGatewayOptions = {},
): CarrierGateway {
  const adapters = new Map<string, CarrierAdapter>();
  const clock = options.clock ?? systemClock;
  const courtesy = createCarrierCourtesy({
    counters: options.counters ?? new MemoryCounterStore(clock),
    clock,
    sleep: options.sleep ?? realSleep,
    maxWaitMs: options.retry?.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  });
  for (const entry of registry.carriers.values()) {
    adapters.set(entry.scac, adapterFor(entry, options, courtesy));
  }
  return {
    scacs: [...adapters.keys()],
    supports: (scac) => adapters.has(scac.trim().toUpperCase()),
    async fetchEvents(query: CarrierQuery, signal?: AbortSignal): Promise<CarrierOutcome> {
      const scac = query.scac.trim().toUpperCase();
      const adapter = adapters.get(scac);
      if (adapter === undefined) {
        return {
          kind: "unreachable",
          reason: `no carrier ${scac} in the carrier registry`,
          cause: "not-configured",
        };
      }
      return adapter.fetchEvents({ ...query, scac }, signal);
    },
  };
}

function adapterFor(
  entry: CarrierRegistryEntry,
  options: CarrierGatewayOptions,
  courtesy: CarrierCourtesy,
): CarrierAdapter {
  if (entry.baseUrl === null) {
    const reason = `${entry.scac} (${entry.name}) has no public endpoint configured; it runs against the simulator only (set QUAYSIDE_CARRIER_${entry.scac}_BASE_URL to use a real one)`;
    return { fetchEvents: async () => ({ kind: "unreachable", reason, cause: "not-configured" }) };
  }
  if (entry.adapter === "cosco-cop") {
    if (entry.auth.kind !== "cop-hmac") {
      const reason =
        entry.auth.kind === "unconfigured"
          ? entry.auth.reason
          : `${entry.scac}: cosco-cop needs cop-hmac auth`;
      return { fetchEvents: async () => ({ kind: "unauthorized", reason }) };
    }
    return createCoscoCopAdapter({
      scac: entry.scac,
      baseUrl: entry.baseUrl,
      auth: entry.auth,
      clock: options.clock,
      fetch: options.fetch,
      timeoutMs: entry.timeoutMs ?? options.timeoutMs,
      courtesy,
      budget: entry.rateLimit,
    });
  }
  return createDcsaTntAdapter({
    scac: entry.scac,
    baseUrl: entry.baseUrl,
    eventsPath: entry.eventsPath,
    tntVersion: entry.tntVersion,
    auth: entry.auth,
    clock: options.clock,
    fetch: options.fetch,
    sleep: options.sleep,
    random: options.random,
    timeoutMs: entry.timeoutMs ?? options.timeoutMs,
    pageSize: entry.pageSize ?? options.pageSize,
    maxPages: entry.maxPages ?? options.maxPages,
    documentWithContainer: entry.documentWithContainer,
    references: entry.references,
    courtesy,
    budget: entry.rateLimit,
    retry: options.retry,
    semaphore: createSemaphore(
      entry.maxConcurrency ?? options.maxConcurrency ?? DCSA_TNT_DEFAULTS.maxConcurrency,
    ),
  });
}
