import { z } from "zod";
import { findCarrierByScac } from "../../domain/carriers/carrier-directory";
import { HISTORY_LIMIT } from "../../domain/history/tracking-history.service";
import type { ParsedReference } from "../../domain/references/reference";
import type { TrackingLookup } from "../../generated/prisma/client";
import { builder } from "../builder";
import { publicError } from "../errors";
import { CarrierRef } from "./carrier";
import { ReferenceTypeEnum, TrackingDocumentRef } from "./tracking";

const TrackingLookupRef = builder.objectRef<TrackingLookup>("TrackingLookup").implement({
  description:
    "One logged track of a reference (compat `/history` entry): who asked is the organisation; the document is the exact stored version the call was answered with.",
  fields: (t) => ({
    id: t.int({
      description:
        "The history id (compat `/history?id=`): numbered per organisation, 1 for its first logged call.",
      resolve: (l) => l.number,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the call was answered." }),
    surface: t.exposeString("surface", { description: "compat, v1, graphql, mcp or job." }),
    reference: t.exposeString("reference", { description: "The reference as looked up." }),
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (l) => l.referenceType }),
    carrierScac: t.exposeString("carrierScac", { nullable: true, description: "The carrier that answered." }),
    carrier: t.field({
      type: CarrierRef,
      nullable: true,
      resolve: (l, _a, ctx) =>
        l.carrierScac ? (findCarrierByScac(l.carrierScac, ctx.services.carriers) ?? null) : null,
    }),
    outcome: t.exposeString("outcome", { description: "tracked, stale or not_found." }),
    fromCache: t.exposeBoolean("fromCache", { description: "Answered from the store, not fetched then." }),
    document: t.field({
      type: TrackingDocumentRef,
      nullable: true,
      description: "The stored document version the call was answered with (null for a refusal).",
      resolve: (l, _a, ctx) => ctx.services.history.documentOf(l),
    }),
  }),
});

const TrackingHistoryRef = builder
  .objectRef<{ reference: ParsedReference; lookups: TrackingLookup[] }>("TrackingHistory")
  .implement({
    description: "The organisation's answered tracks of one reference, oldest first.",
    fields: (t) => ({
      reference: t.string({
        description: "The reference as parsed (a combined value's document part).",
        resolve: (h) => h.reference.number,
      }),
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (h) => h.reference.type }),
      lookups: t.field({
        type: [TrackingLookupRef],
        description: `The newest calls (at most ${HISTORY_LIMIT}), oldest first.`,
        args: { limit: t.arg.int({ required: false, defaultValue: HISTORY_LIMIT }) },
        resolve: (h, { limit }) =>
          h.lookups.slice(-Math.max(1, Math.min(limit ?? HISTORY_LIMIT, HISTORY_LIMIT))),
      }),
      latest: t.field({
        type: TrackingLookupRef,
        nullable: true,
        description: "The newest call, null when the reference was never answered for the organisation.",
        resolve: (h) => h.lookups.at(-1) ?? null,
      }),
    }),
  });

builder.queryFields((t) => ({
  trackingHistory: t.field({
    type: TrackingHistoryRef,
    nullable: true,
    description:
      "The organisation's tracks of a reference that were answered with a document, on every surface (compat `/history`). An invalid reference is BAD_USER_INPUT with `field: reference`.",
    authScopes: { developerMode: true },
    args: {
      reference: t.arg.string({ required: true, validate: z.string().trim().min(1).max(100) }),
      type: t.arg({ type: ReferenceTypeEnum, required: false, description: "Detected when absent." }),
      carrier: t.arg.string({ required: false, description: "Only calls answered by this SCAC." }),
    },
    resolve: async (_root, args, ctx) => {
      const list = await ctx.services.history.list(ctx.principal!.organization.id, {
        reference: args.reference,
        type: args.type ?? undefined,
        carrier: args.carrier ?? undefined,
      });
      if (!list.ok) throw publicError("BAD_USER_INPUT", list.message, { field: "reference" });
      return list;
    },
  }),
  trackingLookup: t.field({
    type: TrackingLookupRef,
    nullable: true,
    description:
      "One logged call by its history id; null when it is not the organisation's, or not a call about `reference` (of `type`) when those are given.",
    authScopes: { developerMode: true },
    args: {
      id: t.arg.int({ required: true }),
      reference: t.arg.string({ required: false }),
      type: t.arg({ type: ReferenceTypeEnum, required: false }),
    },
    resolve: (_root, { id, reference, type }, ctx) =>
      ctx.services.history.lookup(ctx.principal!.organization.id, id, {
        reference: reference ?? undefined,
        type: type ?? undefined,
      }),
  }),
}));
