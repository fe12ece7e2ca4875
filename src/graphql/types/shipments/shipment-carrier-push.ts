import DataLoader from "dataloader";
import {
  type CarrierSubscriptionFacts,
  carrierPushStatus,
  SAFETY_NET_STRETCH,
  type SubscriptionKey,
  subscriptionKeyOf,
  subscriptionsOf,
} from "../../../domain/tracking/carrier-push-state";
import { refreshGapChangesAt, refreshGapMs } from "../../../domain/tracking/shipment-facts";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";

interface CarrierPushView extends CarrierSubscriptionFacts {
  nextPollAt: Date | null;
  /** The refresh gap that applies now (refreshGapHours), before any stretch. */
  gapMs: number;
}

export const CarrierPushStatusEnum = builder.enumType("CarrierPushStatus", {
  description: "Where a carrier's DCSA event subscription for a shipment's reference stands.",
  values: {
    PENDING: { description: "Asked for; the carrier has not accepted it yet. Polled at the normal cadence." },
    ACTIVE: {
      description: `The carrier holds it and pushes new events as they happen; polls come ${SAFETY_NET_STRETCH} times less often (the safety net).`,
    },
    LOST: {
      description:
        "The carrier no longer holds it (found when it was last asked); registered again on a later pass, polled at the normal cadence meanwhile.",
    },
  },
});

const ShipmentCarrierPushRef = builder.objectRef<CarrierPushView>("ShipmentCarrierPush").implement({
  description:
    "The carrier's pushed updates for this shipment (DCSA event subscriptions): whether they cover it, when the last one came, and when the carrier is next polled.",
  fields: (t) => ({
    covered: t.boolean({
      description: "The carrier pushes this shipment's events now (status ACTIVE).",
      resolve: (v) => carrierPushStatus(v) === "ACTIVE",
    }),
    status: t.field({ type: CarrierPushStatusEnum, resolve: (v) => carrierPushStatus(v) }),
    lastPushAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the carrier last pushed an event that was applied; null before the first.",
      resolve: (v) => v.lastPushAt,
    }),
    confirmedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the carrier last confirmed it holds the subscription; null before it accepted it.",
      resolve: (v) => v.renewedAt,
    }),
    pollStretch: t.int({
      description: `How many times the normal refresh gap the next poll waits: ${SAFETY_NET_STRETCH} while covered, else 1.`,
      resolve: (v) => (carrierPushStatus(v) === "ACTIVE" ? SAFETY_NET_STRETCH : 1),
    }),
    pollEveryHours: t.int({
      description:
        "How often the carrier is asked now: the refresh gap that applies (refreshGapHours) times pollStretch.",
      resolve: (v) =>
        Math.round((v.gapMs * (carrierPushStatus(v) === "ACTIVE" ? SAFETY_NET_STRETCH : 1)) / 3_600_000),
    }),
    nextPollAt: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "When the service next asks the carrier anyway (scheduledRefreshAt): stretched while covered; null when not scheduled.",
      resolve: (v) => v.nextPollAt,
    }),
  }),
});

const loaders = new WeakMap<GraphQLContext, DataLoader<SubscriptionKey, CarrierSubscriptionFacts | null>>();

/** The subscriptions of a page of shipments, asked once per request. */
function subscriptionLoader(
  ctx: GraphQLContext,
): DataLoader<SubscriptionKey, CarrierSubscriptionFacts | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((keys: readonly SubscriptionKey[]) =>
      subscriptionsOf(ctx.services.db.prepared, keys),
    );
    loaders.set(ctx, loader);
  }
  return loader;
}

builder.prismaObjectFields("Shipment", (t) => ({
  carrierPush: t.field({
    type: ShipmentCarrierPushRef,
    nullable: true,
    description:
      "The carrier's pushed updates for this shipment (DCSA event subscriptions, a carrier registry option); null when none is held or sought for its reference (the carrier is polled only).",
    resolve: async (s, _a, ctx) => {
      if (!s.carrierScac) return null;
      const row = await subscriptionLoader(ctx).load(
        subscriptionKeyOf({
          carrierScac: s.carrierScac,
          referenceType: s.referenceType,
          referenceKey: s.referenceKey,
        }),
      );
      if (!row) return null;
      const now = ctx.services.clock.now();
      answerValidUntil(refreshGapChangesAt(s.eta, now));
      return { ...row, nextPollAt: s.nextRefreshAt, gapMs: refreshGapMs(s.eta, now) };
    },
  }),
}));
