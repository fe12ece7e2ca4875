import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { Redis } from "ioredis";
import type { AppConfig } from "../config";
import type { Database } from "../db/database";
import { AccountsService } from "../domain/accounts/accounts.service";
import { withCarrierStatus, withConnections } from "../domain/carriers/carrier-directory";
import { CongestionService } from "../domain/congestion/congestion.service";
import { DndService } from "../domain/demurrage/dnd.service";
import { SOURCE_WORDS as LFD_SOURCE_WORDS, lastFreeDaysOfShipment } from "../domain/demurrage/last-free-day";
import { DisruptionsService } from "../domain/disruptions/disruptions.service";
import type { FeedFetcher, FeedSourceConfig } from "../domain/disruptions/feed-source";
import { FeedIngestion } from "../domain/disruptions/ingestion.service";
import type { OpenApiSource } from "../domain/docs-search/doc-sources";
import { EtaService } from "../domain/eta/eta.service";
import { etaSources } from "../domain/eta/eta-sources";
import { TrackingHistoryService } from "../domain/history/tracking-history.service";
import {
  type CounterStore,
  InsuredCounterStore,
  MemoryCounterStore,
  RedisCounterStore,
} from "../domain/limits/counter-store";
import { FixedWindowLimiter } from "../domain/limits/fixed-window";
import { createLookupServices, type LookupUpstreams } from "../domain/lookups/lookups";
import { outboxTransport } from "../domain/notifications/mail-transport";
import { NotificationsService } from "../domain/notifications/notifications.service";
import { PartnersService } from "../domain/partners/partners.service";
import { PeopleService } from "../domain/people/people.service";
import { AccountSignInLock } from "../domain/people/sign-in-lockout";
import { ShipmentFreeTime } from "../domain/shipments/shipment-free-time";
import { ShipmentReads } from "../domain/shipments/shipment-reads";
import { ShipmentsService } from "../domain/shipments/shipments.service";
import { TerminalRecords } from "../domain/terminals/terminal-records.service";
import type { TerminalSource } from "../domain/terminals/terminal-source";
import { BackgroundTracking } from "../domain/tracking/background.service";
import type { CarrierTracker } from "../domain/tracking/carrier-tracker";
import { DocumentStore } from "../domain/tracking/document-store";
import { LookupLog } from "../domain/tracking/lookup-log";
import { SlotsService } from "../domain/tracking/slots.service";
import { type TrackingDeps, TrackingService } from "../domain/tracking/tracking.service";
import { ApiCallsService } from "../domain/usage/api-calls.service";
import { VesselRegister } from "../domain/vessels/vessel-register";
import { guardedLookup } from "../domain/webhooks/target-guard";
import { type SampleDeliveries, WebhooksService } from "../domain/webhooks/webhooks.service";
import { WorkspaceDocumentsService } from "../domain/workspace/documents.service";
import { QuoteRequestsService } from "../domain/workspace/quote-requests.service";
import { TicketsService } from "../domain/workspace/tickets.service";
import { watchedClock } from "../lib/answer-scope";
import type { Clock } from "../lib/clock";
import { secretBoxFor } from "../lib/secret-box";
import type { Logger } from "../observability/logger";
import { Metrics } from "../observability/metrics";
import type { Services } from "../services";
import { createSemaphore } from "../upstream/http/concurrency";
import { smtpTransport } from "../upstream/mail/smtp-transport";
import { HttpWebhookSender } from "../upstream/webhooks/http-sender";
import { createDocumentStorage } from "./document-storage";

export type { Services };

/**
 * Bulk tracking's share of the process (`TrackingDeps.bulkLanes`): items of every bulk request in
 * progress at once (carrier calls overlap; the rest wait holding nothing), and of those, items
 * writing at once: 3 of the PostgreSQL pool's 10 connections, so the other 7 always serve everyone
 * else (docs/decisions/operating.md).
 */
const BULK_ITEMS_AT_ONCE = 16;
const BULK_WRITES_AT_ONCE = 3;

