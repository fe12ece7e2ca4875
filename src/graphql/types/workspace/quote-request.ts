import { z } from "zod";
import { findPort } from "../../../domain/ports/port-directory";
import { quoteRequestNumber } from "../../../domain/workspace/numbers";
import {
  effectiveQuoteStatus,
  QUOTE_CONTAINER_TYPES,
  type QuoteChange,
} from "../../../domain/workspace/quote-requests.service";
import type { QuoteRequest } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";

export const QuoteRequestStatusEnum = builder.enumType("QuoteRequestStatus", {
  description:
    "PENDING (waiting for a quote; do not ask again), QUOTED, DECLINED, EXPIRED (the quote's validity ended), BOOKING_REQUESTED, BOOKED.",
  values: ["PENDING", "QUOTED", "DECLINED", "EXPIRED", "BOOKING_REQUESTED", "BOOKED"] as const,
});

const QuoteRef = builder.objectRef<QuoteRequest>("FreightQuote").implement({
  description: "The operator's quote for a request.",
  fields: (t) => ({
    total: t.float({
      description: "All-in price for the whole request.",
      resolve: (r) => Number(r.quoteTotal),
    }),
    currency: t.string({ description: "ISO 4217.", resolve: (r) => r.quoteCurrency! }),
    validUntil: t.field({ type: "DateTime", resolve: (r) => r.quoteValidUntil! }),
    carrierScac: t.string({ resolve: (r) => r.quoteCarrierScac! }),
    transitDays: t.int({ resolve: (r) => r.quoteTransitDays! }),
    quotedAt: t.field({ type: "DateTime", resolve: (r) => r.quotedAt! }),
  }),
});

