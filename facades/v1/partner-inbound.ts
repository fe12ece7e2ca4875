import express, { Router } from "express";
import { closeIfBodyUnread } from "../../src/http/connections";
import { outcomeOf } from "../../src/http/outcomes";
import { type FacadeDeps, handler } from "../facade";
import { ReceivePartnerWebhookDocument } from "../generated/operations";
import { partnerEventResults } from "./render/partner-events";
import { sendV1Error } from "./respond";

export const PARTNER_INBOUND_PATH = "/api/inbound/partners/:sourceId";

/** The largest signed body: 100 events of a few hundred bytes each, with room. */
const INBOUND_BODY_LIMIT = "256kb";

/**
 * A partner source's signed inbound webhook (issue 41): no key, the signature with the source's secret
 * is the credential, so it is mounted before the v1 gate. The body is read as raw text: the signature
 * covers the exact bytes sent, which a JSON parser would not give back.
 */
export function createPartnerInboundRouter(deps: FacadeDeps): Router {
  const router = Router();
  router.post(
    PARTNER_INBOUND_PATH,
    // The source's window before the body is read: a refused request costs a counter, not 256 kB.
    (req, res, next) => {
      deps.admission.spendPartnerInboundWindow(res, String(req.params.sourceId)).then((rate) => {
        if (rate.allowed) return next();
        closeIfBodyUnread(req, res);
        sendV1Error(res, "partner_inbound_rate_limited", {
          data: { limit: rate.limit, retryAfter: rate.retryAfterSeconds },
        });
      }, next);
    },
    express.text({ type: () => true, limit: INBOUND_BODY_LIMIT }),
    handler(async (req, res) => {
      const result = await deps.run(req, ReceivePartnerWebhookDocument, {
        sourceId: String(req.params.sourceId),
        timestamp: req.get("x-quayside-timestamp") ?? null,
        signature: req.get("x-quayside-signature") ?? null,
        body: typeof req.body === "string" ? req.body : "",
      });
      if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
      const answer = result.data.receivePartnerWebhook;
      if (answer.__typename === "PartnerWebhookRefused") {
        return sendV1Error(res, outcomeOf("PartnerWebhookResult", answer), { message: answer.message });
      }
      res.status(200).json({ success: true, data: { results: partnerEventResults(answer.results) } });
    }),
  );
  return router;
}
