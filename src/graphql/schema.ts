import { GraphQLObjectType, GraphQLSchema } from "graphql";
import { builder } from "./builder";
import type { INTERNAL } from "./schema-visibility";
import "./types/scalars/date-time";
import "./types/scalars/json";
import "./types/accounts/api-key";
import "./types/accounts/api-key-rights";
import "./types/accounts/organization-rights";
import "./types/accounts/billing-cycle";
import "./types/accounts/billing-state";
import "./types/accounts/create-api-key-input";
import "./types/accounts/create-api-key-payload";
import "./types/accounts/feature";
import "./types/accounts/feature-access";
import "./types/accounts/feature-status";
import "./types/accounts/organization";
import "./types/accounts/plan";
import "./types/accounts/plan-code";
import "./types/accounts/rate-window";
import "./types/accounts/user";
import "./types/accounts/user-rights";
import "./types/accounts/user-role";
import "./types/accounts/viewer";
import "./types/people/dashboard-people";
import "./types/people/invitation";
import "./types/people/saved-filters";
import "./types/operations/deployment-health";
import "./types/partners/partner-source";
import "./types/partners/partner-events";
import "./types/carriers/carrier";
import "./types/carriers/carrier-status";
import "./types/carriers/carrier-unavailable-reason";
import "./types/customers/customer";
import "./types/customers/customer-filter";
import "./types/customers/customer-list";
import "./types/demurrage/dnd-clock";
import "./types/demurrage/dnd-contract-terms";
import "./types/demurrage/dnd-enums";
import "./types/demurrage/shipment-dnd";
import "./types/disruptions/disruption";
import "./types/eta/predictive-eta";
import "./types/disruptions/disruption-affected";
import "./types/disruptions/disruption-category";
import "./types/disruptions/disruption-entities";
import "./types/disruptions/disruption-feed-source";
import "./types/disruptions/disruption-filter-invalid";
import "./types/disruptions/disruption-match-type";
import "./types/disruptions/disruption-not-found";
import "./types/disruptions/disruption-outcomes";
import "./types/disruptions/disruption-page";
import "./types/disruptions/disruption-source";
import "./types/disruptions/disruption-status";
import "./types/disruptions/shipment-disruption";
import "./types/disruptions/shipment-disruptions";
import "./types/docs/docs-hit";
import "./types/docs/docs-hit-kind";
import "./types/docs/docs-search";
import "./types/help/help-hit";
import "./types/help/help-search";
import "./types/history/lookup-outcome";
import "./types/history/lookup-surface";
import "./types/history/tracking-history";
import "./types/history/tracking-lookup";
import "./types/lookups/carrier-lookup";
import "./types/lookups/carrier-lookup-candidate";
import "./types/lookups/carrier-lookup-outcome";
import "./types/lookups/carrier-lookup-source";
import "./types/lookups/lookup-allowance";
import "./types/lookups/lookup-allowance-kind";
import "./types/lookups/lookup-confidence";
import "./types/lookups/lookup-input-invalid";
import "./types/lookups/lookup-limit-exceeded";
import "./types/lookups/lookup-provider-unavailable";
import "./types/lookups/lookup-reference-type";
import "./types/notifications/mail-message";
import "./types/notifications/notification-preferences";
import "./types/notifications/shipment-followers";
import "./types/ports/port";
import "./types/ports/port-catalogue";
import "./types/ports/port-search";
import "./types/congestion/port-congestion-board";
import "./types/congestion/port-congestion-outcome";
import "./types/congestion/port-congestion-fields";
import "./types/reports/delay-status";
import "./types/reports/mis-export";
import "./types/reports/mis-figures";
import "./types/reports/mis-filter";
import "./types/reports/mis-report";
import "./types/reports/mis-row";
import "./types/schedules/sailing-schedule";
import "./types/schedules/sailing-schedules";
import "./types/schedules/sailing-schedules-outcome";
import "./types/schedules/schedule-date-type";
import "./types/schedules/schedule-endpoint";
import "./types/schedules/schedule-vessel";
import "./types/schedules/transit-type";
import "./types/sharing/share-link";
import "./types/sharing/share-revoked";
import "./types/sharing/share-shipment-result";
import "./types/sharing/shared-container";
import "./types/sharing/shared-leg";
import "./types/sharing/shared-milestone";
import "./types/sharing/shared-shipment";
import "./types/sharing/shared-stop";
import "./types/sharing/unshare-shipment-result";
import "./types/terminals/terminal-record";
import "./types/shipments/customer-limit-reached";
import "./types/shipments/discovery-ineligibility";
import "./types/shipments/discovery-status";
import "./types/shipments/feature-disabled";
import "./types/shipments/plan-required";
import "./types/shipments/refresh-shipment-result";
import "./types/shipments/retry-failed-result";
import "./types/shipments/shipment";
import "./types/shipments/shipment-standing";
import "./types/shipments/shipment-delta";
import "./types/shipments/shipment-filter";
import "./types/shipments/shipment-not-found";
import "./types/shipments/shipment-page";
import "./types/shipments/shipment-search-page";
import "./types/shipments/shipment-untracked";
import "./types/shipments/shipment-updated";
import "./types/shipments/shipments-in-order";
import "./types/shipments/track-batch";
import "./types/shipments/track-batch-item";
import "./types/shipments/track-batch-result";
import "./types/shipments/track-item-input";
import "./types/shipments/untrack-shipment-result";
import "./types/shipments/shipment-archive";
import "./types/shipments/shipment-free-time";
import "./types/shipments/shipment-carrier-push";
import "./types/shipments/update-shipment-result";
import "./types/tracking/carrier-down";
import "./types/tracking/carrier-unavailable";
import "./types/tracking/carrier-undetectable";
import "./types/tracking/container-not-on-document";
import "./types/tracking/carrier-used";
import "./types/tracking/container";
import "./types/tracking/carrier-failure-kind";
import "./types/tracking/content-state";
import "./types/tracking/document-change";
import "./types/tracking/document-change-kind";
import "./types/tracking/empty-indicator";
import "./types/tracking/eta-revision";
import "./types/tracking/event";
import "./types/tracking/event-code";
import "./types/tracking/event-kind";
import "./types/tracking/event-status-code";
import "./types/tracking/facility";
import "./types/tracking/geo-point";
import "./types/tracking/leg-type";
import "./types/tracking/location";
import "./types/tracking/location-role";
import "./types/tracking/mode-of-transport";
import "./types/tracking/payment-overdue";
import "./types/tracking/placed-location";
import "./types/tracking/predicted-arrival";
import "./types/tracking/reference-invalid";
import "./types/tracking/reference-not-found";
import "./types/tracking/reference-type";
import "./types/tracking/reference-screening";
import "./types/tracking/route";
import "./types/tracking/route-point";
import "./types/tracking/route-segment";
import "./types/tracking/shipment-limit-reached";
import "./types/tracking/shipment-status";
import "./types/tracking/track-mode";
import "./types/tracking/track-result";
import "./types/tracking/stored-track";
import "./types/tracking/track-success";
import "./types/tracking/tracking-document";
import "./types/tracking/vessel";
import "./types/tracking/voyage-leg";
import "./types/tracking/voyage-leg-status";
import "./types/usage/account-usage";
import "./types/usage/api-surface";
import "./types/usage/api-usage";
import "./types/usage/slot-usage";
import "./types/vessels/position-source";
import "./types/vessels/vessel-ambiguous";
import "./types/vessels/vessel-identity";
import "./types/vessels/vessel-match";
import "./types/vessels/vessel-not-found";
import "./types/vessels/vessel-port-call";
import "./types/vessels/vessel-position";
import "./types/vessels/vessel-track";
import "./types/vessels/vessel-track-outcome";
import "./types/vessels/vessel-now";
import "./types/tracking/timeline";
import "./types/webhooks/create-webhook-endpoint-input";
import "./types/webhooks/sample-webhook-delivery";
import "./types/webhooks/webhook-attempt";
import "./types/webhooks/webhook-delivery";
import "./types/webhooks/webhook-delivery-status";
import "./types/webhooks/webhook-endpoint";
import "./types/webhooks/webhook-endpoint-with-secret";
import "./types/webhooks/webhook-event";
import "./types/scalars/file";
import "./types/workspace/quote-request";
import "./types/workspace/support-ticket";
import "./types/workspace/workspace-document";

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
