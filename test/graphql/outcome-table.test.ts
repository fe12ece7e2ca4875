/**
 * One outcome table for everything a surface can answer: every member of every result union in the
 * printed schema has a row, every row names a member that exists, and a row that picks its outcome
 * by a field of the member covers every value that field can take.
 */
import { readFileSync } from "node:fs";
import {
  buildSchema,
  type GraphQLField,
  type GraphQLObjectType,
  GraphQLUnionType,
  getNamedType,
  isEnumType,
} from "graphql";
import { describe, expect, it } from "vitest";
import {
  answerFor,
  type MemberRow,
  OUTCOMES,
  type ResultUnion,
  UNION_MEMBER_ROWS,
} from "../../src/http/outcomes";

const schema = buildSchema(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8"));
const unions = Object.values(schema.getTypeMap()).filter(
  (t): t is GraphQLUnionType => t instanceof GraphQLUnionType,
);
const rowsOf = (union: string): Readonly<Record<string, MemberRow>> | undefined =>
  (UNION_MEMBER_ROWS as Readonly<Record<string, Readonly<Record<string, MemberRow>>>>)[union];

/** The values a `by` field can take, or null when the schema does not close them (a String). */
function valuesOf(field: GraphQLField<unknown, unknown>): string[] | null {
  const type = getNamedType(field.type);
  if (type.name === "Boolean") return ["true", "false"];
  if (isEnumType(type)) return type.getValues().map((v) => v.name);
  return null;
}

describe("the outcome table", () => {
  it("knows the schema's result unions, and no union the schema does not have", () => {
    expect(unions.length).toBeGreaterThan(0);
    expect(Object.keys(UNION_MEMBER_ROWS).sort()).toEqual(unions.map((u) => u.name).sort());
  });

  for (const union of unions) {
    describe(union.name, () => {
      const rows = rowsOf(union.name) ?? {};
      it("has a row for every member and none for a member the union does not have", () => {
        expect(Object.keys(rows).sort()).toEqual(
          union
            .getTypes()
            .map((t) => t.name)
            .sort(),
        );
      });

      for (const member of union.getTypes()) {
        const row = rows[member.name];
        if (!row) continue;
        const choice = "answer" in row ? row.answer : row.outcome;
        if (typeof choice === "object") {
          it(`${member.name}: chooses by a field the member has, covering each of its values`, () => {
            const field = (member as GraphQLObjectType).getFields()[choice.by];
            expect(field, `${member.name}.${choice.by}`).toBeDefined();
            const keys = Object.keys("statuses" in choice ? choice.statuses : choice.outcomes).sort();
            const values = valuesOf(field!);
            if (values) expect(keys).toEqual([...values].sort());
          });
        }
        if ("outcome" in row) {
          const outcomes =
            typeof row.outcome === "string" ? [row.outcome] : Object.values(row.outcome.outcomes);
          it(`${member.name}: carries the wait its outcome says the answer carries`, () => {
            for (const outcome of outcomes) {
              if (OUTCOMES[outcome].retryAfterFrom !== "answer") continue;
              expect(
                (member as GraphQLObjectType).getFields().retryAfterSeconds,
                `${member.name}.retryAfterSeconds (for ${outcome})`,
              ).toBeDefined();
            }
          });
        }
      }
    });
  }
});

describe("answerFor", () => {
  const answer = (union: ResultUnion, member: { __typename: string; [k: string]: unknown }) =>
    answerFor(union, member);

  it("renders a success member as the answer, with its v1 status", () => {
    expect(answer("TrackResult", { __typename: "TrackSuccess" })).toEqual({ kind: "answer", v1Status: 200 });
    expect(answer("ShareShipmentResult", { __typename: "ShareLink", created: true })).toEqual({
      kind: "answer",
      v1Status: 201,
    });
    expect(answer("ShareShipmentResult", { __typename: "ShareLink", created: false })).toEqual({
      kind: "answer",
      v1Status: 200,
    });
  });

  it("picks the outcome by the member's field where one member covers several", () => {
    expect(answer("TrackResult", { __typename: "CarrierUnavailable", cause: "maintenance" })).toEqual({
      kind: "refusal",
      outcome: "carrier_maintenance",
    });
    expect(answer("TrackResult", { __typename: "ReferenceNotFound", carrierProvided: false })).toEqual({
      kind: "refusal",
      outcome: "reference_not_found_auto",
    });
  });

  it("answers the same member differently where the unions differ", () => {
    const invalid = { __typename: "LookupInputInvalid", param: "number", message: "x" };
    expect(answer("CarrierLookupOutcome", invalid)).toMatchObject({ outcome: "invalid_reference" });
    expect(answer("SailingSchedulesOutcome", invalid)).toMatchObject({ outcome: "bad_request" });
  });

  it("takes the wait from the member when the answer carries it, else the table's fixed one", () => {
    expect(
      answer("TrackResult", {
        __typename: "CarrierDown",
        scac: "MSCU",
        reason: "timeout",
        retryAfterSeconds: 42,
      }),
    ).toEqual({ kind: "refusal", outcome: "carrier_down", retryAfterSeconds: 42 });
    expect(answer("TrackResult", { __typename: "ReferenceInvalid", reason: "check_digit" })).toEqual({
      kind: "refusal",
      outcome: "invalid_reference",
    });
  });

  it("answers a member nobody described as unexpected rather than guessing", () => {
    expect(answer("TrackResult", { __typename: "SomethingNew" })).toEqual({
      kind: "refusal",
      outcome: "unexpected",
    });
  });
});
