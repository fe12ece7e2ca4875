import { createHash } from "node:crypto";
import type { PrismaClient, QuoteRequest, QuoteRequestStatus } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Principal } from "../accounts/principal";
import { findCarrierByScac } from "../carriers/carrier-directory";
import { findPort } from "../ports/port-directory";
import { quoteRequestNumberOf } from "./numbers";

/** Container types a quote may be asked for (ISO 6346 size and type, as forwarders write them). */
export const QUOTE_CONTAINER_TYPES = [
  "20GP",
  "40GP",
  "40HC",
  "45HC",
  "20RF",
  "40RF",
  "20OT",
  "40OT",
  "20FR",
  "40FR",
  "20TK",
] as const;

export type QuoteEventKind = "quote_requested" | "booking_requested" | "quoted" | "declined" | "booked";

/**
 * The trade's names for the container types quotes are asked for: 40HQ and 40' HC are the 40HC, 20DV
 * and 22G1 (ISO 6346) the 20GP, and so on. Spaces, apostrophes and hyphens are ignored.
 */
const CONTAINER_TYPE_ALIASES: Record<string, (typeof QUOTE_CONTAINER_TYPES)[number]> = {
  "20DV": "20GP",
  "20DC": "20GP",
  "20ST": "20GP",
  "20SD": "20GP",
  "20DRY": "20GP",
  "22G1": "20GP",
  "40DV": "40GP",
  "40DC": "40GP",
  "40ST": "40GP",
  "40SD": "40GP",
  "40DRY": "40GP",
  "42G1": "40GP",
  "40HQ": "40HC",
  "40HCDV": "40HC",
  "40HDV": "40HC",
  "40HIGHCUBE": "40HC",
  "45G1": "40HC",
  "45HQ": "45HC",
  L5G1: "45HC",
  "20RE": "20RF",
  "20RH": "20RF",
  "22R1": "20RF",
  "40RE": "40RF",
  "42R1": "40RF",
  "20OP": "20OT",
  "22U1": "20OT",
  "40OP": "40OT",
  "42U1": "40OT",
  "20FL": "20FR",
  "22P1": "20FR",
  "40FL": "40FR",
  "42P1": "40FR",
  "20TN": "20TK",
  "22T1": "20TK",
};

