import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { openApiDocument } from "../../facades/v1/openapi";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import type { AppConfig } from "../config";
import { openDatabase } from "../db/database";
import { applyMigrations } from "../db/migrate";
import { type DemoOutcome, ensureDemoAccount } from "../domain/accounts/demo";
import { guardConnections, serverOptions } from "../http/connections";
import { createWorkers, type Workers } from "../jobs/workers";
import { type Clock, systemClock } from "../lib/clock";
import { createLogger, type Logger } from "../observability/logger";
import { Metrics } from "../observability/metrics";
import { runOperatorCommand } from "../operator/commands";
import { startOperatorEndpoint } from "../operator/endpoint";
import { createCarrierTracker, loadCarrierRegistry } from "../upstream/carriers/carrier-registry";
import { createFeedFetcher } from "../upstream/feeds/feed.adapter";
import { disruptionFeedSources } from "./disruption-feeds";
import { buildApp } from "./http-app";
import { createLookupUpstreams, startLookupWork } from "./lookups-wiring";
import { createServices, type Services } from "./services";

export interface RunningServer {
  url: string;
  services: Services;
  demo: DemoOutcome | null;
  /** The background workers (also when switched off: tests drive them with `runOnce`). */
  workers: Workers;
  /** The embedded carrier simulator, when `QUAYSIDE_SIMULATOR=embedded`. */
  simulator: RunningSimulator | null;
  /** Stops accepting connections, lets in-flight requests finish, then closes everything. */
  stop(): Promise<void>;
}

/** The composition root: configuration in, a listening service out. */
export async function startServer(
  config: AppConfig,
  options: { clock?: Clock; logger?: Logger } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config.database, { holder: "quayside serve" });
  const migrations = await applyMigrations(db);
  if (migrations.applied.length > 0)
    logger.info({ applied: migrations.applied }, "Database migrations applied");

  // Embedded mode: the simulator on loopback, and every carrier of the registry pointed at it.
  const simulator =
    config.simulator.mode === "embedded"
      ? await startSimulator({ port: config.simulator.port, host: "127.0.0.1", clock })
      : null;
  const registry = loadCarrierRegistry({
    file: config.carrierRegistryFile,
    env: config.environment,
    simulatorUrl: simulator?.url,
  });
  const carrierGateway = createCarrierTracker(registry, {
    clock,
    timeoutMs: config.carrierCalls.timeoutMs,
    maxConcurrency: config.carrierCalls.concurrency,
    retry: { maxAttempts: config.carrierCalls.attempts },
  });
  const services = createServices({
    config,
    db,
    clock,
    logger,
    metrics: new Metrics({ defaultMetrics: true }),
    carrierGateway,
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
    lookupUpstreams: createLookupUpstreams({
      config,
      prisma: db.prisma,
      registry,
      simulatorUrl: simulator?.url,
      clock,
    }),
  });
  // While this process holds the PGlite folder, CLI account commands run in here (src/operator).
  const operator = db.folderLock
    ? await startOperatorEndpoint({
        lock: db.folderLock,
        logger,
        run: (command) =>
          runOperatorCommand(
            { db, accounts: services.accounts, where: "server", keyCacheSeconds: config.keyCacheSeconds },
            command,
          ),
      })
    : null;
  // The port catalogue, and the AIS feed ingester when QUAYSIDE_AIS_FEED is set.
  const lookupWork = await startLookupWork({
    config,
    lookups: services.lookups,
    prisma: db.prisma,
    clock,
    logger,
  });
  const demo = config.demo.enabled ? await ensureDemoAccount(services.accounts, config.demo.key) : null;

  // Listen first so that links in answers carry the real port (PORT=0 picks one); requests that
  // arrive before the app is built wait for it.
  let resolveApp: (app: Express) => void = () => undefined;
  const appReady = new Promise<Express>((resolve) => {
    resolveApp = resolve;
  });
  const server = createServer(
    serverOptions(config.http),
    (req, res) => void appReady.then((app) => app(req, res)),
  );
  guardConnections(server, config.http, logger);
  await listen(server, config.port, config.host);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${displayHost(config.host)}:${port}`;
  const built = await buildApp(services, { baseUrl: (config.publicUrl ?? url).replace(/\/$/, "") });
  resolveApp(built.app);
  await services.feedIngestion?.syncSources();
  const workers = createWorkers(services);
  if (config.workers.enabled) {
    workers.refresh.start();
    workers.discovery.start();
    workers.webhooks.start();
    workers.disruptions.start();
    workers.congestion.start();
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      built.startDraining();
      await closeServer(server, config.shutdownGraceMs);
      await workers.stop();
      await operator?.close();
      await built.close();
      await lookupWork.stop();
      await services.close();
      await simulator?.close();
      await db.close();
    })();
    return stopping;
  };
  return { url, services, demo, simulator, workers, stop };
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

/**
 * Stops new connections, closes idle keep-alive ones, and waits for in-flight requests; after the
 * grace period whatever is left is cut so the process can exit.
 */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
