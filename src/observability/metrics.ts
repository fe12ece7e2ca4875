import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Prometheus metrics. One registry per app instance so tests can run several apps in one process. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: "quayside_http_requests_total",
    help: "HTTP requests by route pattern, method and status code.",
    labelNames: ["route", "method", "status"] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: "quayside_http_request_duration_seconds",
    help: "HTTP request latency by route pattern, method and status code.",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly carrierCalls = new Counter({
    name: "quayside_carrier_calls_total",
    help: "Calls to carrier adapters by SCAC and outcome.",
    labelNames: ["scac", "outcome"] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: "quayside_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome (delivered, retry, failed).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: "quayside_queue_depth",
    help: "Work waiting by queue (webhook deliveries, refreshes due, discoveries queued).",
    labelNames: ["queue"] as const,
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

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: "quayside_" });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
