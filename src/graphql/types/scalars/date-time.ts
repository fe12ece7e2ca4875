import { GraphQLError, Kind } from "graphql";
import { builder } from "../../builder";

/**
 * The instants a DateTime input may name: the years 0001 to 9999. ISO 8601 (and JavaScript) also
 * spell a year 0000, negative years and years up to +275760, but PostgreSQL has no year 0 and a
 * six-digit year is no timestamp it reads: such a value would fail deep inside the database as an
 * internal error. v1's `updated_since` refuses the same years (`facades/v1/contract/routes.ts`).
 */
const EARLIEST_MS = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST_MS = Date.parse("9999-12-31T23:59:59.999Z");

const NOT_ISO = "DateTime must be an ISO 8601 string.";
const OUT_OF_RANGE = "DateTime must be in the years 0001 to 9999 (UTC), e.g. 2026-11-22T08:30:00Z.";

builder.scalarType("DateTime", {
  description:
    "An instant, as an ISO 8601 string in UTC (e.g. 2026-11-22T08:30:00.000Z); as input, in the years 0001 to 9999.",
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw refusal(NOT_ISO);
    return parseDate(ast.value);
  },
});

function parseDate(value: unknown): Date {
  const date = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw refusal(NOT_ISO);
  if (ms < EARLIEST_MS || ms > LATEST_MS) throw refusal(OUT_OF_RANGE);
  return date;
}

const refusal = (message: string) => new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } });
