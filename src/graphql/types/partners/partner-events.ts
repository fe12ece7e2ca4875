import { MAX_PARTNER_EVENTS, type PartnerEventResult } from "../../../domain/partners/partners.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";
import { partnerSourceNotFound } from "./partner-source";

export const PartnerEventInput = builder.inputType("PartnerEventInput", {
  description:
    "One event of a partner, close to a DCSA Track & Trace equipment or transport event, or a position fix. Fields are checked per event: a bad one is refused alone (outcome INVALID) and the rest of the batch counts.",
  fields: (t) => ({
    eventId: t.string({
      required: true,
      description: "The sender's own id of the event: a second copy is a replay and changes nothing.",
    }),
    eventType: t.string({ required: true, description: "EQUIPMENT, TRANSPORT or POSITION." }),
    eventCode: t.string({
      description:
        "EQUIPMENT: GTOT (gate-out; LADEN from the port is the pickup), GTIN (gate-in; EMPTY is the empty return), PICK, DROP. TRANSPORT: DEPA or ARRI of a truck, train or barge.",
    }),
    eventClassifierCode: t.string({ description: "ACT (it happened; the default) or EST (expected)." }),
    eventDateTime: t.string({
      required: true,
      description: "ISO 8601 with the offset, e.g. 2026-11-20T14:30:00+01:00.",
    }),
    shipment: t.string({ required: true, description: "A shipment id (SHP-12) or the tracked reference." }),
    equipmentReference: t.string({
      description: "The container number; needed when the shipment has more than one box.",
    }),
    emptyIndicatorCode: t.string({ description: "EMPTY or LADEN." }),
    modeOfTransport: t.string({ description: "TRUCK, RAIL or BARGE; required for TRANSPORT events." }),
    facilityTypeCode: t.string({
      description:
        "CLOC (the consignee's place: an ARRI or DROP there is the delivery), DEPO, INTE, RAMP or POTE.",
    }),
    locationName: t.string(),
    unLocationCode: t.string({ description: "UN/LOCODE of the place, e.g. NLRTM." }),
    latitude: t.float(),
    longitude: t.float(),
  }),
});

const PartnerEventOutcomeEnum = builder.enumType("PartnerEventOutcome", {
  values: {
    APPLIED: { description: "On the shipment's timeline now." },
    SUPERSEDED: {
      description: "Kept on record, but the carrier reported this milestone itself and its event stands.",
    },
    DUPLICATE: { description: "This source sent this event id before: nothing changed." },
    INVALID: { description: "Refused (see message); nothing of it was kept." },
  } as const,
});

const PartnerEventResultRef = builder.objectRef<PartnerEventResult>("PartnerEventResult").implement({
  description: "What happened to one posted event, in the order posted.",
  fields: (t) => ({
    index: t.exposeInt("index", { description: "Its position in the batch, from 0." }),
    eventId: t.exposeString("eventId", { nullable: true }),
    outcome: t.field({
      type: PartnerEventOutcomeEnum,
      resolve: (r) => r.outcome.toUpperCase() as "APPLIED" | "SUPERSEDED" | "DUPLICATE" | "INVALID",
    }),
    shipmentId: t.exposeString("shipmentId", { nullable: true }),
    message: t.exposeString("message", { nullable: true, description: "Why, unless APPLIED." }),
  }),
});

export const PartnerEventBatchRef = builder
  .objectRef<{ results: PartnerEventResult[] }>("PartnerEventBatch")
  .implement({
    fields: (t) => ({
      results: t.field({ type: [PartnerEventResultRef], resolve: (b) => b.results }),
    }),
  });

const PartnerWebhookRefusedRef = builder
  .objectRef<{ reason: string; message: string }>("PartnerWebhookRefused")
  .implement({
    description: "The signed webhook was not genuine or not readable: nothing changed.",
    fields: (t) => ({
      reason: t.exposeString("reason", {
        description: "unknown_source, malformed, stale, forged or bad_body.",
      }),
      message: t.exposeString("message"),
    }),
  });

const PartnerWebhookResultRef = builder.unionType("PartnerWebhookResult", {
  types: [PartnerEventBatchRef, PartnerWebhookRefusedRef],
  resolveType: (r) => ("results" in r ? PartnerEventBatchRef : PartnerWebhookRefusedRef),
});

builder.mutationFields((t) => ({
  postPartnerEvents: t.withAuth(WRITE_SCOPES).field({
    type: PartnerEventBatchRef,
    nullable: true,
    description:
      "Posts a partner source's events (1 to 100). Each joins its shipment's timeline marked with the source, and changes its facts (delivery, detention, webhooks) as a carrier's answer would; a carrier's actual event is never overridden.",
    args: {
      sourceId: t.arg.id({ required: true }),
      events: t.arg({ type: [PartnerEventInput], required: true }),
    },
    resolve: async (_r, { sourceId, events }, ctx) => {
      if (events.length === 0 || events.length > MAX_PARTNER_EVENTS)
        throw publicError("BAD_USER_INPUT", `Post 1 to ${MAX_PARTNER_EVENTS} events at a time.`, {
          reason: "batch_size",
        });
      const results = await ctx.services.partners.ingest(
        ctx.principal.organization.id,
        String(sourceId),
        events,
      );
      if (!results) throw partnerSourceNotFound();
      return { results };
    },
  }),
  receivePartnerWebhook: t.field({
    type: PartnerWebhookResultRef,
    description:
      "The signed inbound webhook of a partner source, as received (the facade passes the raw body and headers). No key: the signature with the source's secret is the credential.",
    args: {
      sourceId: t.arg.string({ required: true }),
      timestamp: t.arg.string(),
      signature: t.arg.string(),
      body: t.arg.string({ required: true }),
    },
    resolve: async (_r, a, ctx) => {
      const received = await ctx.services.partners.receiveSigned(
        a.sourceId,
        a.timestamp ?? undefined,
        a.signature ?? undefined,
        a.body,
      );
      return received.kind === "accepted" ? { results: received.results } : received;
    },
  }),
}));
