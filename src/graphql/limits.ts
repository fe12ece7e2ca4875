import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import {
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  Source,
  TokenKind,
  type ValidationContext,
  type ValidationRule,
  valueFromASTUntyped,
} from "graphql";
import { findUnstorable, unstorableText } from "../lib/storable-text";

/**
 * Bounds on one request's work, all checked before anything runs and each linear in the size of the
 * document: bytes and tokens before parsing; then nesting depth, aliases and directives; then a cost
 * where every field costs 1 times the size of the lists around it, and a count of the fields that call
 * a carrier or another upstream, or write.
 */
export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
  maxQueryBytes: number;
  maxTokens: number;
}

/**
 * Fixed bounds. Aliases: the persisted operations use at most a handful, and 30 lets a dashboard ask
 * for a few dozen named sub-queries. Nesting of brackets: the semantic depth limit is checked on the
 * parsed document, but the parser recurses once per bracket, so a cheap lexical bound comes first.
 */
export const MAX_ALIASES = 30;
export const MAX_DIRECTIVES = 20;
export const MAX_BRACKET_NESTING = 64;
/** Upstream calls and writes per request: the same bound as a v1 bulk request. */
export const MAX_UPSTREAM_CALLS = 50;

const PAGE_ARGUMENTS = ["first", "last", "limit", "pageSize", "take"];
const DEFAULT_LIST_SIZE = 100;

/** A refusal before execution: a coded GraphQL error that Yoga answers with `status`. */
export function limitError(code: string, message: string, status = 400): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * Parses a client's document after checking its size, tokens and bracket nesting with the lexer alone
 * (iterative, so it cannot overflow the stack however hostile the text). Throws a coded GraphQLError.
 */
export function parseBounded(source: string, limits: QueryLimits): DocumentNode {
  const bytes = Buffer.byteLength(source, "utf8");
  if (bytes > limits.maxQueryBytes) {
    throw limitError(
      "QUERY_TOO_LARGE",
      `The query is ${bytes} bytes; the limit is ${limits.maxQueryBytes}. Send a smaller document.`,
      413,
    );
  }
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > limits.maxTokens) {
        throw limitError(
          "QUERY_TOO_LARGE",
          `The query has more than ${limits.maxTokens} tokens. Send a smaller document.`,
          413,
        );
      }
      if (
        token.kind === TokenKind.BRACE_L ||
        token.kind === TokenKind.BRACKET_L ||
        token.kind === TokenKind.PAREN_L
      ) {
        if (++nesting > MAX_BRACKET_NESTING) {
          throw limitError(
            "QUERY_TOO_DEEP",
            `The query nests brackets more than ${MAX_BRACKET_NESTING} levels deep.`,
          );
        }
      } else if (
        token.kind === TokenKind.BRACE_R ||
        token.kind === TokenKind.BRACKET_R ||
        token.kind === TokenKind.PAREN_R
      ) {
        nesting--;
      }
    }
  } catch (error) {
    // The lexer's own syntax errors are reported by the parser below, with their location.
    if (error instanceof GraphQLError && error.extensions.code) throw error;
  }
  return parse(source, { maxTokens: limits.maxTokens });
}

/**
 * Validation rules that depend on the document alone (so a document that passes them may be cached):
 * depth, aliases, directives, and string literals that PostgreSQL could not store.
 */
export function queryLimitRules(limits: Pick<QueryLimits, "maxDepth">): ValidationRule[] {
  const armor = (code: string) => ({
    propagateOnRejection: false,
    exposeLimits: true,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) =>
        context?.reportError(
          limitError(code, error.message.replace(/^Syntax Error: /, "").replace(/\.$/, ". Split the query.")),
        ),
    ],
  });
  return [
    (context: ValidationContext) => ({
      OperationDefinition(node) {
        const { depth } = measureOperation(context.getSchema(), context.getDocument(), node, {});
        if (depth > limits.maxDepth) {
          context.reportError(
            limitError(
              "QUERY_TOO_DEEP",
              `Query is nested ${depth} levels deep; the limit is ${limits.maxDepth}.`,
            ),
          );
        }
      },
    }),
    maxAliasesRule({ n: MAX_ALIASES, ...armor("TOO_MANY_ALIASES") }),
    maxDirectivesRule({ n: MAX_DIRECTIVES, ...armor("TOO_MANY_DIRECTIVES") }),
    (context: ValidationContext) => ({
      StringValue(node) {
        const problem = unstorableText(node.value);
        if (problem) context.reportError(limitError("BAD_USER_INPUT", `A string argument ${problem}.`));
      },
    }),
  ];
}

