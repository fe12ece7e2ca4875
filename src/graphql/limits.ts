import {
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
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from "graphql";

/**
 * Bounds on one request's work, checked before execution: nesting depth, and a cost where every
 * field costs 1 times the size of the lists around it. A list's size is its `first`/`limit`/
 * `pageSize` argument when given as a literal, else a pessimistic default.
 */
const PAGE_ARGUMENTS = ["first", "last", "limit", "pageSize", "take"];
const DEFAULT_LIST_SIZE = 100;

export function queryLimitRules(limits: { maxDepth: number; maxCost: number }): ValidationRule[] {
  return [
    (context: ValidationContext) => ({
      OperationDefinition(node) {
        const schema = context.getSchema();
        const root = node.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
        if (!root) return;
        const fragments = Object.fromEntries(
          context
            .getDocument()
            .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
            .map((f) => [f.name.value, f]),
        );
        const walker = new Walker(schema, fragments, limits.maxDepth);
        const cost = walker.cost(node.selectionSet, root, 1, new Set());
        if (walker.deepest > limits.maxDepth) {
          context.reportError(
            new GraphQLError(
              `Query is nested ${walker.deepest} levels deep; the limit is ${limits.maxDepth}.`,
              {
                extensions: { code: "QUERY_TOO_DEEP" },
              },
            ),
          );
        } else if (cost > limits.maxCost) {
          context.reportError(
            new GraphQLError(
              `Query would cost ${cost}; the limit is ${limits.maxCost}. Ask for smaller pages.`,
              {
                extensions: { code: "QUERY_TOO_COSTLY" },
              },
            ),
          );
        }
      },
    }),
  ];
}

class Walker {
  deepest = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly maxDepth: number,
  ) {}

  cost(selectionSet: SelectionSetNode, type: GraphQLNamedType, depth: number, seen: Set<string>): number {
    this.deepest = Math.max(this.deepest, depth);
    // Past the limit the answer is already "refused"; stop walking so a hostile query stays cheap.
    if (depth > this.maxDepth + 1) return 0;
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        total += this.fieldCost(selection, type, depth, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const target = selection.typeCondition
          ? this.schema.getType(selection.typeCondition.name.value)
          : type;
        total += this.cost(selection.selectionSet, target ?? type, depth, seen);
      } else {
        const fragment = this.fragments[selection.name.value];
        if (!fragment || seen.has(fragment.name.value)) continue; // cycles are reported by graphql-js itself
        const target = this.schema.getType(fragment.typeCondition.name.value) ?? type;
        total += this.cost(fragment.selectionSet, target, depth, new Set([...seen, fragment.name.value]));
      }
    }
    return total;
  }

  private fieldCost(node: FieldNode, parent: GraphQLNamedType, depth: number, seen: Set<string>): number {
    if (!isObjectType(parent) && !isInterfaceType(parent)) return 1;
    const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[node.name.value];
    if (!field || !node.selectionSet) return 1;
    const multiplier = isListType(getNullableType(field.type)) ? listSize(node, field) : 1;
    return 1 + multiplier * this.cost(node.selectionSet, getNamedType(field.type), depth + 1, seen);
  }
}

/**
 * A list field may declare its typical size (`extensions: { listSize }`): lists inside one stored
 * document (containers, events) are bounded by the document, not by a page argument.
 */
export const LIST_SIZE = (n: number) => ({ listSize: n });

function listSize(node: FieldNode, field: GraphQLField<unknown, unknown>): number {
  const declared = (field.extensions as { listSize?: unknown } | undefined)?.listSize;
  for (const arg of node.arguments ?? []) {
    if (PAGE_ARGUMENTS.includes(arg.name.value)) {
      const n = intValue(arg.value);
      if (n !== undefined) return Math.max(1, n);
    }
  }
  return typeof declared === "number" ? declared : DEFAULT_LIST_SIZE;
}

function intValue(value: ValueNode): number | undefined {
  return value.kind === Kind.INT ? Number.parseInt(value.value, 10) : undefined;
}
