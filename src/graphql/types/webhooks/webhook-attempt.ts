import { attemptFailure } from "../../../domain/webhooks/failure";
import { builder } from "../../builder";

builder.prismaObject("WebhookAttempt", {
  fields: (t) => ({
    id: t.exposeID("id"),
    attemptedAt: t.expose("attemptedAt", { type: "DateTime" }),
    durationMs: t.exposeInt("durationMs"),
    responseStatus: t.exposeInt("responseStatus", { nullable: true }),
    responseExcerpt: t.exposeString("responseExcerpt", {
      nullable: true,
      description: "The start of the receiver's answer body (at most 1 KiB of text); null when none came.",
    }),
    error: t.exposeString("error", {
      nullable: true,
      description: "What the network said when no status came back (technical); see failure for words.",
    }),
    failure: t.string({
      nullable: true,
      description:
        "Why the attempt failed, in plain words the endpoint's owner can act on; null when it was acknowledged.",
      resolve: (a) => attemptFailure(a),
    }),
  }),
});
