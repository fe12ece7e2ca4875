import type {
  Prisma,
  PrismaClient,
  SupportTicket,
  SupportTicketReply,
  TicketPriority,
  TicketStatus,
  TicketType,
} from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Principal } from "../accounts/principal";
import { shipmentIdWhere } from "../shipments/shipment-id";
import { ticketNumberOf } from "./numbers";

export type TicketWithReplies = SupportTicket & {
  replies: SupportTicketReply[];
  organization: { name: string };
};

export type TicketChange =
  | { kind: "done"; ticket: TicketWithReplies }
  | { kind: "not_found" }
  | { kind: "shipment_not_found"; reference: string }
  | { kind: "closed" }
  | { kind: "invalid_status"; reason: string };

const WITH_REPLIES = {
  replies: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] },
  organization: { select: { name: true as const } },
} satisfies Prisma.SupportTicketInclude;

/** What a staff reply is signed with: customers see the support desk, not the operator's people. */
export const STAFF_AUTHOR_NAME = "Quayside support";

/**
 * Where a ticket goes when the customer writes (Zendesk's rules): a ticket nobody has answered yet stays
 * new; one waiting on the customer (pending), on hold or solved opens again. A closed ticket takes no
 * more replies.
 */
export function statusAfterCustomerReply(status: TicketStatus): TicketStatus | "closed" {
  if (status === "CLOSED") return "closed";
  return status === "NEW" ? "NEW" : "OPEN";
}

/**
 * Whether the operator may move a ticket from one status to another: never back to new, never out of
 * closed, and closed only once solved (a solved ticket the customer does not reopen is then closed).
 */
export function operatorTransition(from: TicketStatus, to: TicketStatus): string | null {
  if (from === "CLOSED") return "The ticket is closed: it can no longer change.";
  if (to === "NEW" && from !== "NEW") return "A ticket that was answered cannot become new again.";
  if (to === "CLOSED" && from !== "SOLVED") return "Only a solved ticket can be closed.";
  return null;
}

