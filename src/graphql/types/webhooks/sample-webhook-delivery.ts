import type { SampleDelivery } from "../../../domain/webhooks/webhooks.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { INTERNAL } from "../../schema-visibility";
import { WebhookEventEnum } from "./webhook-event";

const SampleWebhookDeliveryRef = builder
  .objectRef<Extract<SampleDelivery, { kind: "sent" }>>("SampleWebhookDelivery")
  .implement({
    description: "One sample webhook delivery, sent once and stored nowhere (the sandbox's webhook fire).",
    fields: (t) => ({
      deliveryId: t.exposeString("deliveryId", { description: "The X-Service-Delivery header sent." }),
      signingSecret: t.exposeString("signingSecret", {
        description: "whsec_...: made for this delivery alone, to verify its X-Service-Signature.",
      }),
      body: t.exposeString("body", { description: "The exact JSON body sent." }),
      responseStatus: t.exposeInt("status", {
        nullable: true,
        description: "The receiver's HTTP status; null when none came back.",
      }),
      error: t.exposeString("error", { nullable: true, description: "Why no status came back." }),
      delivered: t.boolean({
        description: "The receiver acknowledged it (a 2xx status).",
        resolve: (sent) => sent.status !== null && sent.status >= 200 && sent.status < 300,
      }),
    }),
  });

builder.mutationField("sendSampleWebhook", (t) =>
  t.field({
    type: SampleWebhookDeliveryRef,
    nullable: true,
    description:
      "Sends one sample delivery of an event, with data from the sandbox world's own shipments. Only the sandbox's services can send one.",
    // The sandbox facade's, not a client's: absent from the schema `/graphql` serves.
    extensions: INTERNAL,
    args: {
      url: t.arg.string({ required: true }),
      event: t.arg({ type: WebhookEventEnum, required: true }),
    },
    resolve: async (_root, { url, event }, ctx) => {
      const samples = ctx.services.sampleDeliveries;
      if (!samples) throw publicError("NOT_FOUND", "Sample deliveries are sent from the sandbox only.");
      const sent = await samples.send(url, event);
      if (sent.kind === "invalid_target") {
        throw publicError("BAD_USER_INPUT", sent.reason, { reason: "invalid_target", field: "url" });
      }
      return sent;
    },
  }),
);
