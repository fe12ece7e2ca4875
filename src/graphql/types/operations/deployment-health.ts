import { builder } from "../../builder";

/**
 * What the organisation operating the deployment sees of its machinery (the dashboard's operator
 * pages): the queues background work drains, and each carrier's calls as this process made them.
 */
interface QueueRow {
  queue: string;
  depth: number;
  oldestDueAgeSeconds: number;
}
interface CarrierRow {
  scac: string;
  calls: number;
  answered: number;
  faults: { outcome: string; count: number }[];
  meanLatencyMs: number | null;
}

const QueueRef = builder.objectRef<QueueRow>("BackgroundQueue").implement({
  description: "One queue of background work.",
  fields: (t) => ({
    queue: t.exposeString("queue", {
      description:
        "webhook_deliveries (pending), refresh_due (shipments due a refresh) or discovery (queued).",
    }),
    depth: t.exposeInt("depth"),
    oldestDueAgeSeconds: t.exposeFloat("oldestDueAgeSeconds", {
      description: "Seconds since the oldest due item became due; 0 when nothing is due.",
    }),
  }),
});

const FaultRef = builder
  .objectRef<{ scac: string; outcome: string; count: number }>("CarrierFaultCount")
  .implement({
    description: "Failed calls to one carrier with one outcome (a flat list, so a page of it costs little).",
    fields: (t) => ({
      scac: t.exposeString("scac"),
      outcome: t.exposeString("outcome"),
      count: t.exposeInt("count"),
    }),
  });

/** Below this share of answered calls a carrier is flagged on the operations page. */
const LOW_ANSWER_RATE = 0.9;

const CarrierHealthRef = builder.objectRef<CarrierRow>("CarrierHealth").implement({
  description: "One carrier's tracking calls made by this process since it started.",
  fields: (t) => ({
    scac: t.exposeString("scac"),
    calls: t.exposeInt("calls"),
    answered: t.exposeInt("answered", { description: "Calls the carrier answered (found or not found)." }),
    answerRate: t.float({
      nullable: true,
      description: "answered / calls; null without calls.",
      resolve: (r) => (r.calls > 0 ? r.answered / r.calls : null),
    }),
    meanLatencyMs: t.float({ nullable: true, resolve: (r) => r.meanLatencyMs }),
    answerRateLow: t.boolean({
      description: `True when fewer than ${LOW_ANSWER_RATE * 100} % of the calls were answered: the carrier needs a look.`,
      resolve: (r) => r.calls > 0 && r.answered / r.calls < LOW_ANSWER_RATE,
    }),
  }),
});

const DeploymentHealthRef = builder
  .objectRef<{ queues: QueueRow[]; failedDeliveries24h: number; carriers: CarrierRow[] }>("DeploymentHealth")
  .implement({
    fields: (t) => ({
      queues: t.field({ type: [QueueRef], resolve: (h) => h.queues }),
      failedDeliveries24h: t.exposeInt("failedDeliveries24h", {
        description: "Webhook deliveries that gave up in the last 24 hours, every organisation together.",
      }),
      carriers: t.field({
        type: [CarrierHealthRef],
        description: "Carriers this process called since it started, most calls first (per instance).",
        resolve: (h) => h.carriers,
      }),
      carrierFaults: t.field({
        type: [FaultRef],
        description:
          "Failed carrier calls of this process by carrier and outcome (timeouts, refusals, malformed answers...).",
        resolve: (h) => h.carriers.flatMap((c) => c.faults.map((f) => ({ scac: c.scac, ...f }))),
      }),
    }),
  });

builder.queryFields((t) => ({
  deploymentHealth: t.field({
    type: DeploymentHealthRef,
    nullable: true,
    description:
      "Background queues and carrier network health of the deployment. Only keys of the organisation that operates it; others get OPERATOR_REQUIRED.",
    authScopes: { operator: true },
    resolve: async (_root, _args, ctx) => {
      const { services } = ctx;
      const since = new Date(services.clock.now().getTime() - 24 * 60 * 60 * 1000);
      const [queues, failed, calls, durations] = await Promise.all([
        services.background.queueStats(),
        services.db.prisma.webhookDelivery.count({ where: { status: "failed", createdAt: { gte: since } } }),
        services.metrics.carrierCalls.get(),
        services.metrics.carrierCallDuration.get(),
      ]);
      const rows = new Map<string, CarrierRow & { seconds: number }>();
      const row = (scac: string) => {
        let r = rows.get(scac);
        if (!r) {
          r = { scac, calls: 0, answered: 0, faults: [], meanLatencyMs: null, seconds: 0 };
          rows.set(scac, r);
        }
        return r;
      };
      for (const v of calls.values) {
        const scac = String(v.labels.scac ?? "");
        const outcome = String(v.labels.outcome ?? "");
        const r = row(scac);
        r.calls += v.value;
        if (outcome === "found" || outcome === "not-found") r.answered += v.value;
        else if (v.value > 0) r.faults.push({ outcome, count: v.value });
      }
      for (const v of durations.values) {
        if (v.metricName?.endsWith("_sum")) row(String(v.labels.scac ?? "")).seconds += v.value;
      }
      const carriers = [...rows.values()]
        .filter((r) => r.calls > 0)
        .map(({ seconds, ...r }) => ({
          ...r,
          meanLatencyMs: r.calls > 0 ? (seconds * 1000) / r.calls : null,
        }))
        .sort((a, b) => b.calls - a.calls);
      return { queues, failedDeliveries24h: failed, carriers };
    },
  }),
}));