/** The container type a quote request asks for, whatever the trade calls it; null when it is none. */
export function quoteContainerType(text: string): (typeof QUOTE_CONTAINER_TYPES)[number] | null {
  const code = text.replace(/[\s'’-]/g, "").toUpperCase();
  if ((QUOTE_CONTAINER_TYPES as readonly string[]).includes(code))
    return code as (typeof QUOTE_CONTAINER_TYPES)[number];
  return CONTAINER_TYPE_ALIASES[code] ?? null;
}

/** An identical request within this many days answers the first one instead of a new request. */
export const DUPLICATE_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface QuoteRequestInput {
  origin: string;
  destination: string;
  containerType: string;
  quantity: number;
  /** A calendar day, YYYY-MM-DD. */
  readyDate: string;
  commodity: string;
}

export interface QuoteInput {
  total: number;
  currency: string;
  validUntil: Date;
  carrierScac: string;
  transitDays: number;
}

export type QuoteRequestOutcome =
  | { kind: "created" | "duplicate"; request: QuoteRequest }
  | { kind: "invalid"; field: string; reason: string };

export type QuoteChange =
  | { kind: "done"; request: QuoteRequest }
  | { kind: "not_found" }
  | { kind: "invalid"; field: string; reason: string }
  | { kind: "wrong_status"; status: QuoteRequestStatus; reason: string };

/**
 * The status a request reads as now: a quote past its validity is expired (stored as QUOTED, so no job
 * has to run for it to expire on time).
 */
export function effectiveQuoteStatus(
  request: Pick<QuoteRequest, "status" | "quoteValidUntil">,
  now: Date,
): QuoteRequestStatus {
  if (request.status === "QUOTED" && request.quoteValidUntil && request.quoteValidUntil <= now) {
    return "EXPIRED";
  }
  return request.status;
}

/** The same request whatever its spelling: codes in capitals, the commodity's case and spacing ignored. */
export function quoteFingerprint(
  organizationId: string,
  input: Omit<QuoteRequestInput, "readyDate"> & { readyDate: Date },
): string {
  const commodity = input.commodity.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
  const parts = [
    organizationId,
    input.origin.toUpperCase(),
    input.destination.toUpperCase(),
    input.containerType.toUpperCase(),
    String(input.quantity),
    input.readyDate.toISOString().slice(0, 10),
    commodity,
  ];
  return createHash("sha256").update(parts.join("\u0000")).digest("hex");
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

function checkLocode(field: string, value: string): { field: string; reason: string } | null {
  const code = value.replace(/\s+/g, "").toUpperCase();
  if (!LOCODE.test(code)) {
    return { field, reason: `${value} is not a UN/LOCODE (two letters of country, three of place: CNSHA).` };
  }
  if (!findPort(code)) return { field, reason: `No port has the UN/LOCODE ${code}.` };
  return null;
}

/** Reads a calendar day; null when it is not one (2026-02-30 included). */
export function calendarDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const day = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text ? null : day;
}

/** Freight quote requests: organisations ask, the deployment's operator quotes, declines or books. */
export class QuoteRequestsService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      /** Mail both sides of a change (the notifications service); absent: nothing is mailed. */
      changed?: (kind: QuoteEventKind, request: QuoteRequest) => Promise<void>;
    },
  ) {}

  private async told<T extends QuoteRequestOutcome | QuoteChange>(
    kind: QuoteEventKind,
    outcome: T,
  ): Promise<T> {
    if ((outcome.kind === "done" || outcome.kind === "created") && "request" in outcome)
      await this.deps.changed?.(kind, outcome.request);
    return outcome;
  }

  async request(principal: Principal, input: QuoteRequestInput): Promise<QuoteRequestOutcome> {
    return this.told("quote_requested", await this.createRequest(principal, input));
  }

  private async createRequest(principal: Principal, input: QuoteRequestInput): Promise<QuoteRequestOutcome> {
    const now = this.deps.clock.now();
    const origin = input.origin.replace(/\s+/g, "").toUpperCase();
    const destination = input.destination.replace(/\s+/g, "").toUpperCase();
    const problem = checkLocode("origin", input.origin) ?? checkLocode("destination", input.destination);
    if (problem) return { kind: "invalid", ...problem };
    if (origin === destination) {
      return { kind: "invalid", field: "destination", reason: "The destination is the origin." };
    }
    const containerType = quoteContainerType(input.containerType);
    if (!containerType) {
      return {
        kind: "invalid",
        field: "containerType",
        reason: `${input.containerType} is not a container type: one of ${QUOTE_CONTAINER_TYPES.join(", ")} (or a trade name such as 40HQ, 20DV or 45G1).`,
      };
    }
    const readyDate = calendarDay(input.readyDate);
    if (!readyDate) {
      return {
        kind: "invalid",
        field: "readyDate",
        reason: `${input.readyDate} is not a day shaped YYYY-MM-DD.`,
      };
    }
    const today = new Date(now.toISOString().slice(0, 10));
    if (readyDate < today) {
      return { kind: "invalid", field: "readyDate", reason: "The ready date is in the past." };
    }
    if (readyDate.getTime() - today.getTime() > 365 * DAY_MS) {
      return { kind: "invalid", field: "readyDate", reason: "The ready date is more than a year away." };
    }
    const commodity = input.commodity.trim().replace(/\s+/g, " ");
    const organizationId = principal.organization.id;
    const fingerprint = quoteFingerprint(organizationId, {
      origin,
      destination,
      containerType,
      quantity: input.quantity,
      readyDate,
      commodity,
    });
    // One request at a time per fingerprint, so two identical requests sent together make one record.
    return this.deps.prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe("SELECT 1 FROM pg_advisory_xact_lock(hashtextextended($1, 0))", fingerprint);
      const first = await tx.quoteRequest.findFirst({
        where: {
          organizationId,
          fingerprint,
          createdAt: { gt: new Date(now.getTime() - DUPLICATE_WINDOW_DAYS * DAY_MS) },
        },
        orderBy: { createdAt: "asc" },
      });
      if (first) return { kind: "duplicate" as const, request: first };
      const created = await tx.quoteRequest.create({
        data: {
          organizationId,
          requestedByUserId: principal.user.id,
          originLocode: origin,
          destinationLocode: destination,
          containerType,
          quantity: input.quantity,
          readyDate,
          commodity,
          fingerprint,
          createdAt: now,
          updatedAt: now,
        },
      });
      return { kind: "created" as const, request: created };
    });
  }

  async findByNumber(organizationId: string, number: string): Promise<QuoteRequest | null> {
    const n = quoteRequestNumberOf(number);
    if (n === null) return null;
    return this.deps.prisma.quoteRequest.findUnique({
      where: { organizationId_number: { organizationId, number: n } },
    });
  }

  /** The organisation's requests, newest first. */
  async list(organizationId: string, limit = 50): Promise<{ requests: QuoteRequest[]; total: number }> {
    const [requests, total] = await Promise.all([
      this.deps.prisma.quoteRequest.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: "desc" }, { number: "desc" }],
        take: limit,
      }),
      this.deps.prisma.quoteRequest.count({ where: { organizationId } }),
    ]);
    return { requests, total };
  }

  /** The customer accepts a quote that is still valid: the operator is asked to book it. */
  async requestBooking(principal: Principal, number: string): Promise<QuoteChange> {
    const request = await this.findByNumber(principal.organization.id, number);
    if (!request) return { kind: "not_found" };
    const status = effectiveQuoteStatus(request, this.deps.clock.now());
    if (status !== "QUOTED") {
      return {
        kind: "wrong_status",
        status,
        reason: "Only a quoted request whose quote is still valid can be booked.",
      };
    }
    return this.told(
      "booking_requested",
      await this.update(request.id, {
        status: "BOOKING_REQUESTED",
        bookingRequestedAt: this.deps.clock.now(),
      }),
    );
  }

  // The operator's side: every organisation's requests, by row id.

  async listAll(
    options: { status?: QuoteRequestStatus | null; limit?: number } = {},
  ): Promise<QuoteRequest[]> {
    const now = this.deps.clock.now();
    const status = options.status;
    const where =
      status === "EXPIRED"
        ? {
            OR: [
              { status: "EXPIRED" as const },
              { status: "QUOTED" as const, quoteValidUntil: { lte: now } },
            ],
          }
        : status === "QUOTED"
          ? { status: "QUOTED" as const, quoteValidUntil: { gt: now } }
          : status
            ? { status }
            : {};
    return this.deps.prisma.quoteRequest.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: options.limit ?? 50,
    });
  }

  async quote(id: string, quote: QuoteInput): Promise<QuoteChange> {
    const request = await this.findById(id);
    if (!request) return { kind: "not_found" };
    const now = this.deps.clock.now();
    const status = effectiveQuoteStatus(request, now);
    if (!["PENDING", "QUOTED", "EXPIRED"].includes(status)) {
      return {
        kind: "wrong_status",
        status,
        reason: "Only a pending, quoted or expired request can be quoted.",
      };
    }
    const currency = quote.currency.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      return { kind: "invalid", field: "currency", reason: "The currency is an ISO 4217 code such as USD." };
    }
    if (!(quote.total > 0) || quote.total >= 1e12) {
      return { kind: "invalid", field: "total", reason: "The total is a positive amount." };
    }
    if (quote.validUntil <= now) {
      return { kind: "invalid", field: "validUntil", reason: "The quote's validity must end in the future." };
    }
    const scac = quote.carrierScac.trim().toUpperCase();
    if (!findCarrierByScac(scac)) {
      return {
        kind: "invalid",
        field: "carrierScac",
        reason: `${quote.carrierScac} is not a known carrier code.`,
      };
    }
    if (!Number.isInteger(quote.transitDays) || quote.transitDays < 1 || quote.transitDays > 120) {
      return {
        kind: "invalid",
        field: "transitDays",
        reason: "Transit days are a whole number from 1 to 120.",
      };
    }
    return this.told(
      "quoted",
      await this.update(id, {
        status: "QUOTED",
        quoteTotal: Math.round(quote.total * 100) / 100,
        quoteCurrency: currency,
        quoteValidUntil: quote.validUntil,
        quoteCarrierScac: scac,
        quoteTransitDays: quote.transitDays,
        quotedAt: now,
        declineReason: null,
      }),
    );
  }

  async decline(id: string, reason: string | null): Promise<QuoteChange> {
    const request = await this.findById(id);
    if (!request) return { kind: "not_found" };
    const status = effectiveQuoteStatus(request, this.deps.clock.now());
    if (!["PENDING", "QUOTED", "EXPIRED"].includes(status)) {
      return {
        kind: "wrong_status",
        status,
        reason: "A request asked for booking or booked cannot be declined.",
      };
    }
    return this.told(
      "declined",
      await this.update(id, { status: "DECLINED", declineReason: reason?.trim() || null }),
    );
  }

  async markBooked(id: string, bookingReference: string): Promise<QuoteChange> {
    const request = await this.findById(id);
    if (!request) return { kind: "not_found" };
    if (request.status !== "BOOKING_REQUESTED") {
      return {
        kind: "wrong_status",
        status: effectiveQuoteStatus(request, this.deps.clock.now()),
        reason: "Only a request whose booking was asked for can be booked.",
      };
    }
    return this.told(
      "booked",
      await this.update(id, {
        status: "BOOKED",
        bookedAt: this.deps.clock.now(),
        bookingReference: bookingReference.trim(),
      }),
    );
  }

  private async findById(id: string): Promise<QuoteRequest | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    return this.deps.prisma.quoteRequest.findUnique({ where: { id } });
  }

  private async update(
    id: string,
    data: Parameters<PrismaClient["quoteRequest"]["update"]>[0]["data"],
  ): Promise<QuoteChange> {
    const request = await this.deps.prisma.quoteRequest.update({
      where: { id },
      data: { ...data, updatedAt: this.deps.clock.now() },
    });
    return { kind: "done", request };
  }
}