/**
 * The checks that depend on the request's variables: cost (a page size may be a variable) and the
 * upstream calls (a batch's items may be a variable). Empty when the operation may run.
 */
export function checkOperationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  {
    operationName,
    variables,
    limits,
  }: {
    operationName: string | null | undefined;
    variables: Readonly<Record<string, unknown>>;
    limits: Pick<QueryLimits, "maxCost">;
  },
): GraphQLError[] {
  const operation = selectOperation(document, operationName);
  if (!operation) return [];
  const { cost, upstreamCalls } = measureOperation(schema, document, operation, variables);
  const errors: GraphQLError[] = [];
  if (cost > limits.maxCost) {
    errors.push(
      limitError(
        "QUERY_TOO_COSTLY",
        `Query would cost ${cost}; the limit is ${limits.maxCost}. Ask for smaller pages.`,
      ),
    );
  }
  if (upstreamCalls > MAX_UPSTREAM_CALLS) {
    errors.push(
      limitError(
        "TOO_MANY_UPSTREAM_CALLS",
        `The request would make ${upstreamCalls} tracks, lookups or changes; one request may make at most ${MAX_UPSTREAM_CALLS} (as a bulk request). Split it.`,
      ),
    );
  }
  return errors;
}

function selectOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return operations.find((o) => o.name?.value === operationName);
  return operations.length === 1 ? operations[0] : undefined;
}

interface Measure {
  /** Levels of selection sets, this one included. */
  depth: number;
  cost: number;
  /** Root fields that call an upstream or write (mutations), batch items counted one by one. */
  upstreamCalls: number;
}

export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): Measure {
  const root =
    operation.operation === "mutation"
      ? schema.getMutationType()
      : operation.operation === "subscription"
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return { depth: 0, cost: 0, upstreamCalls: 0 };
  return new OperationMeasure(schema, document, variables).selectionSet(operation.selectionSet, root);
}

/**
 * Walks an operation once per fragment: a fragment's measure is computed on its first spread and
 * reused on every other, so chained fragments that each spread the next twice cost linear time,
 * not 2^n. A cycle (reported by graphql-js's own validation) measures as empty.
 */
