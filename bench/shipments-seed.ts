import { createHash, randomUUID } from "node:crypto";
import { startServer } from "../src/app/server";
import type { DatabaseTarget } from "../src/config";
import { loadConfig } from "../src/config";
import type { SqlRunner } from "../src/db/database";
import type { TrackingDocument } from "../src/domain/tracking/model";
import { summaryFactsOf } from "../src/domain/tracking/summary-facts";
import { billOfLadingOf, containerNumber, simulatedContainers } from "../test/support/references";

/**
 * Shipments for the stored-data scenarios, in two steps:
 *
 * 1. Real documents: a short-lived instance of the service (`startServer`, workers off) tracks
 *    TEMPLATE_COUNT containers the simulator knows, and one bill of lading, through `GET
 *    /api/v1/container/{n}` and `/bl/{n}` with the bench key, over HTTP to the simulator process.
 *    These are real shipments of the bench organisation with fresh stored documents (compat /tracking
 *    and MCP read them; the live track scenario re-fetches them).
 * 2. Bulk: `count` more shipments in one `INSERT ... SELECT generate_series` (never one Prisma call
 *    per row), each pointing at one of DOCUMENT_POOL stored documents cloned from the templates. The
 *    pool is shared by many shipments (as the document store is shared by every organisation): a
 *    million distinct multi-kilobyte JSONB documents would be gigabytes without changing the queries
 *    measured (a document is read by primary key). Each carries what the service keeps on a shipment
 *    row when its document is stored (the version's summary facts, the predictive ETA of its template
 *    as the eta worker computed it, and its free time and D&D schedule, as the service keeps them:
 *    `computeFreeTimeOfPool`), as a tracked shipment has them. Shipment references are `QSBU` + seven digits;
 *    `last_synced_at` is spread over the last 12 hours and `created_at` over the last 30 days, so the
 *    list and delta queries walk real index ranges; `next_refresh_at` and `eta_due_at` lie 12 to 25
 *    hours ahead (spread as refreshed shipments' are), so no refresh or prediction falls due during a
 *    run (spread from the seed's own instant, two or three rows fell due every second of a run that
 *    lasts hours, and the services refreshed and predicted them between and during the measurements).
 *
 * Plus one bill of lading `QSBL10X20` whose document has 10 containers of 20 events each (the
 * GraphQL scenario), built from a template's events.
 */
export const TEMPLATE_COUNT = 20;
export const DOCUMENT_POOL = 1_000;
export const BULK_PREFIX = "QSBU";
export const BIG_BL = "QSBL10X20";

export interface ShipmentFacts {
  /** Containers tracked for real at seed time (fresh stored documents of the bench organisation). */
  knownContainers: string[];
  bl: string;
  bulkCount: number;
  /** An instant ~10 minutes before the seed: a delta from it finds more than the cap of 200. */
  deltaSince: string;
}

/**
 * A short-lived instance of the service on a database being seeded: no demo, no simulator of its own
 * (carriers through the harness's simulator), no workers, on a free port.
 */
export function startSeedingService(
  target: DatabaseTarget,
  registryFile: string,
  logLevel: "error" | "silent",
): ReturnType<typeof startServer> {
  return startServer(
    loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      QUAYSIDE_DEMO: "false",
      QUAYSIDE_SIMULATOR: "off",
      QUAYSIDE_CARRIER_REGISTRY: registryFile,
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_LOG_LEVEL: logLevel,
      ...(target.kind === "postgres" ? { DATABASE_URL: target.url } : { QUAYSIDE_DATA_DIR: target.dataDir }),
    }),
  );
}

