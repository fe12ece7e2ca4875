import type { DatabaseTarget } from "../src/config";
import { openDatabase } from "../src/db/database";
import { applyMigrations } from "../src/db/migrate";
import { AccountsService } from "../src/domain/accounts/accounts.service";
import { displayPrefix, generateRawKey, hashKey } from "../src/domain/accounts/api-key";
import { systemClock } from "../src/lib/clock";
import type { DatabaseMode } from "./options";
import type { Scenario } from "./scenarios";

/**
 * The bench account: one organisation on plan `custom` (600 requests per key per minute) with
 * developer mode on, one owner, and N API keys. The first key is created through AccountsService
 * exactly as `quayside keys create` does; the rest are inserted in bulk with the same helpers
 * (hash, display prefix), because thousands of one-at-a-time creations would take longer than the
 * benchmark. A count and a lookup of the last key check that the bulk rows are usable.
 */
export interface BenchAccount {
  organizationId: string;
  userId: string;
}

export interface SeedOutcome {
  account: BenchAccount;
  /** `SELECT version()` of the database, for the machine description. */
  serverVersion: string;
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
}): Promise<SeedOutcome> {
  const db = await openDatabase(input.target);
  try {
    await applyMigrations(db);
    const accounts = new AccountsService(db.prisma, systemClock);
    const organization = await accounts.createOrganization({
      name: benchOrganizationName(input.runTag),
      plan: "custom",
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
    for (const scenario of input.scenarios) {
      await scenario.seed?.({ db, mode: input.mode, ...account });
    }
    const version = await db.sql.query<{ version: string }>("SELECT version() AS version");
    // "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by ..." -> up to " on ".
    return { account, serverVersion: (version.rows[0]?.version ?? "unknown").split(" on ")[0]! };
  } finally {
    await db.close();
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
    await db.close();
  }
}