class OperationMeasure {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly measured = new Map<string, Measure | "in-progress">();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Readonly<Record<string, unknown>>,
  ) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
  }

  selectionSet(set: SelectionSetNode, type: GraphQLNamedType): Measure {
    const total: Measure = { depth: 1, cost: 0, upstreamCalls: 0 };
    for (const selection of set.selections) {
      let inner: Measure;
      if (selection.kind === Kind.FIELD) {
        inner = this.field(selection, type);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const target = selection.typeCondition
          ? this.schema.getType(selection.typeCondition.name.value)
          : type;
        inner = this.selectionSet(selection.selectionSet, target ?? type);
      } else {
        inner = this.fragment(selection.name.value, type);
      }
      total.depth = Math.max(total.depth, inner.depth);
      total.cost += inner.cost;
      total.upstreamCalls += inner.upstreamCalls;
    }
    return total;
  }

  private fragment(name: string, type: GraphQLNamedType): Measure {
    const known = this.measured.get(name);
    if (known === "in-progress") return { depth: 1, cost: 0, upstreamCalls: 0 };
    if (known) return known;
    const fragment = this.fragments.get(name);
    if (!fragment) return { depth: 1, cost: 0, upstreamCalls: 0 }; // validation reports it
    this.measured.set(name, "in-progress");
    const target = this.schema.getType(fragment.typeCondition.name.value) ?? type;
    const measure = this.selectionSet(fragment.selectionSet, target);
    this.measured.set(name, measure);
    return measure;
  }

  private field(node: FieldNode, parent: GraphQLNamedType): Measure {
    if (!isObjectType(parent) && !isInterfaceType(parent)) return { depth: 1, cost: 1, upstreamCalls: 0 };
    const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[node.name.value];
    if (!field) return { depth: 1, cost: 1, upstreamCalls: 0 };
    const upstreamCalls = this.upstreamCalls(node, field, parent);
    if (!node.selectionSet) return { depth: 1, cost: 1, upstreamCalls };
    const child = this.selectionSet(node.selectionSet, getNamedType(field.type));
    const multiplier = isListType(getNullableType(field.type)) ? this.listSize(node, field) : 1;
    return { depth: 1 + child.depth, cost: 1 + multiplier * child.cost, upstreamCalls };
  }

  /**
   * Every mutation field writes; a query field that calls an upstream says so with
   * `extensions: UPSTREAM_CALL` or `UPSTREAM_CALL_PER_ITEM(argument)`.
   */
  private upstreamCalls(
    node: FieldNode,
    field: GraphQLField<unknown, unknown>,
    parent: GraphQLNamedType,
  ): number {
    const declared = (field.extensions as { upstreamCalls?: number | { perItemOf: string } } | undefined)
      ?.upstreamCalls;
    if (declared === undefined) return parent === this.schema.getMutationType() ? 1 : 0;
    if (typeof declared === "number") return declared;
    const argument = node.arguments?.find((a) => a.name.value === declared.perItemOf);
    const value = argument ? this.argumentValue(argument) : undefined;
    return Array.isArray(value) ? Math.max(1, value.length) : 1;
  }

  /**
   * A list's size: its page argument as sent (a literal or a variable), else that argument's default
   * in the schema, else the size the field declares, else a pessimistic default.
   */
  private listSize(node: FieldNode, field: GraphQLField<unknown, unknown>): number {
    for (const name of PAGE_ARGUMENTS) {
      const definition = field.args.find((a) => a.name === name);
      if (!definition) continue;
      const argument = node.arguments?.find((a) => a.name.value === name);
      const sent = argument ? this.argumentValue(argument) : undefined;
      const size = typeof sent === "number" ? sent : definition.defaultValue;
      if (typeof size === "number" && Number.isFinite(size)) return Math.max(1, Math.trunc(size));
    }
    const declared = (field.extensions as { listSize?: unknown } | undefined)?.listSize;
    return typeof declared === "number" ? declared : DEFAULT_LIST_SIZE;
  }

  private argumentValue(argument: ArgumentNode): unknown {
    return valueFromASTUntyped(argument.value, this.variables as Record<string, unknown>);
  }
}

/**
 * A list field may declare its typical size (`extensions: { listSize }`): lists inside one stored
 * document (containers, events) are bounded by the document, not by a page argument.
 */
export const LIST_SIZE = (n: number) => ({ listSize: n });
/** A query field that calls a carrier or another upstream once per request. */
export const UPSTREAM_CALL = { upstreamCalls: 1 } as const;
/** A mutation that calls an upstream once per item of a list argument (a batch). */
export const UPSTREAM_CALL_PER_ITEM = (argument: string) => ({ upstreamCalls: { perItemOf: argument } });

/** The deepest nesting of lists and objects a request's variables may have. */
export const MAX_VARIABLES_NESTING = 32;

/** Checks every string (keys included) and the nesting of a request's variables: what is wrong, or undefined. */
export function unacceptableVariables(variables: unknown): string | undefined {
  const found = findUnstorable(variables, "variables", MAX_VARIABLES_NESTING);
  if (!found) return undefined;
  if (found.kind === "too_deep") {
    return `The variables nest lists and objects more than ${MAX_VARIABLES_NESTING} levels deep.`;
  }
  return found.inKey ? `A variable's key ${found.problem}.` : `A variable ${found.problem}.`;
}
