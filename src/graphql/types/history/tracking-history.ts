import { z } from "zod";
import { HISTORY_LIMIT } from "../../../domain/history/tracking-history.service";
import type { ParsedReference } from "../../../domain/references/reference";
import type { TrackingLookup } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { TrackingLookupRef } from "./tracking-lookup";

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
  trackingHistory: t.withAuth({ developerMode: true }).field({
    type: TrackingHistoryRef,
    nullable: true,
    description:
      "The organisation's tracks of a reference that were answered with a document, on every surface (compat `/history`). An invalid reference is BAD_USER_INPUT with `field: reference`.",
    args: {
      reference: t.arg.string({ required: true, validate: z.string().trim().min(1).max(100) }),
      type: t.arg({ type: ReferenceTypeEnum, required: false, description: "Detected when absent." }),
      carrier: t.arg.string({ required: false, description: "Only calls answered by this SCAC." }),
    },
    resolve: async (_root, args, ctx) => {
      const list = await ctx.services.history.list(ctx.principal.organization.id, {
        reference: args.reference,
        type: args.type ?? undefined,
        carrier: args.carrier ?? undefined,
      });
      if (!list.ok) throw publicError("BAD_USER_INPUT", list.message, { field: "reference" });
      return list;
    },
  }),
}));
