import { createServices, type Services } from "../../src/app/services";
import { loadConfig } from "../../src/config";
import type { Database } from "../../src/db/database";
import type { AccountsService } from "../../src/domain/accounts/accounts.service";
import { SlotsService } from "../../src/domain/tracking/slots.service";
import type { ApiCallsService } from "../../src/domain/usage/api-calls.service";
import type { PrismaClient } from "../../src/generated/prisma/client";
import { systemClock } from "../../src/lib/clock";
import { createLogger } from "../../src/observability/logger";
import { createCarrierTracker, loadCarrierRegistry } from "../../src/upstream/carriers/carrier-registry";
import type { PrismaWorkName } from "../scenarios";

/**
 * The database work a scenario costs the service, done directly: no gate, no rate window, no
 * GraphQL, no logging or metrics. It calls the service's own domain services (the key lookup is
 * `AccountsService.authenticate` with the service's key cache: the key by hash joined with its user
 * and organisation when not cached, and the last-used write at most once a minute per key), so it follows the service when a query changes;
 * when a route starts doing more database work, its entry here must grow with it. Each returns false
 * when the key is refused, which the route answers with a 401 (counted as non-2xx).
 */
export interface PrismaWorkContext {
  prisma: PrismaClient;
  accounts: AccountsService;
  apiCalls: ApiCallsService;
  slots: SlotsService;
  /**
   * The service's domain services (tracking, shipments), built by its own createServices over the
   * same database, without HTTP middleware or GraphQL: the stored-data and tracking scenarios call
   * them directly, with the same arguments the persisted operations pass.
   */
  services: Services;
}

/** What the route needs from the request: the path parameter and the query. */
export interface WorkRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
}

export type PrismaWork = (ctx: PrismaWorkContext, rawKey: string, req: WorkRequest) => Promise<boolean>;

export function prismaWorkContext(db: Database, env: Record<string, string> = {}): PrismaWorkContext {
  const prisma = db.prisma;
  const config = loadConfig({ QUAYSIDE_SIMULATOR: "off", QUAYSIDE_LOG_LEVEL: "silent", ...env });
  const registry = loadCarrierRegistry({ file: config.carrierRegistryFile, env: config.environment });
  const services = createServices({
    config,
    db,
    clock: systemClock,
    logger: createLogger("silent"),
    carrierGateway: createCarrierTracker(registry, {
      clock: systemClock,
      timeoutMs: config.carrierCalls.timeoutMs,
      maxConcurrency: config.carrierCalls.concurrency,
      retry: { maxAttempts: config.carrierCalls.attempts },
    }),
  });
  return {
    prisma,
    // The service's own accounts service, with its key cache (QUAYSIDE_KEY_CACHE_SECONDS, default
    // 5 s): a baseline that looked every key up while the service reuses it would measure the cache,
    // not our core.
    accounts: services.accounts,
    apiCalls: services.apiCalls,
    slots: new SlotsService(prisma, systemClock),
    services,
  };
}

/** The newest stored version of many documents in one statement: the same SQL as the GraphQL loader. */
async function latestDocuments(prisma: PrismaClient, ids: readonly (string | null)[]): Promise<number> {
  const wanted = ids.filter((id): id is string => id !== null);
  if (wanted.length === 0) return 0;
  const rows = await prisma.$queryRaw<
    unknown[]
  >`SELECT d.id AS document_id, d.carrier_scac, d.reference_type::text AS reference_type, d.reference_key,
           d.latest_version, d.last_synced_at, d.last_attempt_at, d.last_failure_reason, d.created_at,
           v.id AS version_id, v.version, v.fetched_at, v.content
      FROM carrier_documents d
      JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
     WHERE d.id = ANY(${wanted}::text[])`;
  return rows.length;
}

export const PRISMA_WORK: Readonly<Record<PrismaWorkName, PrismaWork>> = {
  "key-lookup": async ({ accounts }, rawKey) => (await accounts.authenticate(rawKey)).ok,
  // `viewer { organization }` reads the organisation again by id (every scalar column, as Pothos asks).
  "key-lookup+organization": async ({ prisma, accounts }, rawKey) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const organization = await prisma.organization.findUnique({
      where: { id: authentication.principal.organization.id },
    });
    return organization !== null;
  },
  // Every admitted compat call is counted (the CompatCall operation: an upsert of the month's row)
  // and answers the month's usage with the organisation's slots (two counts).
  "key-lookup+compat-call": async ({ accounts, apiCalls, slots }, rawKey) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const { organization } = authentication.principal;
    await apiCalls.record(organization.id, "compat");
    await slots.usage(organization);
    return true;
  },
  // ShipmentRead, McpShipmentStatus and the GraphQL shipment query: the shipment by reference, then
  // its document (the graphql-shipment and MCP baselines read the same rows; their rendering differs).
  "key-lookup+shipment-read": async ({ prisma, accounts, services }, rawKey, req) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const id = req.params.id ?? "QSBL10X20";
    const shipment = await services.shipments.find(authentication.principal, id);
    if (!shipment) return false;
    await latestDocuments(prisma, [shipment.documentId]);
    return true;
  },
  "key-lookup+shipments-page": async ({ prisma, accounts, services }, rawKey, req) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const { items } = await services.shipments.page(
      authentication.principal,
      1,
      Number(req.query.pageSize ?? 20),
    );
    await latestDocuments(
      prisma,
      items.map((s) => s.documentId),
    );
    return true;
  },
  "key-lookup+shipments-delta": async ({ prisma, accounts, services }, rawKey, req) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const { items } = await services.shipments.updatedSince(
      authentication.principal,
      new Date(String(req.query.updated_since)),
    );
    await latestDocuments(
      prisma,
      items.map((s) => s.documentId),
    );
    return true;
  },
  // PortCongestionBoard: the newest reading of every scored port.
  "key-lookup+congestion-board": async ({ accounts, services }, rawKey) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    await services.congestion.board();
    return true;
  },
  // PortCongestion: one port's readings of the last 90 days.
  "key-lookup+congestion-reading": async ({ accounts, services }, rawKey, req) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    await services.congestion.reading(String(req.params.locode));
    return true;
  },
  // CompatTrack: the core's track serving the stored document, then the call counted with the usage.
  "key-lookup+compat-track": async ({ accounts, apiCalls, slots, services }, rawKey, req) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const { principal } = authentication;
    const outcome = await services.tracking.track(principal, {
      reference: String(req.query.number),
      carrier: req.query.sealine ? String(req.query.sealine) : undefined,
      freshness: "serve-fresh",
      surface: "compat",
    });
    await apiCalls.record(principal.organization.id, "compat");
    await slots.usage(principal.organization);
    return outcome.kind === "tracked";
  },
  // TrackReference: the core's track asking the carrier (the simulator process) every time.
  "key-lookup+live-track": async ({ accounts, services }, rawKey, req) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const outcome = await services.tracking.track(authentication.principal, {
      reference: String(req.params.number),
      freshness: "fetch",
      surface: "v1",
    });
    return outcome.kind === "tracked";
  },
};
