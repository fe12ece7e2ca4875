import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQueryable } from "@prisma/driver-adapter-utils";
import { inSqlSpan, tracingOn } from "../observability/tracing";

/**
 * Counts every SQL statement Prisma sends through a driver adapter, inside transactions too. The
 * constant-query promises ("a shipment with its containers in N statements, whatever their number")
 * are tested and benchmarked with it; an increment per statement costs nothing measurable.
 */
export class StatementCounter {
  count = 0;
  /**
   * When set, the text of every statement is appended, Prisma's and the prepared ones (`database.ts`)
   * alike (for tests and diagnosis, never in production).
   */
  capture: string[] | null = null;

  /**
   * `turnFirst`, when given, is awaited before each statement is sent (PGlite: a turn of the event loop,
   * see `database.ts`).
   */
  wrap(factory: SqlDriverAdapterFactory, turnFirst?: () => Promise<void>): SqlDriverAdapterFactory {
    const counter = this;
    return new Proxy(factory, {
      get(target, prop, receiver) {
        if (prop !== "connect") return Reflect.get(target, prop, receiver);
        return async () => counter.wrapQueryable(await target.connect(), turnFirst) as SqlDriverAdapter;
      },
    });
  }

  private wrapQueryable<T extends SqlQueryable>(queryable: T, turnFirst?: () => Promise<void>): T {
    const counter = this;
    return new Proxy(queryable, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === "queryRaw" || prop === "executeRaw") {
          return (...args: unknown[]) => {
            counter.count++;
            const sql = (args[0] as { sql: string }).sql;
            counter.capture?.push(sql);
            const run = () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            const send = tracingOn() ? () => inSqlSpan(sql, run) : run;
            return turnFirst ? turnFirst().then(send) : send();
          };
        }
        if (prop === "startTransaction") {
          return async (...args: unknown[]) =>
            counter.wrapQueryable(
              await (value as (...a: unknown[]) => Promise<SqlQueryable>).apply(target, args),
              turnFirst,
            );
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}
