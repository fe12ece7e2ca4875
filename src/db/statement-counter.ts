import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQueryable } from "@prisma/driver-adapter-utils";

/**
 * Counts every SQL statement Prisma sends through a driver adapter, inside transactions too. The
 * constant-query promises ("a shipment with its containers in N statements, whatever their number")
 * are tested and benchmarked with it; an increment per statement costs nothing measurable.
 */
export class StatementCounter {
  count = 0;
  /** When set, the text of every statement is appended (for diagnosis, never in production). */
  capture: string[] | null = null;

  wrap(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
    const counter = this;
    return new Proxy(factory, {
      get(target, prop, receiver) {
        if (prop !== "connect") return Reflect.get(target, prop, receiver);
        return async () => counter.wrapQueryable(await target.connect()) as SqlDriverAdapter;
      },
    });
  }

  private wrapQueryable<T extends SqlQueryable>(queryable: T): T {
    const counter = this;
    return new Proxy(queryable, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === "queryRaw" || prop === "executeRaw") {
          return (...args: unknown[]) => {
            counter.count++;
            counter.capture?.push((args[0] as { sql: string }).sql);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        if (prop === "startTransaction") {
          return async (...args: unknown[]) =>
            counter.wrapQueryable(
              await (value as (...a: unknown[]) => Promise<SqlQueryable>).apply(target, args),
            );
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}