/** Support tickets: organisations open and reply to their own; the deployment's operator answers all. */
export class TicketsService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      /** Mail both sides of a change (the notifications service); absent: nothing is mailed. */
      changed?: (
        kind: "ticket_opened" | "ticket_customer_reply" | "ticket_answered" | "ticket_status",
        ticket: TicketWithReplies,
      ) => Promise<void>;
    },
  ) {}

  private async told(
    kind: "ticket_opened" | "ticket_customer_reply" | "ticket_answered" | "ticket_status",
    change: TicketChange,
  ): Promise<TicketChange> {
    if (change.kind === "done") await this.deps.changed?.(kind, change.ticket);
    return change;
  }

  async open(
    principal: Principal,
    input: {
      subject: string;
      body: string;
      type: TicketType;
      priority?: TicketPriority | null;
      shipmentReference?: string | null;
    },
  ): Promise<TicketChange> {
    const organizationId = principal.organization.id;
    let shipmentId: string | null = null;
    const reference = input.shipmentReference?.trim() || null;
    if (reference) {
      const shipment = await this.deps.prisma.shipment.findFirst({
        where: shipmentIdWhere(organizationId, reference),
        select: { id: true },
        orderBy: { createdAt: "desc" },
      });
      if (!shipment) return { kind: "shipment_not_found", reference };
      shipmentId = shipment.id;
    }
    const now = this.deps.clock.now();
    const created = await this.deps.prisma.supportTicket.create({
      data: {
        organizationId,
        openedByUserId: principal.user.id,
        subject: input.subject.trim(),
        body: input.body.trim(),
        type: input.type,
        priority: input.priority ?? "NORMAL",
        relatedReference: reference,
        shipmentId,
        createdAt: now,
        updatedAt: now,
      },
      include: WITH_REPLIES,
    });
    return this.told("ticket_opened", { kind: "done", ticket: created });
  }

  /** The organisation's ticket by its number (`TCK-<n>`), or null (another organisation's too). */
  async findByNumber(organizationId: string, ticketNumber: string): Promise<TicketWithReplies | null> {
    const number = ticketNumberOf(ticketNumber);
    if (number === null) return null;
    return this.deps.prisma.supportTicket.findUnique({
      where: { organizationId_number: { organizationId, number } },
      include: WITH_REPLIES,
    });
  }

  /** The organisation's tickets, most recently changed first. */
  async list(
    organizationId: string,
    options: { status?: TicketStatus | null; limit?: number } = {},
  ): Promise<TicketWithReplies[]> {
    return this.deps.prisma.supportTicket.findMany({
      where: { organizationId, ...(options.status ? { status: options.status } : {}) },
      include: WITH_REPLIES,
      orderBy: [{ updatedAt: "desc" }, { number: "desc" }],
      take: options.limit ?? 50,
    });
  }

  async replyAsCustomer(principal: Principal, ticketNumber: string, body: string): Promise<TicketChange> {
    const ticket = await this.findByNumber(principal.organization.id, ticketNumber);
    if (!ticket) return { kind: "not_found" };
    const status = statusAfterCustomerReply(ticket.status);
    if (status === "closed") return { kind: "closed" };
    return this.told(
      "ticket_customer_reply",
      await this.addReply(ticket, { author: "customer", authorName: principal.user.name, body, status }),
    );
  }

  // The operator's side: every organisation's tickets, found by their row id.

  async listAll(
    options: { status?: TicketStatus | null; limit?: number } = {},
  ): Promise<TicketWithReplies[]> {
    return this.deps.prisma.supportTicket.findMany({
      where: options.status ? { status: options.status } : {},
      include: WITH_REPLIES,
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      take: options.limit ?? 50,
    });
  }

  async replyAsStaff(id: string, body: string, status: TicketStatus | null): Promise<TicketChange> {
    const ticket = await this.findById(id);
    if (!ticket) return { kind: "not_found" };
    // Answered, the ticket waits on the customer unless the operator says otherwise.
    const next = status ?? "PENDING";
    const refused = operatorTransition(ticket.status, next);
    if (refused)
      return ticket.status === "CLOSED" ? { kind: "closed" } : { kind: "invalid_status", reason: refused };
    return this.told(
      "ticket_answered",
      await this.addReply(ticket, { author: "staff", authorName: STAFF_AUTHOR_NAME, body, status: next }),
    );
  }

  async setStatus(id: string, status: TicketStatus): Promise<TicketChange> {
    const ticket = await this.findById(id);
    if (!ticket) return { kind: "not_found" };
    const refused = operatorTransition(ticket.status, status);
    if (refused)
      return ticket.status === "CLOSED" ? { kind: "closed" } : { kind: "invalid_status", reason: refused };
    const updated = await this.deps.prisma.supportTicket.update({
      where: { id },
      data: { status, updatedAt: this.deps.clock.now() },
      include: WITH_REPLIES,
    });
    return this.told("ticket_status", { kind: "done", ticket: updated });
  }

  private async findById(id: string): Promise<TicketWithReplies | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    return this.deps.prisma.supportTicket.findUnique({ where: { id }, include: WITH_REPLIES });
  }

  private async addReply(
    ticket: SupportTicket,
    reply: { author: "customer" | "staff"; authorName: string; body: string; status: TicketStatus },
  ): Promise<TicketChange> {
    const now = this.deps.clock.now();
    const updated = await this.deps.prisma.supportTicket.update({
      where: { id: ticket.id },
      data: {
        status: reply.status,
        lastReplyAt: now,
        lastReplyBy: reply.author,
        updatedAt: now,
        replies: {
          create: {
            author: reply.author,
            authorName: reply.authorName,
            body: reply.body.trim(),
            createdAt: now,
          },
        },
      },
      include: WITH_REPLIES,
    });
    return { kind: "done", ticket: updated };
  }
}
