import { GraphQLError, Kind } from "graphql";
import { builder } from "../../builder";

builder.scalarType("DateTime", {
  description: "An instant, as an ISO 8601 string in UTC (e.g. 2026-11-22T08:30:00.000Z).",
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError("DateTime must be an ISO 8601 string.");
    return parseDate(ast.value);
  },
});

function parseDate(value: unknown): Date {
  const date = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new GraphQLError("DateTime must be an ISO 8601 string.", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  return date;
}
