import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { openApiDocument } from "../../facades/v1/openapi";
import { parseHabitsOption } from "../../simulator/habits";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import type { AppConfig } from "../config";
import { type Database, openDatabase } from "../db/database";
import { applyMigrations } from "../db/migrate";
import { type DemoOutcome, ensureDemoAccount } from "../domain/accounts/demo";
import { createBoundedServer, guardConnections, type RequestInFlight } from "../http/connections";
import { drainHttpServer } from "../http/drain";
import { PeriodicWorker } from "../jobs/periodic-worker";
import { createWorkers, type Workers } from "../jobs/workers";
import { type Clock, systemClock } from "../lib/clock";
import { createLogger, type Logger } from "../observability/logger";
import { Metrics } from "../observability/metrics";
import { StartupPhases } from "../observability/startup-phases";
import { startTracing, type Tracing } from "../observability/tracing";
import { runOperatorCommand } from "../operator/commands";
import { startOperatorEndpoint } from "../operator/endpoint";
import { CarrierPush } from "../upstream/carriers/carrier-push";
import {
  createCarrierGateway,
  createCarrierTracker,
  loadCarrierRegistry,
} from "../upstream/carriers/carrier-registry";
import { createFeedFetcher } from "../upstream/feeds/feed.adapter";
import { type DayOneReport, startDayOne } from "./day-one";
import { disruptionFeedSources } from "./disruption-feeds";
import { buildApp } from "./http-app";
import { createLookupUpstreams, startLookupWork } from "./lookups-wiring";
import { sealStoredSecrets } from "./seal-secrets";
import { createCounterStore, createServices, type Services } from "./services";
import { terminalSourceFor } from "./terminals-wiring";

/** Serialises the demo account's creation across processes (any constant every instance shares). */
const DEMO_LOCK_ID = 0x51a75_de0;

export interface RunningServer {
  url: string;
  services: Services;
  demo: DemoOutcome | null;
  /** The background workers (also when switched off: tests drive them with `runOnce`). */
  workers: Workers;
  /** The embedded carrier simulator, when `QUAYSIDE_SIMULATOR=embedded`. */
  simulator: RunningSimulator | null;
  /** Day one's sampling of the recent past (docs/day-one.md): its report, or null when not run. */
  dayOne: Promise<DayOneReport | null>;
  /** OpenTelemetry tracing, when an OTLP endpoint is configured (null: off). */
  tracing: Tracing | null;
  /**
   * DCSA carrier push (docs/decisions/carrier-push.md): the subscriptions and the callback's work, and
   * the worker that keeps subscriptions in step with tracked references (started with the workers
   * when a carrier of the registry asks for push; tests drive it with `runOnce`).
   */
  carrierPush: { service: CarrierPush; worker: PeriodicWorker };
  /**
   * Readiness fails, the listener keeps serving for `drainMs` (default 0: tests and scripts; the CLI
   * passes `QUAYSIDE_SHUTDOWN_DRAIN_MS` on SIGTERM), then closes; in-flight requests get
   * `QUAYSIDE_SHUTDOWN_GRACE_MS`, bulk tracking wraps up before it ends, and whatever is left is cut.
   * Then the workers and the database close. The report names what was cut.
   */
  stop(options?: { drainMs?: number }): Promise<ShutdownReport>;
}

export interface ShutdownReport {
  /** Requests cut when the grace ended (each also logged). Empty: every request was answered. */
  cut: RequestInFlight[];
}

