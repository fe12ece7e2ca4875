/**
 * Runs the service on the replay's voyages: one instance (`startServer`, the composition root of `quayside
 * serve`) with the carrier simulator embedded, both on one ManualClock, over PGlite or PostgreSQL. The
 * clock moves in steps from before the first reference answers to after the last arrival; at each step
 * the references that have begun to answer are tracked through v1 `POST /track` over HTTP (GraphQL
 * `trackBatch` for a carrier that answers bookings only), then the workers that feed a prediction do
 * their due work (refresh; congestion, once a simulated day; eta), and the clock moves on.
 * Every prediction the eta worker kept in `predictive_eta_snapshots` is read back at the end.
 *
 * The workers are the production ones, driven tick by tick (`runOnce`, until a tick finds no full
 * batch) instead of on their timers: in production they race each other within seconds, here the order
 * is fixed (a refresh's new version is predicted at the same step), so a run is reproducible.
 */

import { startServer } from "../../src/app/server";
import type { DatabaseTarget } from "../../src/config";
import { loadConfig } from "../../src/config";
import { ManualClock } from "../../src/lib/clock";
import { createLogger } from "../../src/observability/logger";
import type { ReplayVoyage } from "./voyages";

const HOUR = 3_600_000;
const TRACK_BATCH = 50;
/**
 * The congestion worker's due work runs once a simulated day: its sampling of some 60 ports' areas
 * cost four fifths of a 12-hour step's time on this 2-core machine, and a port's reading (the model's
 * wait at the port of discharge and at transshipments) is built from daily signals. In production it
 * samples hourly; here a port is sampled once a day.
 */
const CONGESTION_EVERY_HOURS = 24;
/** After the last arrival: the carrier reports it, the service stores it and stops predicting. */
const AFTER_LAST_ARRIVAL_MS = 48 * HOUR;

/** One stored prediction, as `predictive_eta_snapshots` keeps it, with the shipment it belongs to. */
export interface SnapshotRow {
  reference: string;
  scac: string;
  computedAt: number;
  p50: number;
  p80: number;
  source: string;
  confidence: string;
  horizonHours: number;
  horizonBucket: string;
  carrierEta: number | null;
  /** Why the model fell back to the carrier, when the table records it (null otherwise). */
  reason: string | null;
}

export interface ReplayRun {
  snapshots: SnapshotRow[];
  /** Whether the table had a reason column to read. */
  reasonColumn: boolean;
  steps: number;
  stepHours: number;
  clock: { from: string; to: string };
  /** References v1 /track could not track, with the item's error. */
  trackFailures: { reference: string; scac: string; error: string }[];
  /** Shipments the service marked failed on a later refresh. */
  failedShipments: number;
  database: DatabaseTarget["kind"];
  /** Wall time of each part of the steps: tracking, and each worker's ticks. */
  phaseSeconds: Record<string, number>;
  seconds: number;
}

