import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Work waiting in one queue: how much, and how long the longest-due item has been due. */
export interface QueueStat {
  queue: "webhook_deliveries" | "refresh_due" | "discovery";
  depth: number;
  /** Seconds since the oldest due item became due; 0 when nothing is due. */
  oldestDueAgeSeconds: number;
}

/** Hits and misses of one in-process cache. */
export interface CacheLookups {
  hit(): void;
  miss(): void;
}

/** The in-process caches whose hit rates are exported. */
export type CacheName = "answer" | "api_key" | "document_version" | "graphql_document";

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Upstream calls (carriers, webhook receivers) take longer: up to their 10 s deadlines and beyond. */
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Prometheus metrics. One registry per app instance so tests can run several apps in one process.
 * Names follow Prometheus conventions: a `quayside_` prefix, base units (seconds), `_total` on
 * counters, labels of bounded cardinality (route patterns, surfaces, SCACs, outcomes; never ids).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: "quayside_http_requests_total",
    help: "HTTP requests by route pattern, method, status code and surface (v1, compat, graphql, mcp, sandbox, share, other).",
    labelNames: ["route", "method", "status", "surface"] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: "quayside_http_request_duration_seconds",
    help: "HTTP request latency by route pattern, method, status code and surface (v1, compat, graphql, mcp, sandbox, share, other).",
    labelNames: ["route", "method", "status", "surface"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly carrierCalls = new Counter({
    name: "quayside_carrier_calls_total",
    help: "Calls to carrier adapters by SCAC and outcome.",
    labelNames: ["scac", "outcome"] as const,
    registers: [this.registry],
  });
  readonly carrierCallDuration = new Histogram({
    name: "quayside_carrier_call_duration_seconds",
    help: "Latency of carrier tracking calls (retries and paging included) by SCAC and outcome.",
    labelNames: ["scac", "outcome"] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: "quayside_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome (delivered, retry, failed), counted when recorded.",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly webhookDeliveryDuration = new Histogram({
    name: "quayside_webhook_delivery_duration_seconds",
    help: "Latency of webhook delivery attempts (the POST to the endpoint, up to the 10 s deadline) by outcome (delivered, retry, failed).",
    labelNames: ["outcome"] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: "quayside_queue_depth",
    help: "Work waiting by queue (webhook_deliveries: pending deliveries; refresh_due: shipments due a refresh; discovery: carrier discoveries queued), read at each scrape.",
    labelNames: ["queue"] as const,
    registers: [this.registry],
  });
  readonly queueOldestDueAge = new Gauge({
    name: "quayside_queue_oldest_due_age_seconds",
    help: "Seconds since the oldest item due in each queue became due (0: nothing due), read at each scrape.",
    labelNames: ["queue"] as const,
    registers: [this.registry],
  });
  readonly cacheLookups = new Counter({
    name: "quayside_cache_lookups_total",
    help: "Lookups in the in-process caches (api_key, document_version, graphql_document) by result (hit, miss).",
    labelNames: ["cache", "result"] as const,
    registers: [this.registry],
  });

  readonly rateLimitDegraded = new Gauge({
    name: "quayside_rate_limit_degraded",
    help: "1 while Redis is unreachable and rate windows are counted in this instance's insurance window (1/instances of each limit), else 0.",
    registers: [this.registry],
  });
  readonly rateLimitInsuranceCounts = new Counter({
    name: "quayside_rate_limit_insurance_counts_total",
    help: "Rate window and allowance counts made in this instance's insurance window because Redis was unreachable.",
    registers: [this.registry],
  });

  /** Reads the queues at scrape time; set by the composition root (absent: no queue gauges). */
  private queues: (() => Promise<readonly QueueStat[]>) | undefined;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: "quayside_" });
  }

  readQueuesWith(read: () => Promise<readonly QueueStat[]>): void {
    this.queues = read;
  }

  /** A cache's hit and miss counters, bound once (an increment is then a field update). */
  cache(name: CacheName): CacheLookups {
    const hits = this.cacheLookups.labels(name, "hit");
    const misses = this.cacheLookups.labels(name, "miss");
    // Both series exist from the start, so a hit-rate panel reads 0, not "no data".
    hits.inc(0);
    misses.inc(0);
    return { hit: () => hits.inc(), miss: () => misses.inc() };
  }

  /**
   * The exposition. Queue gauges are read first, from the database: every process reports the same
   * shared queues (take the max across instances). If the database cannot answer, the last values stay.
   */
  async render(): Promise<string> {
    if (this.queues) {
      try {
        for (const stat of await this.queues()) {
          this.queueDepth.set({ queue: stat.queue }, stat.depth);
          this.queueOldestDueAge.set({ queue: stat.queue }, stat.oldestDueAgeSeconds);
        }
      } catch {
        // An outage: /readyz says so; the scrape still answers.
      }
    }
    return this.registry.metrics();
  }
}
