import type {
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";

/**
 * Gives a transaction's connection back to the pool when its COMMIT or ROLLBACK fails.
 *
 * Prisma 6.19 ends a transaction by sending COMMIT (or ROLLBACK) and then calling the adapter's
 * `commit()` (or `rollback()`), which releases the connection; when the statement throws, the second
 * call never happens and the connection stays checked out for good. A database restart fails exactly
 * those statements on every open transaction, so each restart under load leaked connections until the
 * pool of 10 was empty and every request waited forever (seen here: 9 of 10 held after 5 restarts).
 *
 * Releasing through the adapter's own `rollback()` is safe: a connection the server cut is no longer
 * queryable and the pool discards it, and on a live one PostgreSQL has ended the transaction whether
 * COMMIT succeeded or not.
 */
export function releaseFailedTransactions(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return new Proxy(factory, {
    get(target, prop, receiver) {
      if (prop !== "connect") return Reflect.get(target, prop, receiver);
      return async () => withReleasingTransactions(await target.connect());
    },
  });
}

function withReleasingTransactions(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "startTransaction") {
        return async (...args: Parameters<SqlDriverAdapter["startTransaction"]>) =>
          releasing(await target.startTransaction(...args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const ENDS_TRANSACTION = /^\s*(COMMIT|ROLLBACK)\b/i;

function releasing(transaction: Transaction): Transaction {
  let released = false;
  const releaseOnce = async (end: () => Promise<void>) => {
    if (released) return;
    released = true;
    await end();
  };
  return new Proxy(transaction, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "executeRaw") {
        return async (query: SqlQuery) => {
          try {
            return await target.executeRaw(query);
          } catch (error) {
            if (ENDS_TRANSACTION.test(query.sql)) {
              await releaseOnce(() => target.rollback()).catch(() => undefined);
            }
            throw error;
          }
        };
      }
      if (prop === "commit") return () => releaseOnce(() => target.commit());
      if (prop === "rollback") return () => releaseOnce(() => target.rollback());
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
