import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { DatabaseTarget } from "../config";
import { PrismaClient } from "../generated/prisma/client";
import { inSqlSpan, tracingOn } from "../observability/tracing";
import { acquireDataFolderLock, type DataFolderLock } from "./data-folder-lock";
import { StatementCounter } from "./statement-counter";
import { releaseFailedTransactions } from "./transaction-release";

/** Raw SQL for what Prisma does not do: migrations, advisory locks, the job queue, benchmarks. */
export interface SqlRunner {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  /** Runs text that may hold several statements and no parameters. */
  exec(text: string): Promise<void>;
}

/**
 * The hot reads' way to the database, beside Prisma: a statement named once and prepared by the
 * server on each connection (node-pg named statements on PostgreSQL; PGlite's own parameterised query
 * on the embedded database), so a read costs a round trip and no query planning in the process.
 * Prisma 6.19 compiles every call to a plan in WebAssembly, which was the largest single cost of a
 * stored read. Prisma stays the schema, migration and write layer.
 */
export interface PreparedSql {
  query<Row>(statement: PreparedStatement, params: readonly unknown[]): Promise<Row[]>;
}

/** A statement with a name unique in the process: the server keeps its plan per connection. */
export interface PreparedStatement {
  name: string;
  text: string;
}

export interface Database {
  kind: DatabaseTarget["kind"];
  prisma: PrismaClient;
  sql: SqlRunner;
  /** Named, prepared statements for the hot reads (counted with Prisma's in `statements`). */
  prepared: PreparedSql;
  /** The embedded instance, when there is one: the job queue must share it (one opener per folder). */
  pglite?: PGlite;
  /** This process's hold on the PGlite data folder (none in memory or on PostgreSQL). */
  folderLock?: DataFolderLock;
  /** The connection string, when on PostgreSQL: the job queue opens its own pool with it. */
  url?: string;
  /** SQL statements sent by Prisma so far (tests and benchmarks read differences). */
  statements: StatementCounter;
  /** Runs `fn` with a dedicated connection that holds a session-level advisory lock. */
  withAdvisoryLock<T>(lockId: number, fn: (sql: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Who opens a PGlite folder, as shown to a second opener: `quayside serve`, `quayside keys list`. */
  holder?: string;
  /**
   * In memory only: start from this dump of a data folder (PGlite's `dumpDataDir`) instead of an empty
   * database. The tests start each app on a copy of one migrated template this way.
   */
  loadDataDir?: Blob;
}

/**
 * Opens the database. A PGlite data folder is locked first (`data-folder-lock.ts`); a folder that
 * another live process holds throws `DataFolderHeldError` before PGlite touches a file.
 */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === "postgres") return openPostgres(target.url);
  if (target.dataDir === "memory://")
    return openPGlite(new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}));
  return openPGliteFolder(target.dataDir, options.holder ?? "quayside");
}

async function openPGliteFolder(dataDir: string, holder: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const folderLock = await acquireDataFolderLock(dataDir, holder);
  try {
    // PostgreSQL's initdb refuses a folder that holds any file, and ours holds the lock by now: a
    // new folder is filled from a database made in memory instead.
    const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
    const pglite = new PGlite(dataDir, fresh ? { loadDataDir: await newDataDirectory() } : {});
    return await openPGlite(pglite, folderLock);
  } catch (error) {
    folderLock.release();
    throw error;
  }
}

async function newDataDirectory(): Promise<Blob> {
  const blank = new PGlite();
  try {
    return await blank.dumpDataDir("none");
  } finally {
    await blank.close();
  }
}

/**
 * PGlite runs each statement on this thread, and a chain of statements resolves from one to the next
 * without returning to the event loop: a background worker's pass (six scans of the notifications
 * worker, say) held every request for its whole length, 100 ms and more on a slow machine, which made
 * the open loop's slowest answers. A turn of the event loop before each statement lets the requests
 * that arrived meanwhile run between two statements. It costs a `setImmediate` per statement.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function openPGlite(pglite: PGlite, folderLock?: DataFolderLock): Promise<Database> {
  await pglite.waitReady;
  const statements = new StatementCounter();
  const prisma = new PrismaClient({ adapter: statements.wrap(new PrismaPGlite(pglite), turn) });
  const sql: SqlRunner = {
    async query<Row>(text: string, params?: readonly unknown[]) {
      await turn();
      const result = await pglite.query<Row>(text, params ? [...params] : undefined);
      return { rows: result.rows };
    },
    async exec(text: string) {
      await turn();
      await pglite.exec(text);
    },
  };
  let lockQueue: Promise<unknown> = Promise.resolve();
  const prepared: PreparedSql = {
    async query<Row>(statement: PreparedStatement, params: readonly unknown[]) {
      statements.count++;
      statements.capture?.push(statement.text);
      await turn();
      if (tracingOn()) {
        const run = async () => (await pglite.query<Row>(statement.text, [...params])).rows;
        return inSqlSpan(statement.text, run, statement.name);
      }
      return (await pglite.query<Row>(statement.text, [...params])).rows;
    },
  };
  return {
    kind: "pglite",
    prisma,
    statements,
    sql,
    prepared,
    pglite,
    folderLock,
    // One process owns the folder, so an in-process queue is the lock.
    withAdvisoryLock<T>(_lockId: number, fn: (sql: SqlRunner) => Promise<T>) {
      const run = lockQueue.then(() => fn(sql));
      lockQueue = run.catch(() => undefined);
      return run;
    },
    async close() {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        folderLock?.release();
      }
    },
  };
}

/**
 * How long a query or a transaction waits for one of the pool's connections. Unbounded before, a
 * saturated pool held requests for as long as it lasted (8.5 s seen under five bulks), and Prisma
 * only reported a transaction's 2 s `maxWait` as P2028 once a connection finally came. Past this the
 * request answers 503 with Retry-After (`database_unavailable`); it matches Prisma's `maxWait`.
 */
export const POOL_WAIT_MS = 2_000;

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: POOL_WAIT_MS });
  // A restart or shutdown of the server ends every session with an 'error' event on its connection
  // (57P01), and an 'error' event nobody listens to kills the process. The pool listens only while a
  // connection is idle and Prisma's adapter only once its transaction has the connection in hand, so
  // one handed out in between had no listener (prisma/orm#27641, brianc/node-postgres#2762). This
  // listener is attached when the pool opens the connection and stays for its whole life. The request
  // using it sees the failure through its query's rejection (answered as `database_unavailable`), and
  // the pool drops the connection when it comes back unqueryable.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  pool.on("error", () => undefined);
  const statements = new StatementCounter();
  const prisma = new PrismaClient({
    adapter: statements.wrap(releaseFailedTransactions(new PrismaPg(pool))),
  });
  const wrap = (client: pg.Pool | pg.PoolClient): SqlRunner => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await client.query(text, params ? [...params] : undefined);
      return { rows: result.rows as Row[] };
    },
    async exec(text: string) {
      await client.query(text);
    },
  });
  const prepared: PreparedSql = {
    async query<Row>(statement: PreparedStatement, params: readonly unknown[]) {
      statements.count++;
      statements.capture?.push(statement.text);
      const run = async () =>
        (await pool.query({ name: statement.name, text: statement.text, values: [...params] })).rows as Row[];
      return tracingOn() ? inSqlSpan(statement.text, run, statement.name) : run();
    },
  };
  return {
    kind: "postgres",
    prisma,
    statements,
    sql: wrap(pool),
    prepared,
    url,
    async withAdvisoryLock<T>(lockId: number, fn: (sql: SqlRunner) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [lockId]);
        try {
          return await fn(wrap(client));
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [lockId]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