export function createCounterStore(
  config: AppConfig,
  clock: Clock,
  logger: Logger,
  metrics: Metrics = new Metrics(),
): CounterStore {
  if (!config.redisUrl) return new MemoryCounterStore(clock);
  // No offline queue and a command deadline: while Redis is away a count falls back at once instead
  // of waiting for a reconnection with the request held.
  const redis = new Redis(config.redisUrl, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 1_000,
  });
  redis.on("error", () => undefined); // reported once per change of mode, below
  return new InsuredCounterStore(new RedisCounterStore(redis), new MemoryCounterStore(clock), {
    instanceId: `${hostname()}:${process.pid}:${randomUUID()}`,
    minimumInstances: config.minInstances,
    announce: !config.workers.only,
    onModeChange: (health, error) => {
      metrics.rateLimitDegraded.set(health.mode === "insurance" ? 1 : 0);
      if (health.mode === "insurance") {
        logger.warn(
          { err: error, instances: health.instances },
          "Redis unreachable: rate windows and allowances fall back to this instance's insurance window (1/instances of each limit)",
        );
      } else {
        logger.info({ instances: health.instances }, "Redis reachable again: rate windows are shared again");
      }
    },
    onInsuranceCount: () => metrics.rateLimitInsuranceCounts.inc(),
    clock,
  });
}