export async function trackTemplates(input: {
  target: DatabaseTarget;
  rawKey: string;
  simulatorUrl: string;
  registryFile: string;
  count: number;
}): Promise<{ knownContainers: string[]; bl: string }> {
  const { known } = await simulatedContainers(input.simulatorUrl, "MSCU", "MSCU", { known: input.count });
  const bl = await billOfLadingOf(input.simulatorUrl, "MSCU", known[0]!);
  // Errors only: a 500 while seeding must say why.
  const server = await startSeedingService(input.target, input.registryFile, "error");
  try {
    for (const path of [...known.map((n) => `/api/v1/container/${n}`), `/api/v1/bl/${bl}`]) {
      const response = await fetch(server.url + path, {
        headers: { authorization: `Bearer ${input.rawKey}` },
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`seed tracking ${path}: HTTP ${response.status} ${text}`);
    }
    // What the eta worker does after a version is stored (workers are off here): the templates'
    // predictions, which the bulk shipments carry as theirs.
    while ((await server.services.eta.computeDue(100)) > 0) {}
  } finally {
    await server.stop();
  }
  return { knownContainers: known, bl };
}

export async function seedBulkShipments(
  sql: SqlRunner,
  input: {
    organizationId: string;
    userId: string;
    templateReferences: readonly string[];
    /** Shipments already inserted by an earlier call (scale: 100,000 first, then up to 1,000,000). */
    from: number;
    to: number;
    /** Distinguishes this run's cloned documents in a shared database. */
    runTag: string;
  },
): Promise<void> {
  const tag = input.runTag.replace(/\D/g, "").slice(-10);
  if (input.from === 0) {
    await sql.query(
      `INSERT INTO carrier_documents (id, organization_id, carrier_scac, reference_type, reference_key, latest_version, last_synced_at, last_attempt_at, created_at)
       SELECT 'bench-doc-' || $1::text || '-' || g, $5::text, d.carrier_scac, d.reference_type, 'QSBD' || $1::text || lpad(g::text, 6, '0'), 1, now(), now(), now()
         FROM generate_series(1, $2::int) g
         JOIN (SELECT row_number() OVER (ORDER BY reference_key) - 1 AS t, * FROM (
                 -- Documents are stored per organisation: one template per reference, whoever tracked it.
                 SELECT DISTINCT ON (reference_key) * FROM carrier_documents
                  WHERE reference_key = ANY($3::text[]) ORDER BY reference_key, created_at) one) d ON d.t = g % $4`,
      [tag, DOCUMENT_POOL, input.templateReferences, input.templateReferences.length, input.organizationId],
    );
    await sql.query(
      `INSERT INTO document_versions (id, document_id, version, content, content_hash, changes, summary, fetched_at)
       SELECT 'bench-ver-' || $1::text || '-' || g, 'bench-doc-' || $1::text || '-' || g, 1, v.content, v.content_hash, '[]'::jsonb, v.summary, now()
         FROM generate_series(1, $2::int) g
         JOIN (SELECT row_number() OVER (ORDER BY reference_key) - 1 AS t, content, content_hash, summary FROM (
                 SELECT DISTINCT ON (d.reference_key) d.reference_key, v.content, v.content_hash, v.summary
                   FROM carrier_documents d JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
                  WHERE d.reference_key = ANY($3::text[]) ORDER BY d.reference_key, d.created_at) one) v ON v.t = g % $4`,
      [tag, DOCUMENT_POOL, input.templateReferences, input.templateReferences.length],
    );
  }
  // In chunks, so that one statement never holds hundreds of megabytes of new rows.
  const CHUNK = 100_000;
  for (let start = input.from; start < input.to; start += CHUNK) {
    const end = Math.min(input.to, start + CHUNK);
    await sql.query(
      `WITH pool AS MATERIALIZED (
         -- Materialized: the template's prediction is looked up once per pooled document, not per row.
         SELECT v.document_id, v.summary,
                -- The template's prediction, as computed for this clone's own version.
                (SELECT jsonb_set(s.predicted_eta, '{versionId}', to_jsonb(v.id))
                   FROM shipments s
                   JOIN carrier_documents td ON td.id = s.document_id
                   JOIN document_versions tv ON tv.document_id = td.id AND tv.version = td.latest_version
                  WHERE tv.content_hash = v.content_hash AND s.predicted_eta IS NOT NULL LIMIT 1) AS predicted_eta
           FROM document_versions v WHERE v.document_id LIKE 'bench-doc-' || $3::text || '-%')
       INSERT INTO shipments (id, organization_id, added_by_user_id, reference_type, reference, reference_key,
                              carrier_scac, document_id, status, eta, last_synced_at, created_at, updated_at, next_refresh_at,
                              summary, predicted_eta, eta_due_at, disruptions_matched_at, free_time_at)
       SELECT gen_random_uuid()::text, $1::text, $2::text, 'container'::"ReferenceKind", r, r, 'MSCU',
              pool.document_id, 'IN_TRANSIT'::"ShipmentStatus", now() + interval '20 days',
              now() - (g % 43200) * interval '1 second',
              now() - interval '30 days' + g * (interval '30 days' / $6::int),
              now() - (g % 43200) * interval '1 second',
              now() + interval '24 hours' - (g % 43200) * interval '1 second',
              pool.summary, pool.predicted_eta,
              now() + interval '25 hours' - (g % 43200) * interval '1 second',
              -- Matched against disruptions when stored, as a tracked shipment is: seeded unmatched,
              -- the matcher worked through all of them in the background of every measured run.
              now(),
              -- Free time: computed by the service for the first shipment of each pooled document (left
              -- unset, its start-up fills it), copied to the others (marked, so it skips them until then).
              CASE WHEN g <= $9::int THEN NULL ELSE $10::timestamptz END
         FROM generate_series($5::int, $7::int) g
         JOIN pool ON pool.document_id = 'bench-doc-' || $3::text || '-' || (1 + g % $4)
         CROSS JOIN LATERAL (SELECT $8::text || lpad(g::text, 7, '0') AS r) ref`,
      [
        input.organizationId,
        input.userId,
        tag,
        DOCUMENT_POOL,
        start + 1,
        Math.max(input.to, 1),
        end,
        BULK_PREFIX,
        DOCUMENT_POOL,
        FREE_TIME_TO_COPY,
      ],
    );
  }
  // Shipments added to a seeded pool (scale): the pool's first shipments already hold their free time.
  if (input.from > 0) await copyKeptFreeTime(sql, input.runTag);
  // VACUUM, not only ANALYZE: a table that has just received a million rows has no page marked
  // all-visible and no hint bits set, so its first scans write every page and no index-only scan is
  // possible. Autovacuum does this to a live table after such an insert; the runs measure that state.
  // (Outside a transaction: the runner passes a plain connection, PGlite runs it as one statement.)
  await sql.query("VACUUM (ANALYZE) shipments");
  await sql.query("VACUUM (ANALYZE) carrier_documents");
  await sql.query("VACUUM (ANALYZE) document_versions");
}

/**
 * Marks a bulk shipment whose free time and D&D schedule are to be copied from its document's first
 * shipment. Every shipment of one pooled document has the same inputs (document version, confirmation,
 * prediction, organisation), so the service would compute the same for each; leaving them all unset
 * made every start of the service on a seeded database compute them, 100,000 rows one by one (about
 * twenty minutes of the full run's seed, measured; hours at the scale runner's 1,000,000, extrapolated).
 */
const FREE_TIME_TO_COPY = "1970-01-01T00:00:00Z";

/**
 * What the service keeps on a shipment row from its document (free time, holds, the D&D schedule),
 * computed for the bulk shipments left unset: a short-lived instance of the service fills such rows at
 * start-up (the pool's first shipment of each document, the big bill of lading), and its stop waits for
 * the fill. `copyKeptFreeTime` then gives every other bulk shipment its document's.
 */
export async function computeFreeTimeOfPool(target: DatabaseTarget, registryFile: string): Promise<void> {
  const server = await startSeedingService(target, registryFile, "error");
  await server.stop();
}

export async function copyKeptFreeTime(sql: SqlRunner, runTag: string): Promise<void> {
  const tag = runTag.replace(/\D/g, "").slice(-10);
  const copied = await sql.query<{ n: number }>(
    `WITH kept AS (
       SELECT DISTINCT ON (document_id) document_id, free_time, last_free_day_starts_at, free_time_ends_at,
              holds_until, free_time_at, dnd_schedule, dnd_valid_until
         FROM shipments
        WHERE document_id LIKE 'bench-doc-' || $1::text || '-%' AND free_time_at > $2::timestamptz
        ORDER BY document_id, free_time_at DESC),
     done AS (
       UPDATE shipments s
          SET free_time = kept.free_time, last_free_day_starts_at = kept.last_free_day_starts_at,
              free_time_ends_at = kept.free_time_ends_at, holds_until = kept.holds_until,
              free_time_at = kept.free_time_at, dnd_schedule = kept.dnd_schedule,
              dnd_valid_until = kept.dnd_valid_until
         FROM kept
        WHERE s.document_id = kept.document_id AND s.free_time_at = $2::timestamptz
       RETURNING 1)
     SELECT count(*)::int AS n FROM done`,
    [tag, FREE_TIME_TO_COPY],
  );
  const left = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM shipments WHERE free_time_at = $1::timestamptz`,
    [FREE_TIME_TO_COPY],
  );
  if ((left.rows[0]?.n ?? 0) > 0) {
    throw new Error(
      `free time copied to ${copied.rows[0]?.n ?? 0} bulk shipments; ${left.rows[0]?.n} have no computed shipment of their document`,
    );
  }
}

/** A bill of lading with 10 containers of 20 events each, built from a template document's events. */
export async function seedBigDocument(
  sql: SqlRunner,
  input: { organizationId: string; userId: string; templateReference: string; runTag: string },
): Promise<void> {
  const rows = await sql.query<{ content: TrackingDocument }>(
    `SELECT v.content FROM carrier_documents d JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
      WHERE d.reference_key = $1 LIMIT 1`,
    [input.templateReference],
  );
  const template = rows.rows[0]?.content;
  const base = template?.containers[0];
  if (!template || !base || base.events.length === 0)
    throw new Error(`no template document for ${input.templateReference}`);
  const containers = Array.from({ length: 10 }, (_, i) => ({
    ...base,
    number: containerNumber("MSCU", 900_000 + i),
    events: Array.from({ length: 20 }, (_, e) => ({
      ...base.events[e % base.events.length]!,
      dcsaEventId: `bench-${i}-${e}`,
    })),
  }));
  const content: TrackingDocument = {
    ...template,
    referenceType: "bl",
    reference: BIG_BL,
    containers,
  };
  const json = JSON.stringify(content);
  const hash = createHash("sha256").update(json).digest("hex");
  const documentId = randomUUID();
  const summary = JSON.stringify(summaryFactsOf(content));
  const tag = input.runTag.replace(/\D/g, "").slice(-10);
  await sql.query(
    `INSERT INTO carrier_documents (id, organization_id, carrier_scac, reference_type, reference_key, latest_version, last_synced_at, last_attempt_at, created_at)
     VALUES ($1, $3, 'MSCU', 'bl', $2, 1, now(), now(), now())`,
    [documentId, `${BIG_BL}${tag}`, input.organizationId],
  );
  await sql.query(
    `INSERT INTO document_versions (id, document_id, version, content, content_hash, changes, summary, fetched_at)
     VALUES ($1, $2, 1, $3::jsonb, $4, '[]'::jsonb, $5::jsonb, now())`,
    [randomUUID(), documentId, json, hash, summary],
  );
  await sql.query(
    `INSERT INTO shipments (id, organization_id, added_by_user_id, reference_type, reference, reference_key,
                            carrier_scac, document_id, status, last_synced_at, created_at, updated_at, next_refresh_at,
                            summary, eta_due_at)
     VALUES ($1, $2, $3, 'bl', $4, $4, 'MSCU', $5, 'IN_TRANSIT', now(), now(), now(), now() + interval '12 hours',
             $6::jsonb, now())`,
    [randomUUID(), input.organizationId, input.userId, BIG_BL, documentId, summary],
  );
}