export async function replayThroughService(input: {
  voyages: readonly ReplayVoyage[];
  database: DatabaseTarget;
  stepHours: number;
  log: (message: string) => void;
}): Promise<ReplayRun> {
  if (input.voyages.length === 0)
    throw new Error("eta-replay: no voyages to follow (the world planned none in the window)");
  const started = Date.now();
  const stepMs = input.stepHours * HOUR;
  const first = Math.min(...input.voyages.map((v) => v.trackableAt));
  const end = Math.max(...input.voyages.map((v) => v.ata)) + AFTER_LAST_ARRIVAL_MS;
  // Steps on the hour grid of the step, starting before the first reference answers.
  const from = Math.floor(first / stepMs) * stepMs;
  const clock = new ManualClock(from);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    QUAYSIDE_DEMO: "false",
    QUAYSIDE_SIMULATOR: "embedded",
    QUAYSIDE_SIMULATOR_PORT: "0",
    // Driven tick by tick below.
    QUAYSIDE_WORKERS: "off",
    QUAYSIDE_DISRUPTION_FEEDS: "off",
    QUAYSIDE_LOG_LEVEL: "error",
    ...(input.database.kind === "postgres"
      ? { DATABASE_URL: input.database.url }
      : { QUAYSIDE_DATA_DIR: input.database.dataDir }),
  });
  const server = await startServer(config, { clock, logger: createLogger("error") });
  try {
    const { accounts } = server.services;
    // A paid plan with predictive ETA and room for every reference in one month.
    const org = await accounts.createOrganization({
      name: "ETA replay",
      plan: "custom",
      developerMode: true,
      operator: false,
    });
    const user = await accounts.createUser({
      organizationId: org.id,
      email: "eta-replay@example.com",
      role: "owner",
    });
    const { rawKey } = await accounts.createApiKey({ userId: user.id });

    const pending = [...input.voyages].sort((a, b) => a.trackableAt - b.trackableAt);
    const trackFailures: ReplayRun["trackFailures"] = [];
    let steps = 0;
    const congestionEvery = Math.max(1, Math.round(CONGESTION_EVERY_HOURS / input.stepHours));
    const phaseMs: Record<string, number> = {};
    const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
      const at = performance.now();
      try {
        return await work();
      } finally {
        phaseMs[phase] = (phaseMs[phase] ?? 0) + performance.now() - at;
      }
    };
    for (let now = from; now <= end; now += stepMs) {
      clock.set(now);
      const due: ReplayVoyage[] = [];
      while (pending.length > 0 && pending[0]!.trackableAt <= now) due.push(pending.shift()!);
      const boxes = due.filter((v) => v.type === "container");
      const bookings = due.filter((v) => v.type === "booking");
      for (let i = 0; i < boxes.length; i += TRACK_BATCH) {
        const batch = boxes.slice(i, i + TRACK_BATCH);
        trackFailures.push(...(await timed("track", () => trackBoxes(server.url, rawKey, batch))));
      }
      for (let i = 0; i < bookings.length; i += TRACK_BATCH) {
        const batch = bookings.slice(i, i + TRACK_BATCH);
        trackFailures.push(...(await timed("track", () => trackBookings(server.url, rawKey, batch))));
      }
      await timed("refresh", () => drain(() => server.workers.refresh.runOnce()));
      if (steps % congestionEvery === 0) {
        await timed("congestion", () => drain(() => server.workers.congestion.runOnce()));
      }
      await timed("eta", () => drain(() => server.workers.eta.runOnce()));
      steps++;
      if (steps % 20 === 0) {
        input.log(
          `eta-replay: ${new Date(now).toISOString().slice(0, 13)}h, step ${steps}, ${input.voyages.length - pending.length} tracked, ${Math.round((Date.now() - started) / 1000)} s`,
        );
      }
    }
    const prisma = server.services.db.prisma;
    const columns = await prisma.$queryRaw<{ column_name: string }[]>`
      SELECT column_name::text AS column_name FROM information_schema.columns WHERE table_name = 'predictive_eta_snapshots'`;
    // The fallback's reason, under whichever name the table has it (none before issue 34's model).
    const reasonName = ["fallback_reason", "reason"].find((name) =>
      columns.some((c) => c.column_name === name),
    );
    const reasonColumn = reasonName !== undefined;
    const rows = await prisma.$queryRawUnsafe<
      {
        reference: string;
        scac: string | null;
        computed_at: Date;
        p50: Date;
        p80: Date;
        source: string;
        confidence: string;
        horizon_hours: number;
        horizon_bucket: string;
        carrier_eta: Date | null;
        reason: string | null;
      }[]
    >(
      `SELECT s.reference, s.carrier_scac AS scac, p.computed_at, p.p50, p.p80, p.source, p.confidence,
              p.horizon_hours, p.horizon_bucket, p.carrier_eta, ${reasonName ? `p.${reasonName}` : "NULL::text"} AS reason
         FROM predictive_eta_snapshots p JOIN shipments s ON s.id = p.shipment_id
        ORDER BY s.reference, p.computed_at`,
    );
    const failed = await prisma.shipment.count({ where: { failedAt: { not: null } } });
    return {
      snapshots: rows.map((r) => ({
        reference: r.reference,
        scac: r.scac ?? "",
        computedAt: r.computed_at.getTime(),
        p50: r.p50.getTime(),
        p80: r.p80.getTime(),
        source: r.source,
        confidence: r.confidence,
        horizonHours: Number(r.horizon_hours),
        horizonBucket: r.horizon_bucket,
        carrierEta: r.carrier_eta?.getTime() ?? null,
        reason: r.reason,
      })),
      reasonColumn,
      steps,
      stepHours: input.stepHours,
      clock: { from: new Date(from).toISOString(), to: new Date(clock.now()).toISOString() },
      trackFailures,
      failedShipments: failed,
      database: input.database.kind,
      phaseSeconds: Object.fromEntries(
        Object.entries(phaseMs).map(([k, v]) => [k, Math.round(v / 100) / 10]),
      ),
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await server.stop();
  }
}

/** A worker's ticks until one finds less than a full batch (what its timer does with a backlog). */
async function drain(tick: () => Promise<{ full: boolean }>): Promise<void> {
  while ((await tick()).full) {}
}

/** v1 `POST /track`, as a customer's integration tracks boxes. */
async function trackBoxes(
  url: string,
  key: string,
  voyages: readonly ReplayVoyage[],
): Promise<ReplayRun["trackFailures"]> {
  const body = (await post(`${url}/api/v1/track`, key, {
    shipments: voyages.map((v) => ({ type: "container", number: v.reference, sealine: v.scac })),
  })) as { results: { ok: boolean }[] };
  return body.results.flatMap((result, i) => (result.ok ? [] : [failure(voyages[i]!, result)]));
}

/**
 * A carrier that answers bookings only (HMM) cannot be tracked through v1, whose types are `container`
 * and `bl`: its bookings go through GraphQL `trackBatch`, as the dashboard tracks them.
 */
async function trackBookings(
  url: string,
  key: string,
  voyages: readonly ReplayVoyage[],
): Promise<ReplayRun["trackFailures"]> {
  const body = (await post(`${url}/graphql`, key, {
    query:
      "mutation ($items: [TrackItemInput!]!) { trackBatch(items: $items) { __typename ... on TrackBatch { results { index result { __typename } } } } }",
    variables: { items: voyages.map((v) => ({ type: "booking", number: v.reference, sealine: v.scac })) },
  })) as {
    data?: { trackBatch?: { results?: { index: number; result: { __typename: string } }[] } };
    errors?: unknown;
  };
  const results = body.data?.trackBatch?.results;
  if (!results) throw new Error(`GraphQL trackBatch: ${JSON.stringify(body).slice(0, 500)}`);
  return results.flatMap(({ index, result }) =>
    result.__typename === "TrackSuccess" ? [] : [failure(voyages[index]!, result)],
  );
}

async function post(url: string, key: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${url}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

function failure(voyage: ReplayVoyage, result: unknown): ReplayRun["trackFailures"][number] {
  return { reference: voyage.reference, scac: voyage.scac, error: JSON.stringify(result).slice(0, 300) };
}