export function createServices(input: {
  config: AppConfig;
  db: Database;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
  /** The counter store, when the caller built it first (the carrier gateway shares it); closed with the services. */
  counters?: CounterStore;
  carrierGateway: CarrierTracker;
  /**
   * Whether the gateway can ask a carrier at all (the carrier registry's answer); the others are
   * `not_connected`: not supported on this deployment. Absent: every carrier is.
   */
  connectedCarriers?: (scac: string) => boolean;
  /** Vessel-position and schedule sources; none when absent (lookups then answer unavailable). */
  lookupUpstreams?: LookupUpstreams;
  /** The sandbox builds its own tracking service (reserved references, a fallback carrier). */
  createTracking?: (deps: TrackingDeps) => TrackingService;
  /** The sandbox sends sample deliveries of its own shipments. */
  sampleDeliveries?: SampleDeliveries;
  openApiDocument?: OpenApiSource;
  /** News sources of the disruption feed and how to fetch them; absent: no ingestion. */
  disruptionFeeds?: { sources: readonly FeedSourceConfig[]; fetcher: FeedFetcher };
  /** Fixed ids for new disruption events, in order (the sandbox world); random otherwise. */
  disruptionIds?: readonly string[];
  /** Aborted shortly before the shutdown grace ends (the live server's; absent in the sandbox). */
  wrapUp?: AbortSignal;
  /** Where terminals are asked about boxes; absent: terminal records stay `finding`. */
  terminalSource?: TerminalSource;
  /**
   * Whether this graph keeps the shipments' free time and holds on their rows as their inputs change
   * (default true). False for a graph over a database another graph of this process keeps already
   * (day one's past): the change bus is the process's, so both would recompute every change, and the
   * past one's clock would date the facts before the row's last write, which left them stale for
   * every later organisation-wide change to recompute again.
   */
  keepsFreeTime?: boolean;
}): Services {
  const { config, db, logger, carrierGateway } = input;
  // Every service reads time through this one clock, so the answer cache can tell an answer that
  // moved with the clock from one that did not (src/lib/answer-scope.ts).
  const clock = watchedClock(input.clock);
  const metrics = input.metrics ?? new Metrics();
  const counters = input.counters ?? createCounterStore(config, clock, logger, metrics);
  const limiter = new FixedWindowLimiter(counters, clock);
  const apiCalls = new ApiCallsService(db.prisma, clock, counters);
  const carriers = withConnections(
    withCarrierStatus(config.carrierStatus),
    input.connectedCarriers ?? (() => true),
  );
  // Shared secrets at rest (partner sources, carrier subscriptions, webhook endpoints): sealed under the configured key.
  const secrets = secretBoxFor(config.secrets);
  const documents = new DocumentStore(db.prisma, clock, db.prepared, {
    cacheSize: config.documentCacheEntries,
    cacheLookups: metrics.cache("document_version"),
  });
  const congestion = new CongestionService({
    prisma: db.prisma,
    clock,
    logger,
    areaSources: input.lookupUpstreams?.portAreaSources ?? [],
    sampleEveryMs: config.congestion.sampleEveryMs,
    extraPorts: config.congestion.extraPorts,
    scheduleSources: input.lookupUpstreams?.scheduleSources ?? [],
  });
  const lookups = createLookupServices({
    redisUrl: config.redisUrl,
    prisma: db.prisma,
    clock,
    logger,
    limiter,
    documents,
    directory: carriers,
    upstreams: input.lookupUpstreams,
  });
  const slots = new SlotsService(db.prisma, clock, db.prepared);
  const webhookSender = new HttpWebhookSender(
    guardedLookup({ allowPrivate: config.webhookAllowPrivateTargets }),
  );
  const webhooks = new WebhooksService({
    prisma: db.prisma,
    clock,
    logger,
    metrics,
    sender: webhookSender,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    secrets,
  });
  const terminals = new TerminalRecords({
    prisma: db.prisma,
    clock,
    logger,
    source: input.terminalSource,
    sql: db.prepared,
  });
  const dnd = new DndService({
    prisma: db.prisma,
    clock,
    sql: db.prepared,
    termsKeptMs: config.contractTermsCacheSeconds * 1000,
    terminalFacts: async (containers) => (await terminals.currentFactsOfMany(containers)).facts,
  });
  // Free time and holds kept on the shipment rows when their inputs change (issue 38).
  const freeTime = new ShipmentFreeTime({ prisma: db.prisma, clock, documents, dnd, terminals, logger });
  const keepsFreeTime = input.keepsFreeTime !== false;
  const stopFreeTime = keepsFreeTime ? freeTime.listen() : () => undefined;
  dnd.termsChanged = (organizationId) => freeTime.organizationTermsChanged(organizationId);
  // Rows from before the columns existed, filled once at start (idempotent if two processes do it).
  const freeTimeBackfill = keepsFreeTime
    ? freeTime.backfill().catch((error: unknown) => {
        logger.warn({ err: error }, "Free time backfill stopped");
      })
    : Promise.resolve();
  const notifications = new NotificationsService({
    prisma: db.prisma,
    clock,
    logger,
    transport: config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl) : outboxTransport,
    secrets,
    from: config.mail.from,
    publicUrl: (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, ""),
    // One last free day per box, as every D&D surface shows it (docs/decisions/demurrage.md).
    lastFreeDays: async (shipment) =>
      (await lastFreeDaysOfShipment({ prisma: db.prisma, documents, dnd }, shipment.id)).map((box) => ({
        ...box,
        source: LFD_SOURCE_WORDS[box.source],
      })),
    terminalFacts: (containerNumber) => terminals.currentFactsOf(containerNumber),
  });
  webhooks.onChanges((tx, organizationId, events) => notifications.recordChanges(tx, organizationId, events));
  const accounts = new AccountsService(db.prisma, clock, {
    keyCacheSeconds: config.keyCacheSeconds,
    cacheLookups: metrics.cache("api_key"),
  });
  const lookupLog = new LookupLog(db.prepared);
  const shipmentReads = new ShipmentReads(db.prepared);
  const trackingDeps: TrackingDeps = {
    lookups: lookupLog,
    shipments: shipmentReads,
    prisma: db.prisma,
    clock,
    carriers: carrierGateway,
    directory: carriers,
    documents,
    slots,
    limiter,
    webhooks,
    metrics,
    vessels: new VesselRegister(db.prisma),
    wrapUp: input.wrapUp,
    bulkLanes: { items: createSemaphore(BULK_ITEMS_AT_ONCE), writes: createSemaphore(BULK_WRITES_AT_ONCE) },
  };
  const tracking = input.createTracking?.(trackingDeps) ?? new TrackingService(trackingDeps);
  const fixedIds = input.disruptionIds ? [...input.disruptionIds] : null;
  const disruptions = new DisruptionsService(db.prisma, clock, {
    newId: fixedIds ? () => fixedIds.shift() ?? crypto.randomUUID() : undefined,
  });
  const feeds = input.disruptionFeeds;
  const feedIngestion =
    feeds && feeds.sources.length > 0
      ? new FeedIngestion({
          prisma: db.prisma,
          clock,
          fetcher: feeds.fetcher,
          disruptions,
          sources: feeds.sources,
          intervalMs: config.disruptionFeeds.intervalMs,
        })
      : null;
  const background = new BackgroundTracking({
    prisma: db.prisma,
    clock,
    logger,
    tracking,
    documents,
    webhooks,
    directory: carriers,
  });
  metrics.readQueuesWith(() => background.queueStats());
  return {
    config,
    db,
    clock,
    logger,
    metrics,
    secrets,
    accounts,
    freeTime,
    people: new PeopleService(db.prisma, clock, {
      limiter,
      accountLock: new AccountSignInLock(counters, clock),
      effects: {
        // The invitation e-mail goes through the mail queue: SMTP when configured, else the outbox.
        invitationCreated: async (m) => {
          const base = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, "");
          await notifications.enqueueMail({
            organizationId: m.organizationId,
            to: m.to,
            subject: `${m.invitedBy} invited you to ${m.organizationName} on Quayside`,
            text: `${m.invitedBy} invited you to join ${m.organizationName} on Quayside.\n\nAccept the invitation: ${base}${m.path}\n`,
            dedupeKey: `invitation:${m.invitationId}`,
          });
        },
        // A removed teammate's keys stop working at once in this process (others: the key cache's TTL).
        keysRevoked: (keyHashes) => accounts.forgetKeys(keyHashes),
      },
    }),
    carriers,
    counters,
    limiter,
    carrierGateway,
    documents,
    slots,
    tracking,
    shipments: new ShipmentsService({
      prisma: db.prisma,
      clock,
      slots,
      tracking,
      reads: shipmentReads,
      secrets,
    }),
    apiCalls,
    lookupLog,
    history: new TrackingHistoryService({
      prisma: db.prisma,
      documents,
      directory: carriers,
      log: lookupLog,
    }),
    webhooks,
    partners: new PartnersService({ prisma: db.prisma, clock, documents, webhooks, secrets }),
    sampleDeliveries: input.sampleDeliveries,
    background,
    lookups,
    congestion,
    eta: new EtaService({
      prisma: db.prisma,
      clock,
      documents,
      sources: etaSources({ providers: input.lookupUpstreams?.vesselProviders ?? [], congestion, clock }),
      logger,
    }),
    dnd,
    openApiDocument: input.openApiDocument,
    disruptions,
    feedIngestion,
    notifications,
    terminals,
    workspaceDocuments: new WorkspaceDocumentsService({
      prisma: db.prisma,
      storage: createDocumentStorage(config.documents.storage),
      logger,
      clock,
      maxBytes: config.documents.maxBytes,
    }),
    // Tickets and quotes mail both sides; the change stands even when its mail cannot be queued.
    tickets: new TicketsService({
      prisma: db.prisma,
      clock,
      changed: (kind, ticket) =>
        notifications
          .workspaceEvent({ kind, ticket })
          .catch((err) => logger.warn({ err }, "ticket mail not queued")),
    }),
    quoteRequests: new QuoteRequestsService({
      prisma: db.prisma,
      clock,
      changed: (kind, request) =>
        notifications
          .workspaceEvent({ kind, request })
          .catch((err) => logger.warn({ err }, "quote mail not queued")),
    }),
    async close() {
      stopFreeTime();
      await freeTimeBackfill;
      await lookups.close();
      await lookupLog.close().catch((error: unknown) => {
        logger.error({ err: error }, "Logged lookups could not be written to the database at shutdown");
      });
      // Counted calls reach the database before the process ends: a count a client saw is kept.
      await apiCalls.close().catch((error: unknown) => {
        logger.error({ err: error }, "Counted API calls could not be written to the database at shutdown");
      });
      await counters.close();
      webhookSender.close();
      await notifications.close();
    },
  };
}