export const QuoteRequestRef = builder.objectRef<QuoteRequest>("QuoteRequest").implement({
  description: "A request for a freight quote, quoted by the operator of this deployment.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The row id the operator answers by." }),
    requestNumber: t.string({
      description: "RFQ-<digits>, numbered per organisation.",
      resolve: (r) => quoteRequestNumber(r.number),
    }),
    status: t.field({
      type: QuoteRequestStatusEnum,
      resolve: (r, _a, ctx) => effectiveQuoteStatus(r, ctx.services.clock.now()),
    }),
    origin: t.exposeString("originLocode", { description: "UN/LOCODE." }),
    destination: t.exposeString("destinationLocode", { description: "UN/LOCODE." }),
    originName: t.string({
      nullable: true,
      description:
        "The origin port's name from the port directory; null when the directory does not have it.",
      resolve: (r) => findPort(r.originLocode)?.name ?? null,
    }),
    destinationName: t.string({
      nullable: true,
      description:
        "The destination port's name from the port directory; null when the directory does not have it.",
      resolve: (r) => findPort(r.destinationLocode)?.name ?? null,
    }),
    containerType: t.exposeString("containerType"),
    quantity: t.exposeInt("quantity"),
    readyDate: t.string({
      description: "YYYY-MM-DD.",
      resolve: (r) => r.readyDate.toISOString().slice(0, 10),
    }),
    commodity: t.exposeString("commodity"),
    quote: t.field({
      type: QuoteRef,
      nullable: true,
      description: "The quote, once given (kept after it expires or is booked).",
      resolve: (r) => (r.quotedAt && r.quoteTotal !== null ? r : null),
    }),
    declineReason: t.exposeString("declineReason", { nullable: true }),
    bookingReference: t.exposeString("bookingReference", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const QuoteRequestPayload = builder
  .objectRef<{ request: QuoteRequest; duplicate: boolean }>("RequestQuotePayload")
  .implement({
    fields: (t) => ({
      request: t.field({ type: QuoteRequestRef, resolve: (p) => p.request }),
      duplicate: t.exposeBoolean("duplicate", {
        description: "True when an identical request of the last 30 days was answered instead of a new one.",
      }),
    }),
  });

function requestOf(change: QuoteChange): QuoteRequest {
  switch (change.kind) {
    case "done":
      return change.request;
    case "not_found":
      throw publicError("NOT_FOUND", "No such quote request.");
    case "invalid":
      throw publicError("BAD_USER_INPUT", change.reason, { field: change.field });
    case "wrong_status":
      throw publicError("BAD_USER_INPUT", `${change.reason} It is ${change.status}.`, {
        reason: "invalid_status",
        status: change.status,
      });
  }
}

const OPERATOR_SCOPES = { $all: { developerMode: true, writableKey: true, operator: true } } as const;
const requestNumber = z.string().trim().min(1).max(40);

builder.queryFields((t) => ({
  quoteRequests: t.withAuth({ developerMode: true }).field({
    type: [QuoteRequestRef],
    description: "The organisation's quote requests, newest first (at most 100).",
    extensions: { listSize: 100 },
    args: { limit: t.arg.int({ required: false, validate: z.number().int().min(1).max(100) }) },
    resolve: async (_r, { limit }, ctx) =>
      (await ctx.services.quoteRequests.list(ctx.principal.organization.id, limit ?? 50)).requests,
  }),
  quoteRequestCount: t.withAuth({ developerMode: true }).int({
    description: "How many quote requests the organisation has made in all.",
    resolve: async (_r, _a, ctx) =>
      (await ctx.services.quoteRequests.list(ctx.principal.organization.id, 0)).total,
  }),
  quoteRequest: t.withAuth({ developerMode: true }).field({
    type: QuoteRequestRef,
    nullable: true,
    description: "One of the organisation's requests by number (RFQ-<digits>); null when it has none.",
    args: { requestNumber: t.arg.string({ required: true, validate: requestNumber }) },
    resolve: (_r, { requestNumber }, ctx) =>
      ctx.services.quoteRequests.findByNumber(ctx.principal.organization.id, requestNumber),
  }),
  operatorQuoteRequests: t.field({
    type: [QuoteRequestRef],
    description:
      "Every organisation's quote requests, newest first: the queue of the organisation that operates this deployment (others get OPERATOR_REQUIRED).",
    authScopes: { $all: { developerMode: true, operator: true } },
    extensions: { listSize: 100 },
    args: {
      status: t.arg({ type: QuoteRequestStatusEnum, required: false }),
      limit: t.arg.int({ required: false, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (_r, { status, limit }, ctx) =>
      ctx.services.quoteRequests.listAll({ status, limit: limit ?? 50 }),
  }),
}));

builder.mutationFields((t) => ({
  requestQuote: t.withAuth(WRITE_SCOPES).field({
    type: QuoteRequestPayload,
    description:
      "Asks for a freight quote. An identical request (same ports, container type, quantity, ready date and commodity) made in the last 30 days is answered instead, with duplicate: true.",
    args: {
      origin: t.arg.string({
        required: true,
        description: "UN/LOCODE, e.g. CNSHA.",
        validate: z.string().max(10),
      }),
      destination: t.arg.string({
        required: true,
        description: "UN/LOCODE, e.g. NLRTM.",
        validate: z.string().max(10),
      }),
      containerType: t.arg.string({
        required: true,
        description: `One of ${QUOTE_CONTAINER_TYPES.join(", ")}, or a trade name for one (40HQ, 40' HC, 45HQ, 20DV, ISO 6346 codes such as 45G1); stored as the canonical type.`,
        validate: z.string().max(10),
      }),
      quantity: t.arg.int({ required: true, validate: z.number().int().min(1).max(500) }),
      readyDate: t.arg.string({
        required: true,
        description: "YYYY-MM-DD, today or later.",
        validate: z.string().max(10),
      }),
      commodity: t.arg.string({
        required: true,
        validate: z.string().trim().min(2, "name the commodity").max(200),
      }),
    },
    resolve: async (_r, args, ctx) => {
      const outcome = await ctx.services.quoteRequests.request(ctx.principal, args);
      if (outcome.kind === "invalid") {
        throw publicError("BAD_USER_INPUT", outcome.reason, { field: outcome.field });
      }
      return { request: outcome.request, duplicate: outcome.kind === "duplicate" };
    },
  }),
  requestBooking: t.withAuth(WRITE_SCOPES).field({
    type: QuoteRequestRef,
    description: "Accepts a quote that is still valid: the request becomes BOOKING_REQUESTED.",
    args: { requestNumber: t.arg.string({ required: true, validate: requestNumber }) },
    resolve: async (_r, { requestNumber }, ctx) =>
      requestOf(await ctx.services.quoteRequests.requestBooking(ctx.principal, requestNumber)),
  }),
  quoteFreight: t.field({
    type: QuoteRequestRef,
    description:
      "The operator quotes a pending (or re-quotes a quoted or expired) request, by row id. Operator keys only.",
    authScopes: OPERATOR_SCOPES,
    args: {
      id: t.arg.id({ required: true }),
      total: t.arg.float({ required: true }),
      currency: t.arg.string({ required: true, validate: z.string().max(3) }),
      validUntil: t.arg({ type: "DateTime", required: true }),
      carrierScac: t.arg.string({ required: true, validate: z.string().max(4) }),
      transitDays: t.arg.int({ required: true }),
    },
    resolve: async (_r, { id, ...quote }, ctx) =>
      requestOf(await ctx.services.quoteRequests.quote(String(id), quote)),
  }),
  declineQuoteRequest: t.field({
    type: QuoteRequestRef,
    description: "The operator declines a request. Operator keys only.",
    authScopes: OPERATOR_SCOPES,
    args: {
      id: t.arg.id({ required: true }),
      reason: t.arg.string({ required: false, validate: z.string().max(500) }),
    },
    resolve: async (_r, { id, reason }, ctx) =>
      requestOf(await ctx.services.quoteRequests.decline(String(id), reason ?? null)),
  }),
  markQuoteRequestBooked: t.field({
    type: QuoteRequestRef,
    description:
      "The operator records the booking of a request whose booking was asked for. Operator keys only.",
    authScopes: OPERATOR_SCOPES,
    args: {
      id: t.arg.id({ required: true }),
      bookingReference: t.arg.string({ required: true, validate: z.string().trim().min(1).max(60) }),
    },
    resolve: async (_r, { id, bookingReference }, ctx) =>
      requestOf(await ctx.services.quoteRequests.markBooked(String(id), bookingReference)),
  }),
}));
