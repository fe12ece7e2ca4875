import { z } from "zod";
import { ticketNumber } from "../../../domain/workspace/numbers";
import type { TicketChange, TicketWithReplies } from "../../../domain/workspace/tickets.service";
import type { SupportTicketReply } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";

export const TicketStatusEnum = builder.enumType("TicketStatus", {
  description:
    "Where a ticket stands (Zendesk's statuses): NEW (nobody answered yet), OPEN (support is on it), PENDING (waiting on you), ON_HOLD (waiting on a third party), SOLVED, CLOSED (final).",
  values: ["NEW", "OPEN", "PENDING", "ON_HOLD", "SOLVED", "CLOSED"] as const,
});
export const TicketTypeEnum = builder.enumType("TicketType", {
  values: ["QUESTION", "INCIDENT", "PROBLEM", "TASK"] as const,
});
export const TicketPriorityEnum = builder.enumType("TicketPriority", {
  values: ["LOW", "NORMAL", "HIGH", "URGENT"] as const,
});

const TicketReplyRef = builder.objectRef<SupportTicketReply>("TicketReply").implement({
  description: "A reply on a ticket.",
  fields: (t) => ({
    author: t.exposeString("author", { description: "customer or staff." }),
    authorName: t.exposeString("authorName", {
      description: "The teammate's name, or Quayside support for staff.",
    }),
    body: t.exposeString("body"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const SupportTicketRef = builder.objectRef<TicketWithReplies>("SupportTicket").implement({
  description: "A support ticket of the organisation, answered by the operator of this deployment.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The row id the operator answers by." }),
    ticketNumber: t.string({
      description: "TCK-<digits>, numbered per organisation: its first ticket is TCK-1.",
      resolve: (ticket) => ticketNumber(ticket.number),
    }),
    subject: t.exposeString("subject"),
    body: t.exposeString("body"),
    type: t.field({ type: TicketTypeEnum, resolve: (ticket) => ticket.type }),
    priority: t.field({ type: TicketPriorityEnum, resolve: (ticket) => ticket.priority }),
    status: t.field({ type: TicketStatusEnum, resolve: (ticket) => ticket.status }),
    relatedReference: t.exposeString("relatedReference", {
      nullable: true,
      description: "The shipment reference given when it was opened.",
    }),
    organizationName: t.string({
      description: "The organisation that opened it (for the operator's queue).",
      resolve: (ticket) => ticket.organization.name,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    lastReplyAt: t.expose("lastReplyAt", { type: "DateTime", nullable: true }),
    lastReplyBy: t.exposeString("lastReplyBy", { nullable: true, description: "customer or staff." }),
    replies: t.field({ type: [TicketReplyRef], resolve: (ticket) => ticket.replies }),
  }),
});

function ticketOf(change: TicketChange): TicketWithReplies {
  switch (change.kind) {
    case "done":
      return change.ticket;
    case "not_found":
      throw publicError("NOT_FOUND", "Your organisation has no such ticket.");
    case "shipment_not_found":
      throw publicError("NOT_FOUND", `No shipment ${change.reference} is tracked by your organisation.`, {
        reason: "shipment_not_found",
      });
    case "closed":
      throw publicError("BAD_USER_INPUT", "The ticket is closed: open a new one.", {
        reason: "ticket_closed",
      });
    case "invalid_status":
      throw publicError("BAD_USER_INPUT", change.reason, { reason: "invalid_status" });
  }
}

const body = z.string().trim().min(1, "the body is empty").max(20_000);
const OPERATOR_SCOPES = { $all: { developerMode: true, writableKey: true, operator: true } } as const;

builder.queryFields((t) => ({
  tickets: t.withAuth({ developerMode: true }).field({
    type: [SupportTicketRef],
    description: "The organisation's support tickets, most recently changed first (at most 100).",
    extensions: { listSize: 100 },
    args: {
      status: t.arg({ type: TicketStatusEnum, required: false }),
      limit: t.arg.int({ required: false, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (_r, { status, limit }, ctx) =>
      ctx.services.tickets.list(ctx.principal.organization.id, { status, limit: limit ?? 50 }),
  }),
  ticket: t.withAuth({ developerMode: true }).field({
    type: SupportTicketRef,
    nullable: true,
    description: "One of the organisation's tickets by number (TCK-<digits>); null when it has none.",
    args: { ticketNumber: t.arg.string({ required: true, validate: z.string().trim().min(1).max(40) }) },
    resolve: (_r, { ticketNumber }, ctx) =>
      ctx.services.tickets.findByNumber(ctx.principal.organization.id, ticketNumber),
  }),
  operatorTickets: t.field({
    type: [SupportTicketRef],
    description:
      "Every organisation's tickets, most recently changed first: the support queue of the organisation that operates this deployment (others get OPERATOR_REQUIRED).",
    authScopes: { $all: { developerMode: true, operator: true } },
    extensions: { listSize: 100 },
    args: {
      status: t.arg({ type: TicketStatusEnum, required: false }),
      limit: t.arg.int({ required: false, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (_r, { status, limit }, ctx) => ctx.services.tickets.listAll({ status, limit: limit ?? 50 }),
  }),
}));

builder.mutationFields((t) => ({
  openTicket: t.withAuth(WRITE_SCOPES).field({
    type: SupportTicketRef,
    description: "Opens a support ticket (status NEW), optionally about one of the organisation's shipments.",
    args: {
      subject: t.arg.string({
        required: true,
        validate: z.string().trim().min(1, "the subject is empty").max(200),
      }),
      body: t.arg.string({ required: true, validate: body }),
      type: t.arg({ type: TicketTypeEnum, required: true }),
      priority: t.arg({ type: TicketPriorityEnum, required: false, description: "NORMAL when not given." }),
      shipmentReference: t.arg.string({ required: false, validate: z.string().trim().max(100) }),
    },
    resolve: async (_r, args, ctx) => ticketOf(await ctx.services.tickets.open(ctx.principal, args)),
  }),
  replyToTicket: t.withAuth(WRITE_SCOPES).field({
    type: SupportTicketRef,
    description:
      "Adds the organisation's reply: a pending, on-hold or solved ticket opens again; a closed one takes no replies.",
    args: {
      ticketNumber: t.arg.string({ required: true, validate: z.string().trim().min(1).max(40) }),
      body: t.arg.string({ required: true, validate: body }),
    },
    resolve: async (_r, { ticketNumber, body }, ctx) =>
      ticketOf(await ctx.services.tickets.replyAsCustomer(ctx.principal, ticketNumber, body)),
  }),
  answerTicket: t.field({
    type: SupportTicketRef,
    description:
      "The operator's reply to any organisation's ticket, by row id; the ticket becomes PENDING (waiting on the customer) unless another status is given. Operator keys only.",
    authScopes: OPERATOR_SCOPES,
    args: {
      id: t.arg.id({ required: true }),
      body: t.arg.string({ required: true, validate: body }),
      status: t.arg({ type: TicketStatusEnum, required: false }),
    },
    resolve: async (_r, { id, body, status }, ctx) =>
      ticketOf(await ctx.services.tickets.replyAsStaff(String(id), body, status ?? null)),
  }),
  setTicketStatus: t.field({
    type: SupportTicketRef,
    description:
      "The operator moves a ticket (never back to NEW, CLOSED only once SOLVED, nothing after CLOSED). Operator keys only.",
    authScopes: OPERATOR_SCOPES,
    args: { id: t.arg.id({ required: true }), status: t.arg({ type: TicketStatusEnum, required: true }) },
    resolve: async (_r, { id, status }, ctx) =>
      ticketOf(await ctx.services.tickets.setStatus(String(id), status)),
  }),
}));
