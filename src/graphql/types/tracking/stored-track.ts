import type { StoredLookupReceipt, TrackOutcome } from "../../../domain/tracking/tracking.service";
import { answerNotKept } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import { INTERNAL } from "../../schema-visibility";
import { ReferenceTypeEnum } from "./reference-type";
import { TrackSuccessRef } from "./track-success";

interface StoredTrack {
  outcome: Extract<TrackOutcome, { kind: "tracked" }>;
  receipt: StoredLookupReceipt;
}

const StoredTrackRef = builder.objectRef<StoredTrack>("StoredTrack").implement({
  description:
    "A lookup answered from the store without writing anything, and the receipt its lookup is logged with (`logStoredLookup`).",
  fields: (t) => ({
    tracked: t.field({ type: TrackSuccessRef, resolve: (s) => s.outcome }),
    receipt: t.string({ resolve: (s) => JSON.stringify(s.receipt) }),
  }),
});

builder.queryFields((t) => ({
  storedTrack: t.withAuth({ $all: { developerMode: true, writableKey: true } }).field({
    type: StoredTrackRef,
    nullable: true,
    description:
      "What `track` with mode SERVE_FRESH answers when the organisation tracks the reference and its stored document is fresh and changes nothing: a read, kept by the answer cache until the document turns 12 hours old. Null when `track` must run. The compat facade's stored answers (docs/decisions/read-path.md).",
    // The facades' read path, not a client's operation: absent from the schema `/graphql` serves.
    extensions: INTERNAL,
    args: {
      reference: t.arg.string({ required: true }),
      type: t.arg({ type: ReferenceTypeEnum, required: false }),
      carrier: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const peeked = await ctx.services.tracking.peekStored(ctx.principal, {
        reference: args.reference,
        type: args.type ?? undefined,
        carrier: args.carrier ?? undefined,
        surface: ctx.surface,
      });
      if (peeked?.outcome.kind !== "tracked") {
        answerNotKept();
        return null;
      }
      return { outcome: peeked.outcome, receipt: peeked.receipt };
    },
  }),
}));

builder.mutationFields((t) => ({
  logStoredLookup: t.withAuth({ $all: { developerMode: true, writableKey: true } }).boolean({
    description:
      "Logs the lookup a `storedTrack` answer served (its receipt) in the lookup log's next batch. False for a receipt that is not the caller's organisation's.",
    extensions: INTERNAL,
    args: { receipt: t.arg.string({ required: true }) },
    resolve: (_root, { receipt }, ctx) => {
      const parsed = receiptOf(receipt);
      return parsed !== null && ctx.services.tracking.logStoredLookup(ctx.principal, parsed, ctx.surface);
    },
  }),
}));

function receiptOf(text: string): StoredLookupReceipt | null {
  try {
    const value = JSON.parse(text) as Partial<StoredLookupReceipt>;
    const strings = [
      value.organizationId,
      value.reference,
      value.referenceType,
      value.referenceKey,
      value.carrierScac,
      value.documentVersionId,
    ];
    return strings.every((s) => typeof s === "string") ? (value as StoredLookupReceipt) : null;
  } catch {
    return null;
  }
}
