import type { DatabaseTarget } from "../src/config";
import { openDatabase } from "../src/db/database";
import { applyMigrations } from "../src/db/migrate";
import { AccountsService } from "../src/domain/accounts/accounts.service";
import { displayPrefix, generateRawKey, hashKey } from "../src/domain/accounts/api-key";
import { CUSTOM_RATE_BOUNDS } from "../src/domain/accounts/plans";
import { systemClock } from "../src/lib/clock";
import type { DatabaseMode } from "./options";
import { type Scenario, withFacts } from "./scenarios";
import {
  computeFreeTimeOfPool,
  copyKeptFreeTime,
  type ShipmentFacts,
  seedBigDocument,
  seedBulkShipments,
  startSeedingService,
  TEMPLATE_COUNT,
  trackTemplates,
} from "./shipments-seed";

/**
 * The bench account: one organisation on plan `custom` at a negotiated BENCH_RATE_PER_MINUTE requests
 * per key per minute (its keys together five times that, so neither window refuses the load, and
 * the service still spends every request through both), with developer mode on, one owner, and N API
 * keys. The first key is created through AccountsService
 * exactly as `quayside keys create` does; the rest are inserted in bulk with the same helpers
 * (hash, display prefix), because thousands of one-at-a-time creations would take longer than the
 * benchmark. A count and a lookup of the last key check that the bulk rows are usable.
 */
/**
 * The bench organisation's negotiated per-key window (`quayside orgs rate`): the most a custom plan
 * takes. On the custom plan's own 600, the organisation's window of 3,000 a minute refused every
 * request past 50 a second, whatever the number of keys.
 */
export const BENCH_RATE_PER_MINUTE = CUSTOM_RATE_BOUNDS.max;

export interface BenchAccount {
  organizationId: string;
  userId: string;
}

export interface SeedOutcome {
  account: BenchAccount;
  /** `SELECT version()` of the database, for the machine description. */
  serverVersion: string;
  /** What the stored-data scenarios read (undefined when none of them runs). */
  shipments?: ShipmentFacts;
  /** SQL statements of one request of the scenarios that count them, by scenario id. */
  statements?: Record<string, number>;
  /** Seconds each step of the seed took, in order (the harness logs them: a full run's seed is long). */
  steps: Record<string, number>;
}

/** Shipments for the stored-data scenarios (see shipments-seed.ts). */
export interface ShipmentSeedInput {
  count: number;
  /** Containers tracked for real through the simulator (default TEMPLATE_COUNT). */
  templates?: number;
  simulatorUrl: string;
  registryFile: string;
}

export function generateKeys(count: number): string[] {
  return Array.from({ length: count }, () => generateRawKey());
}

const BULK_CHUNK = 1_000;

