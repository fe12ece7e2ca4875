import type { Services } from "../services";
import { PeriodicWorker } from "./periodic-worker";
import { WebhookDispatcher } from "./webhook-dispatcher";

const REFRESH_BATCH = 25;
const DISCOVERY_BATCH = 10;
const REMATCH_BATCH = 50;
/** How often the disruption worker looks for due feeds (each feed has its own, longer interval). */
const DISRUPTION_TICK_MS = 30_000;
const CONGESTION_BATCH = 10;
const MAIL_BATCH = 25;
const TERMINAL_BATCH = 25;
const ETA_BATCH = 50;
const DND_BATCH = 100;

export interface Workers {
  refresh: PeriodicWorker;
  discovery: PeriodicWorker;
  webhooks: WebhookDispatcher;
  /** Due disruption feeds fetched and ingested, silent events resolved, changed shipments rematched. */
  disruptions: PeriodicWorker;
  /** Samples watched ports' AIS areas and scores ports whose reading is due. */
  congestion: PeriodicWorker;
  /** Queues last-free-day reminders, disruption mails and digests, and sends due mail. */
  notifications: PeriodicWorker;
  /** Asks terminals about boxes whose terminal record is due. */
  terminals: PeriodicWorker;
  /**
   * Computes the predictive ETA of shipments with a new version or whose hour is up, scores the kept
   * snapshots of arrived ones, and deletes snapshots past their retention.
   */
  eta: PeriodicWorker;
  /** Recomputes the D&D schedules kept on shipment rows once they pass their port's midnight. */
  dnd: PeriodicWorker;
  stop(): Promise<void>;
}

/** The background workers of one process; every process may run them (rows are claimed, not shared). */
export function createWorkers(services: Services): Workers {
  const { background, webhooks, congestion, logger, config, disruptions, feedIngestion, notifications } =
    services;
  const refresh = new PeriodicWorker(
    "refresh",
    config.workers.intervalMs,
    async (stop) => {
      const done = await background.refreshDue(REFRESH_BATCH, stop);
      return { full: done === REFRESH_BATCH };
    },
    logger,
  );
  const discovery = new PeriodicWorker(
    "discovery",
    config.workers.intervalMs,
    async (stop) => ({ full: (await background.discoverQueued(DISCOVERY_BATCH, stop)) === DISCOVERY_BATCH }),
    logger,
  );
  const webhookWorker = new WebhookDispatcher(webhooks, config.workers.webhookIntervalMs, logger);
  const disruptionWorker = new PeriodicWorker(
    "disruptions",
    Math.min(DISRUPTION_TICK_MS, config.disruptionFeeds.intervalMs),
    async () => {
      if (feedIngestion) await feedIngestion.tick();
      else await disruptions.resolveSilent();
      return { full: (await disruptions.rematchChangedShipments(REMATCH_BATCH)) === REMATCH_BATCH };
    },
    logger,
  );
  let watched = false;
  const congestionWorker = new PeriodicWorker(
    "congestion",
    config.workers.intervalMs,
    async (stop) => {
      if (!watched) {
        await congestion.ensureWatched();
        watched = true;
      }
      const sampled = await congestion.sampleDue(CONGESTION_BATCH, stop);
      const scored = await congestion.scoreDue(CONGESTION_BATCH, stop);
      return { full: sampled.length === CONGESTION_BATCH || scored.length === CONGESTION_BATCH };
    },
    logger,
  );
  const notificationWorker = new PeriodicWorker(
    "notifications",
    config.workers.intervalMs,
    () => notifications.tick(MAIL_BATCH),
    logger,
  );
  const terminalWorker = new PeriodicWorker(
    "terminals",
    config.workers.intervalMs,
    async (stop) => ({ full: (await services.terminals.checkDue(TERMINAL_BATCH, stop)) === TERMINAL_BATCH }),
    logger,
  );
  const etaWorker = new PeriodicWorker(
    "eta",
    config.workers.intervalMs,
    async () => {
      // Snapshots past their retention and fixes past the history window go (at most hourly).
      await services.eta.pruneKept(config.etaSnapshotRetentionDays);
      return { full: (await services.eta.computeDue(ETA_BATCH)) === ETA_BATCH };
    },
    logger,
  );
  const dndWorker = new PeriodicWorker(
    "dnd",
    config.workers.intervalMs,
    async () => ({ full: (await services.freeTime.recomputeDue(DND_BATCH)) === DND_BATCH }),
    logger,
  );
  return {
    refresh,
    discovery,
    webhooks: webhookWorker,
    disruptions: disruptionWorker,
    congestion: congestionWorker,
    notifications: notificationWorker,
    terminals: terminalWorker,
    eta: etaWorker,
    dnd: dndWorker,
    async stop() {
      await Promise.all([
        dndWorker.stop(),
        etaWorker.stop(),
        terminalWorker.stop(),
        refresh.stop(),
        discovery.stop(),
        webhookWorker.stop(),
        disruptionWorker.stop(),
        congestionWorker.stop(),
        notificationWorker.stop(),
      ]);
    },
  };
}
