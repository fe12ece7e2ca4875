/**
 * "The database is unavailable": the server is down, restarting, starting up, refusing connections or
 * cut the session. Such a failure says nothing about the request, so it is answered 503 with
 * `Retry-After` (the `database_unavailable` outcome) and logged as a warning without a stack.
 * Anything else a query throws is a bug and stays `unexpected`.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";

  constructor(readonly reason: string) {
    super(`The database is unavailable: ${reason}`);
  }
}

/**
 * SQLSTATE class 08 (connection exception), 57P01 admin_shutdown (a fast stop or restart), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery) and 53300
 * too_many_connections (the server is saturated, which passes like the rest).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Socket failures on the way to the server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
/**
 * Prisma's wrapped forms: P1001 cannot reach the server, P1002 timed out, P1008 operation timed out,
 * P1017 the server closed the connection, P2024 no connection from the pool in time.
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** What `@prisma/adapter-pg` makes of socket errors and 53300 (its `DriverAdapterError` causes). */
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
/**
 * node-postgres raises these without a code: a pooled connection the server dropped is "not
 * queryable", one cut mid-query is "terminated", and a pool that could not connect in time says so.
 * Prisma's P2028 covers every transaction failure, but this one says that no connection came free
 * within the transaction's `maxWait` (2 s): the database is too busy to serve in time, which says
 * nothing about the request either. A transaction that ran past its own timeout stays `unexpected`:
 * that is work held too long inside one (docs/decisions/operating.md).
 */
const DRIVER_MESSAGES = [
  "Client has encountered a connection error and is not queryable",
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Unable to start a transaction in the given time",
];

/**
 * Whether `error` (or a list of errors), or anything it wraps (GraphQL's `originalError`, `cause`, an
 * aggregate's `errors`, Prisma's `meta.driverAdapterError`), says the database is unavailable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseUnavailableReason(error) !== undefined;
}

/** The code or message that showed the database unavailable (for the log), or undefined. */
export function databaseUnavailableReason(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number): string | undefined => {
    if (depth > 6 || typeof node !== "object" || node === null || seen.has(node)) return undefined;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) {
        const found = visit(item, depth + 1);
        if (found) return found;
      }
      return undefined;
    }
    if (node instanceof DatabaseUnavailableError) return node.reason;
    const record = node as Record<string, unknown>;
    for (const key of ["code", "errorCode"] as const) {
      const code = record[key];
      if (typeof code !== "string") continue;
      if (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code) || PRISMA_CODES.has(code)) return code;
    }
    if (typeof record.kind === "string" && ADAPTER_KINDS.has(record.kind)) return record.kind;
    const message = record.message;
    if (typeof message === "string") {
      const known = DRIVER_MESSAGES.find((m) => message.includes(m));
      if (known) return known;
    }
    const children: unknown[] = [record.originalError, record.cause, record.meta, record.driverAdapterError];
    if (Array.isArray(record.errors)) children.push(...record.errors);
    for (const child of children) {
      const found = visit(child, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(error, 0);
}
