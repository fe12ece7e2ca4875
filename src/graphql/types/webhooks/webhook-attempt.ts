import { builder } from "../../builder";

builder.prismaObject("WebhookAttempt", {
  fields: (t) => ({
    id: t.exposeID("id"),
    attemptedAt: t.expose("attemptedAt", { type: "DateTime" }),
    durationMs: t.exposeInt("durationMs"),
    responseStatus: t.exposeInt("responseStatus", { nullable: true }),
    error: t.exposeString("error", { nullable: true }),
  }),
});
