import type { Services } from "../app/services";
import { PeriodicWorker } from "./periodic-worker";
import { WebhookDispatcher } from "./webhook-dispatcher";

const REFRESH_BATCH = 25;
const DISCOVERY_BATCH = 10;

export interface Workers {
  refresh: PeriodicWorker;
  discovery: PeriodicWorker;
  webhooks: WebhookDispatcher;
  stop(): Promise<void>;
}

/** The background workers of one process; every process may run them (rows are claimed, not shared). */
export function createWorkers(services: Services): Workers {
  const { background, webhooks, logger, metrics, config } = services;
  const refresh = new PeriodicWorker(
    "refresh",
    config.workers.intervalMs,
    async () => {
      const done = await background.refreshDue(REFRESH_BATCH);
      const depths = await background.queueDepths();
      metrics.queueDepth.set({ queue: "refresh_due" }, depths.refreshDue);
      metrics.queueDepth.set({ queue: "discovery" }, depths.discoveries);
      return { full: done === REFRESH_BATCH };
    },
    logger,
  );
  const discovery = new PeriodicWorker(
    "discovery",
    config.workers.intervalMs,
    async () => ({ full: (await background.discoverQueued(DISCOVERY_BATCH)) === DISCOVERY_BATCH }),
    logger,
  );
  const webhookWorker = new WebhookDispatcher(webhooks, config.workers.webhookIntervalMs, logger, metrics);
  return {
    refresh,
    discovery,
    webhooks: webhookWorker,
    async stop() {
      await Promise.all([refresh.stop(), discovery.stop(), webhookWorker.stop()]);
    },
  };
}
