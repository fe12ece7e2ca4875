import { Writable } from "node:stream";
import { type RunningServer, startServer } from "../../src/app/server";
import { loadConfig } from "../../src/config";
import { openDatabase } from "../../src/db/database";
import { provideMigratedTemplate } from "../../src/db/migrated-template";
import type { PlanCode, UserRole } from "../../src/generated/prisma/enums";
import type { Clock } from "../../src/lib/clock";
import { createLogger } from "../../src/observability/logger";
import {
  databaseEnvironment,
  freshDatabaseTarget,
  migratedDatabaseTarget,
  migratedPgliteTemplate,
} from "./database";
import { provideRunSandboxWorld, TEST_APP_ENVIRONMENT } from "./sandbox-world";

export interface TestApp extends RunningServer {
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  rawLogs: string[];
  fixtures: Fixtures;
}

/**
 * Starts the real app on an ephemeral port over a fresh database, already migrated (a copy of the
 * run's template) unless the test names its own database in `env`.
 */
export async function startTestApp(
  options: { env?: Record<string, string>; clock?: Clock } = {},
): Promise<TestApp> {
  const ownDatabase = options.env && ("DATABASE_URL" in options.env || "QUAYSIDE_DATA_DIR" in options.env);
  const { target, loadDataDir } = ownDatabase
    ? { target: await freshDatabaseTarget(), loadDataDir: undefined }
    : await migratedDatabaseTarget();
  const config = loadConfig({
    ...TEST_APP_ENVIRONMENT,
    ...databaseEnvironment(target),
    ...options.env,
  });
  const rawLogs: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) {
        rawLogs.push(line);
        logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  // The sandbox world's database starts from the run's template too, not from a worker's initdb.
  const sandboxTemplate = migratedPgliteTemplate();
  if (sandboxTemplate) provideMigratedTemplate(sandboxTemplate);
  // And the world itself, built once for the run, where this app's configuration matches its build's.
  provideRunSandboxWorld();
  const server = await startServer(config, {
    clock: options.clock,
    logger: createLogger("info", sink),
    // The same database the configuration names, opened here to start from the migrated template.
    database: loadDataDir ? openDatabase(config.database, { loadDataDir }) : undefined,
  });
  const app = Object.assign(server, { logs, rawLogs, fixtures: new Fixtures(server) });
  // Files share a worker process (vitest's `isolate: false`): the setup file stops what one left running.
  const stop = app.stop.bind(app);
  running.add(app);
  app.stop = (stopOptions) => {
    running.delete(app);
    return stop(stopOptions);
  };
  return app;
}

const running = new Set<TestApp>();

/** The apps this worker started and nobody stopped (test/support/file-guard.ts). */
export function appsLeftRunning(): TestApp[] {
  return [...running];
}

export interface OrgWithKey {
  organizationId: string;
  userId: string;
  key: string;
  keyId: string;
}

/** org -> user -> key, the shape most tests start from. */
export class Fixtures {
  private counter = 0;

  constructor(private readonly server: RunningServer) {}

  async organization(
    options: {
      plan?: PlanCode;
      developerMode?: boolean;
      role?: UserRole;
      viewOnly?: boolean;
      expiresAt?: Date;
      billingCycle?: "monthly" | "yearly";
      /** The organisation operating the deployment (the CLI's `orgs operator`). */
      operator?: boolean;
    } = {},
  ): Promise<OrgWithKey> {
    const { accounts } = this.server.services;
    const n = ++this.counter;
    const org = await accounts.createOrganization({
      name: `Org ${n} ${Math.random().toString(36).slice(2, 8)}`,
      plan: options.plan ?? "professional",
      billingCycle: options.billingCycle,
      developerMode: options.developerMode ?? true,
      operator: options.operator ?? false,
    });
    const user = await accounts.createUser({
      organizationId: org.id,
      email: `user${n}-${org.id.slice(0, 8)}@example.com`,
      role: options.role ?? "owner",
    });
    const { apiKey, rawKey } = await accounts.createApiKey({
      userId: user.id,
      viewOnly: options.viewOnly,
      expiresAt: options.expiresAt,
    });
    return { organizationId: org.id, userId: user.id, key: rawKey, keyId: apiKey.id };
  }

  async teammate(orgId: string, options: { role?: UserRole; viewOnly?: boolean } = {}): Promise<OrgWithKey> {
    const { accounts } = this.server.services;
    const n = ++this.counter;
    const user = await accounts.createUser({
      organizationId: orgId,
      email: `mate${n}-${orgId.slice(0, 8)}@example.com`,
      role: options.role ?? "member",
    });
    const { apiKey, rawKey } = await accounts.createApiKey({ userId: user.id, viewOnly: options.viewOnly });
    return { organizationId: orgId, userId: user.id, key: rawKey, keyId: apiKey.id };
  }
}

export async function graphql(
  app: { url: string },
  key: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  headers: Headers;
}> {
  const res = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as never, headers: res.headers };
}

/** Answers the app served from its answer cache so far (its own `quayside_cache_lookups_total`). */
export async function answerHits(app: {
  services: { metrics: { render(): Promise<string> | string } };
}): Promise<number> {
  const line = (await app.services.metrics.render())
    .split("\n")
    .find((l) => l.startsWith('quayside_cache_lookups_total{cache="answer",result="hit"}'));
  return Number(line?.split(" ").at(-1) ?? 0);
}