/** The composition root: configuration in, a listening service out. */
export async function startServer(
  config: AppConfig,
  options: {
    clock?: Clock;
    logger?: Logger;
    /** The database already being opened (the CLI starts it while this module graph still loads). */
    database?: Promise<Database>;
  } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const startup = new StartupPhases();
  const db = await (options.database ?? openDatabase(config.database, { holder: "quayside serve" }));
  startup.mark("database");
  const migrations = await applyMigrations(db);
  startup.mark("migrations");
  if (migrations.applied.length > 0)
    logger.info({ applied: migrations.applied }, "Database migrations applied");

  // Embedded mode: the simulator on loopback, and every carrier of the registry pointed at it.
  // Habits only when asked for (QUAYSIDE_SIMULATOR_HABITS): by default every simulated carrier is ideal DCSA.
  const habits = parseHabitsOption(config.simulator.habits ? [config.simulator.habits] : []);
  if (typeof habits === "string") throw new Error(`QUAYSIDE_SIMULATOR_HABITS: ${habits}`);
  // COP profile (QUAYSIDE_SIMULATOR_COP): keys made up for this start, shared by both sides in-process.
  const simulatorCop = Object.fromEntries(
    config.simulator.cop.map((scac) => [
      scac,
      { apiKey: `simulated-${scac}`, secretKey: randomBytes(24).toString("base64url") },
    ]),
  );
  const simulator =
    config.simulator.mode === "embedded"
      ? await startSimulator({
          port: config.simulator.port,
          host: "127.0.0.1",
          clock,
          habits,
          cop: simulatorCop,
          // Its port is open on loopback like the API's: the same deadlines for a silent socket.
          createServer: (handler) => createBoundedServer(config.http, handler),
        })
      : null;
  startup.mark("simulator");
  const registry = loadCarrierRegistry({
    file: config.carrierRegistryFile,
    env: config.environment,
    simulatorUrl: simulator?.url,
    simulatorCop,
  });
  // One counter store for the API's windows and the carriers' cooldowns and budgets: with Redis, every
  // process of the deployment honours a carrier's Retry-After and spends from one budget.
  const metrics = new Metrics({ defaultMetrics: true });
  const counters = createCounterStore(config, clock, logger, metrics);
  const carrierGateway = createCarrierTracker(registry, {
    clock,
    counters,
    timeoutMs: config.carrierCalls.timeoutMs,
    maxConcurrency: config.carrierCalls.concurrency,
    retry: { maxAttempts: config.carrierCalls.attempts },
    // Bound late: the terminal records are part of the services built from this gateway.
    terminalSignals: (document, signalsOf) => {
      services?.terminals.recordCarrierSignals(document, signalsOf).catch((error: unknown) => {
        logger.warn({ err: error }, "Carrier hold signals could not be kept");
      });
    },
    warn: (message, details) => logger.warn(details, message),
    // A poll's raw events, kept for references a push subscription covers (bound late, as above).
    answers: (query, events) => carrierPush?.observe(query, events),
  });
  let carrierPush: CarrierPush | undefined;
  // Aborted shortly before the shutdown grace ends: bulk tracking then answers with what it committed.
  const wrapUp = new AbortController();
  let services: Services | undefined;
  const lookupUpstreams = createLookupUpstreams({
    config,
    prisma: db.prisma,
    registry,
    simulatorUrl: simulator?.url,
    clock,
  });
  services = createServices({
    wrapUp: wrapUp.signal,
    config,
    db,
    clock,
    logger,
    metrics,
    counters,
    carrierGateway,
    connectedCarriers: registry.connected,
    openApiDocument,
    disruptionFeeds: {
      sources: disruptionFeedSources(config, simulator?.url),
      fetcher: createFeedFetcher({
        timeoutMs: config.disruptionFeeds.timeoutMs,
        maxBytes: config.disruptionFeeds.maxBytes,
        userAgent: "Quayside disruption monitor (+https://github.com/quayside; feed reader)",
        clock,
      }),
    },
    terminalSource: terminalSourceFor(config.terminalsUrl ?? simulator?.url),
    lookupUpstreams,
  });
  startup.mark("services");
  // Secrets written before they were sealed at rest are sealed now (docs/decisions/secrets-at-rest.md).
  const sealed = await sealStoredSecrets(db.prisma, services.secrets);
  if (Object.values(sealed).some((count) => count > 0)) {
    logger.info(sealed, "Shared secrets stored in clear sealed at rest");
  }
  // Its own gateway for the baseline a new subscription starts from, on the same counters (budgets).
  let publicUrl = config.publicUrl ?? "";
  carrierPush = new CarrierPush({
    prisma: db.prisma,
    clock,
    logger,
    registry,
    tracking: services.tracking,
    background: services.background,
    carriers: createCarrierGateway(registry, {
      clock,
      counters,
      timeoutMs: config.carrierCalls.timeoutMs,
      retry: { maxAttempts: config.carrierCalls.attempts },
    }),
    publicUrl: () => publicUrl,
    secrets: services.secrets,
  });
  const pushService = carrierPush;
  const pushWorker = new PeriodicWorker(
    "carrier-push",
    PUSH_RECONCILE_MS,
    async () => {
      await pushService.reconcile();
      return { full: false };
    },
    logger,
  );
  // While this process holds the PGlite folder, CLI account commands run in here (src/operator).
  const operator = db.folderLock
    ? await startOperatorEndpoint({
        lock: db.folderLock,
        logger,
        http: config.http,
        run: (command) =>
          runOperatorCommand(
            { db, accounts: services.accounts, where: "server", keyCacheSeconds: config.keyCacheSeconds },
            command,
          ),
      })
    : null;
  startup.mark("operator");
  // The port catalogue, and the AIS feed ingester when QUAYSIDE_AIS_FEED is set.
  const lookupWork = await startLookupWork({
    config,
    lookups: services.lookups,
    prisma: db.prisma,
    clock,
    logger,
  });
  startup.mark("lookups");
  // Under a lock: API processes started together on an empty database would each see no
  // organisation and each make a demo. A worker process (QUAYSIDE_WORKERS=only) serves no key.
  const demo =
    config.demo.enabled && !config.workers.only
      ? await db.withAdvisoryLock(DEMO_LOCK_ID, () => ensureDemoAccount(services.accounts, config.demo.key))
      : null;
  startup.mark("demo");
  // Before the listener and the workers, after what can fail at start-up (tracing is process-wide).
  const tracing = config.tracing ? startTracing(config.tracing, SERVICE_VERSION) : null;
  if (config.tracing) {
    logger.info(
      { endpoint: redactedEndpoint(config.tracing.endpoint), serviceName: config.tracing.serviceName },
      "Exporting traces over OTLP",
    );
  }

  // Listen first so that links in answers carry the real port (PORT=0 picks one); requests that
  // arrive before the app is built wait for it.
  let resolveApp: (app: Express) => void = () => undefined;
  const appReady = new Promise<Express>((resolve) => {
    resolveApp = resolve;
  });
  // Once built, the app is called directly: waiting on the settled promise would still cost every
  // request a turn of the microtask queue.
  let readyApp: Express | undefined;
  void appReady.then((app) => {
    readyApp = app;
  });
  const server = createBoundedServer(config.http, (req, res) => {
    if (readyApp) return void readyApp(req, res);
    void appReady.then((app) => app(req, res));
  });
  const connections = guardConnections(server, config.http, logger);
  await listen(server, config.port, config.host);
  startup.mark("listen");
  const port = (server.address() as AddressInfo).port;
  const url = `http://${displayHost(config.host)}:${port}`;
  publicUrl = (config.publicUrl ?? url).replace(/\/$/, "");
  // Day one: the simulator's recent past, sampled after the instance answers (docs/day-one.md); the
  // sandbox world is built after it, and congestion sampling starts once it is in (the live sampler
  // continues from its last sighting).
  const dayOne = startDayOne({ services, config, simulator: simulator !== null, demo, lookupUpstreams });
  const built = await buildApp(services, {
    baseUrl: (config.publicUrl ?? url).replace(/\/$/, ""),
    sandboxAfter: dayOne.done,
    carrierPush: pushService,
  });
  resolveApp(built.app);
  await services.feedIngestion?.syncSources();
  startup.mark("app");
  const workers = createWorkers(services);
  if (config.workers.enabled) {
    workers.refresh.start();
    workers.discovery.start();
    workers.webhooks.start();
    workers.disruptions.start();
    workers.notifications.start();
    workers.terminals.start();
    workers.eta.start();
    workers.dnd.start();
    if ([...registry.carriers.keys()].some((scac) => pushService.covers(scac))) pushWorker.start();
  }
  if (config.workers.enabled) {
    dayOne.done.finally(() => {
      if (!stopping) workers.congestion.start();
    });
  }
  logger.info(startup.summary(), "Started");
  // What the first requests do not need loads now, after the instance already answers.
  setImmediate(() => {
    const warming = performance.now();
    built.warm().then(
      () => logger.info({ ms: Math.round(performance.now() - warming) }, "Deferred handlers loaded"),
      (error: unknown) => logger.error({ err: error }, "Loading the deferred handlers failed"),
    );
  });

  let stopping: Promise<ShutdownReport> | undefined;
  const stop = (options: { drainMs?: number } = {}) => {
    stopping ??= (async () => {
      built.startDraining();
      dayOne.stop();
      // The workers stop alongside the drain, not after it: each finishes the item in progress and
      // starts no other, so a batch of slow carrier lookups no longer adds its length to the stop.
      const workersStopped = Promise.all([workers.stop(), pushWorker.stop()]);
      const drained = await drainHttpServer({
        server,
        guard: connections,
        timings: { drainMs: options.drainMs ?? 0, graceMs: config.shutdownGraceMs },
        logger,
        onWrapUp: () => wrapUp.abort(),
      });
      await workersStopped;
      // Day one stops between two steps, before the database closes under it.
      await dayOne.done;
      await operator?.close();
      await built.close();
      await lookupWork.stop();
      await services.close();
      await simulator?.close();
      await db.close();
      // Last: the spans of the shutdown's own work are sent too.
      await tracing?.shutdown().catch((error: unknown) => {
        logger.warn({ err: error }, "Sending the last traces failed");
      });
      return { cut: drained.cut };
    })();
    return stopping;
  };
  return {
    url,
    services,
    demo,
    simulator,
    workers,
    tracing,
    carrierPush: { service: pushService, worker: pushWorker },
    stop,
    dayOne: dayOne.done,
  };
}

function displayHost(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "localhost" : host;
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.listen(port, host);
    server.once("listening", () => resolve(server));
    server.once("error", reject);
  });
}

/** How often subscriptions are brought in step with tracked references (new, untracked, renewed). */
const PUSH_RECONCILE_MS = 60_000;

/** The service version reported on traces (package.json's). */
const SERVICE_VERSION = "0.1.0";

/** An endpoint for the log: no credentials a URL might carry. */
function redactedEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    url.username = "";
    url.password = "";
    url.search = "";
    return url.toString();
  } catch {
    return "(unparsable)";
  }
}