export async function seedDatabase(input: {
  target: DatabaseTarget;
  mode: DatabaseMode;
  rawKeys: readonly string[];
  /** Distinguishes this run's organisation and user in a database that may hold others (BENCH_PG_URL). */
  runTag: string;
  scenarios: readonly Scenario[];
  shipments?: ShipmentSeedInput;
}): Promise<SeedOutcome> {
  const steps: Record<string, number> = {};
  let stepStart = Date.now();
  const stepDone = (name: string) => {
    steps[name] = Math.round((Date.now() - stepStart) / 100) / 10;
    stepStart = Date.now();
  };
  let db = await openDatabase(input.target);
  try {
    await applyMigrations(db);
    stepDone("migrations");
    const accounts = new AccountsService(db.prisma, systemClock);
    const organization = await accounts.createOrganization({
      name: benchOrganizationName(input.runTag),
      plan: "custom",
      ratePerMinute: BENCH_RATE_PER_MINUTE,
      developerMode: true,
    });
    const user = await accounts.createUser({
      organizationId: organization.id,
      email: `bench-${input.runTag}@bench.invalid`,
      name: "Bench",
      role: "owner",
    });
    const [first, ...rest] = input.rawKeys;
    if (!first) throw new Error("no keys to seed");
    await accounts.createApiKey({ userId: user.id, name: "bench 1", rawKey: first });
    const createdAt = systemClock.now();
    for (let start = 0; start < rest.length; start += BULK_CHUNK) {
      await db.prisma.apiKey.createMany({
        data: rest.slice(start, start + BULK_CHUNK).map((rawKey, i) => ({
          organizationId: organization.id,
          userId: user.id,
          name: `bench ${start + i + 2}`,
          displayPrefix: displayPrefix(rawKey),
          keyHash: hashKey(rawKey),
          createdAt,
        })),
      });
    }
    const stored = await db.prisma.apiKey.count({ where: { organizationId: organization.id } });
    const last = input.rawKeys[input.rawKeys.length - 1]!;
    if (stored !== input.rawKeys.length || !(await accounts.hasKey(last))) {
      throw new Error(`seeded ${stored} of ${input.rawKeys.length} keys in ${input.mode}`);
    }
    const account = { organizationId: organization.id, userId: user.id };
    stepDone("account and keys");
    let shipments: ShipmentFacts | undefined;
    let statements: Record<string, number> | undefined;
    if (input.shipments) {
      // The short-lived service opens the database itself (a PGlite folder has one opener).
      await db.close();
      const templates = await trackTemplates({
        target: input.target,
        rawKey: first,
        simulatorUrl: input.shipments.simulatorUrl,
        registryFile: input.shipments.registryFile,
        count: input.shipments.templates ?? TEMPLATE_COUNT,
      });
      stepDone("templates tracked");
      db = await openDatabase(input.target);
      const seededAt = Date.now();
      await seedBulkShipments(db.sql, {
        ...account,
        templateReferences: templates.knownContainers,
        from: 0,
        to: input.shipments.count,
        runTag: input.runTag,
      });
      await seedBigDocument(db.sql, {
        ...account,
        templateReference: templates.knownContainers[0]!,
        runTag: input.runTag,
      });
      stepDone("bulk shipments");
      // The short-lived service opens the database itself (a PGlite folder has one opener).
      await db.close();
      await computeFreeTimeOfPool(input.target, input.shipments.registryFile);
      db = await openDatabase(input.target);
      await copyKeptFreeTime(db.sql, input.runTag);
      stepDone("free time kept");
      shipments = {
        ...templates,
        bulkCount: input.shipments.count,
        deltaSince: new Date(seededAt - 10 * 60_000).toISOString(),
      };
      const counting = input.scenarios.filter((s) => s.countStatements);
      if (counting.length > 0) {
        await db.close();
        statements = await countStatements(
          input.target,
          first,
          input.shipments.registryFile,
          counting,
          shipments,
        );
        db = await openDatabase(input.target);
        stepDone("statements counted");
      }
    }
    for (const scenario of input.scenarios) {
      await scenario.seed?.({ db, mode: input.mode, ...account });
    }
    stepDone("scenario seeds");
    const version = await db.sql.query<{ version: string }>("SELECT version() AS version");
    // "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by ..." -> up to " on ".
    return {
      account,
      serverVersion: (version.rows[0]?.version ?? "unknown").split(" on ")[0]!,
      shipments,
      statements,
      steps,
    };
  } finally {
    // A database that failed mid-seed may be closed already: the error that closed it is the one to see.
    await db.close().catch(() => undefined);
  }
}

export function benchOrganizationName(runTag: string): string {
  return `Bench ${runTag}`;
}

/** Removes this run's bench organisation (users and keys cascade) from a database the harness did not create. */
export async function removeBenchAccount(target: DatabaseTarget, runTag: string): Promise<void> {
  const db = await openDatabase(target);
  try {
    await db.prisma.organization.deleteMany({ where: { name: benchOrganizationName(runTag) } });
  } finally {
    // A database that failed mid-seed may be closed already: the error that closed it is the one to see.
    await db.close().catch(() => undefined);
  }
}

/**
 * SQL statements the service sends for one request: a short-lived instance of the service on this
 * database, its own StatementCounter (src/db/statement-counter.ts) read before and after the second of
 * two identical requests (the first may also write the key's last-used time).
 */
async function countStatements(
  target: DatabaseTarget,
  rawKey: string,
  registryFile: string,
  scenarios: readonly Scenario[],
  facts: ShipmentFacts,
): Promise<Record<string, number>> {
  const server = await startSeedingService(target, registryFile, "silent");
  const counts: Record<string, number> = {};
  try {
    for (const raw of scenarios) {
      const { request } = withFacts(raw, facts);
      const send = async () => {
        const response = await fetch(server.url + request.path, {
          method: request.method,
          headers: { ...request.headers, authorization: `Bearer ${rawKey}` },
          body: request.body,
        });
        await response.arrayBuffer();
      };
      await send();
      const before = server.services.db.statements.count;
      await send();
      counts[raw.id] = server.services.db.statements.count - before;
    }
  } finally {
    await server.stop();
  }
  return counts;
}
