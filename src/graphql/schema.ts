import { GraphQLObjectType, GraphQLSchema } from "graphql";
import { builder } from "./builder";
import type { INTERNAL } from "./schema-visibility";
import "./types/scalars";
import "./types/account";
import "./types/carrier";
import "./types/tracking";
import "./types/ports";
import "./types/lookups";
import "./types/vessels";
import "./types/schedules";
import "./types/usage";
import "./types/history";
import "./types/journey";
import "./types/shipments";
import "./types/sharing";
import "./types/webhooks";
import "./types/shipment-search";
import "./types/refresh-schedule";
import "./types/customers";
import "./types/docs-search";
import "./types/sample-webhook";

/** The whole schema: what the facades' persisted operations are validated and executed against. */
export const schema = builder.toSchema({ sortSchema: true });

/**
 * What `/graphql` serves and `schema.graphql` prints: the whole schema without the root fields marked
 * `extensions: INTERNAL` (counters and the like that only the facades' own operations may run).
 */
export const publicSchema = withoutInternalRootFields(schema);

function withoutInternalRootFields(whole: GraphQLSchema): GraphQLSchema {
  const config = whole.toConfig();
  const roots = [config.query, config.mutation, config.subscription];
  const replaced = new Map<GraphQLObjectType, GraphQLObjectType>();
  for (const root of roots) {
    if (!root) continue;
    const { fields, ...rest } = root.toConfig();
    const kept = Object.entries(fields).filter(([, field]) => !isInternal(field.extensions));
    if (kept.length < Object.keys(fields).length) {
      replaced.set(root, new GraphQLObjectType({ ...rest, fields: Object.fromEntries(kept) }));
    }
  }
  const swap = <T>(type: T) => (replaced.get(type as GraphQLObjectType) as T | undefined) ?? type;
  const publicRoots = {
    query: config.query && swap(config.query),
    mutation: config.mutation && swap(config.mutation),
    subscription: config.subscription && swap(config.subscription),
  };
  // Types only an internal field returns go with it; every other type stays, reachable or not.
  const reachable = new GraphQLSchema({ ...publicRoots, directives: config.directives });
  const fromInternal = reachableFromInternalFields(whole);
  const internalOnly = new Set(
    Object.keys(whole.getTypeMap()).filter((name) => !reachable.getType(name) && fromInternal.has(name)),
  );
  return new GraphQLSchema({
    ...config,
    ...publicRoots,
    // Replaced in place, so the printed schema keeps its sorted order.
    types: config.types.map(swap).filter((type) => !internalOnly.has(type.name)),
  });
}

/** The names of the types the internal root fields reach. */
function reachableFromInternalFields(whole: GraphQLSchema): Set<string> {
  const fields = [whole.getQueryType(), whole.getMutationType(), whole.getSubscriptionType()].flatMap(
    (root) =>
      Object.entries(root?.toConfig().fields ?? {}).filter(([, field]) => isInternal(field.extensions)),
  );
  if (fields.length === 0) return new Set();
  const internal = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "InternalRoot", fields: Object.fromEntries(fields) }),
  });
  return new Set(Object.keys(internal.getTypeMap()));
}

function isInternal(extensions: unknown): boolean {
  return (extensions as typeof INTERNAL | null | undefined)?.internal === true;
}
