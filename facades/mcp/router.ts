import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type Request, type Response, Router } from "express";
import { closeIfBodyUnread } from "../../src/http/connections";
import type { Admission } from "../../src/http/gate";
import { findUnstorableText, jsonBody, unstorableMessage } from "../../src/http/input-guard";
import { OUTCOMES, type OutcomeCode } from "../../src/http/outcomes";
import { rateLimitPlanDetail } from "../../src/http/refusal-details";
import { type FacadeDeps, handler } from "../facade";
import { inspectBody } from "./batch";
import { clarifyErrors } from "./errors";
import { type OriginPolicyInput, originPolicy } from "./origin-policy";
import { createMcpServer } from "./server";

/**
 * `POST /api/mcp`: JSON-RPC 2.0 over stateless streamable HTTP (spec v1 section 4.4). In order:
 * Origin and Host (DNS rebinding), the verb (only POST: there is no stream to GET and no session to
 * DELETE), the same admission as REST (key, developer mode, one request of the key's minute window),
 * and only for a key that authenticated the body, the 20-message batch cap and the rest of the
 * batch's cost (one request per message); then the SDK, with a fresh server and transport for the
 * request. A client without a good key never gets its body read, so it cannot hold a socket with a
 * slow one.
 */
export function createMcpRouter(
  deps: FacadeDeps,
  options: { origins: OriginPolicyInput; bodyLimit: string },
): Router {
  const router = Router();
  const checkOrigin = originPolicy(options.origins);
  const json = jsonBody(options.bodyLimit, { checkText: false });

  router.all(
    "/",
    (req, res, next) => {
      req.metricsRoute = "/api/mcp";
      const check = checkOrigin(req.get("host"), req.get("origin"));
      if (!check.ok) {
        return void unauthenticatedRefusal(deps, req, res, "origin_not_allowed", check.message).catch(next);
      }
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        const message = `${req.method} is not allowed: send JSON-RPC messages with POST (this server is stateless and streams nothing).`;
        return void unauthenticatedRefusal(deps, req, res, "method_not_allowed", message).catch(next);
      }
      next();
    },
    (req, res, next) => {
      deps.admission
        .admit(req, res, { allowQueryKey: false })
        .then((admission) => {
          // Without a principal (no key, a bad one, a throttled address) the body stays unread.
          if (!admission.ok && !admission.principal) {
            closeIfBodyUnread(req, res);
            return refuseAdmission(deps, res, admission, 1, null);
          }
          res.locals.admission = admission;
          next();
        })
        .catch(next);
    },
    json,
    handler(async (req, res) => {
      const admission = res.locals.admission as Admission;
      const body = inspectBody(req.body);
      if (!body.ok) return sendJsonRpcError(res, "invalid_batch", { message: body.message });
      const unstorable = findUnstorableText(req.body, "message");
      if (unstorable) {
        return sendJsonRpcError(res, "bad_request", {
          id: body.requestId,
          message: unstorableMessage(unstorable),
        });
      }
      if (!admission.ok) return refuseAdmission(deps, res, admission, 1, body.requestId);
      const batch = await deps.admission.spendRest(res, admission, body.messages - 1);
      if (!batch.ok) return refuseAdmission(deps, res, batch, body.messages, body.requestId);

      const server = createMcpServer(deps, admission.principal, { requestId: req.requestId });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The SDK answers arguments that fail its own request schemas with -32603 and the validator's
      // raw issue list; clients get -32602 and a readable sentence instead.
      const send = transport.send.bind(transport);
      let answers = 0;
      let outages = 0;
      transport.send = (message, options) => {
        const clarified = clarifyErrors(message, (error) =>
          deps.log("error", { error, requestId: req.requestId }, "MCP request failed"),
        );
        if ("id" in clarified && !("method" in clarified)) {
          answers += 1;
          if (
            "error" in clarified &&
            clarified.error.code === OUTCOMES.database_unavailable.mcp.jsonRpcCode
          ) {
            outages += 1;
          }
        }
        return send(clarified, options);
      };
      // The SDK answers 200 whatever the messages say; when every answer is the database outage,
      // the request gets the outcome's status and Retry-After, so clients and proxies back off.
      const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => Response;
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        if (answers === 0 || outages < answers) return writeHead(status, ...rest);
        const wire = OUTCOMES.database_unavailable;
        res.setHeader("Retry-After", String(wire.retryAfterSeconds));
        return writeHead(wire.v1.status, ...rest);
      }) as typeof res.writeHead;
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    }),
  );
  return router;
}

/** A JSON-RPC error answer with the outcome's HTTP status (the outcome table decides both). */
function sendJsonRpcError(
  res: Response,
  outcome: OutcomeCode,
  options: { message?: string; id?: string | number | null; data?: Record<string, unknown> } = {},
): void {
  const wire = OUTCOMES[outcome];
  res.status(wire.v1.status).json({
    jsonrpc: "2.0",
    id: options.id ?? null,
    error: {
      code: wire.mcp.jsonRpcCode,
      message: options.message ?? wire.sentence,
      data: { error: wire.v1.error, ...options.data },
    },
  });
}

/**
 * A refusal before any key is read: the rate headers report the only window that applies, the
 * address's failed-authentication window, read and not spent (as compat's 405 does).
 */
async function unauthenticatedRefusal(
  deps: FacadeDeps,
  req: Request,
  res: Response,
  outcome: OutcomeCode,
  message: string,
): Promise<void> {
  await deps.admission.setUnauthenticatedRateHeaders(req, res);
  sendJsonRpcError(res, outcome, { message });
}

/**
 * A refused admission. The gate has already spent one request for it (not the batch's size) and set
 * the rate headers, `Retry-After` and, on a 401, `WWW-Authenticate`; this renders the body.
 */
function refuseAdmission(
  deps: FacadeDeps,
  res: Response,
  admission: Extract<Admission, { ok: false }>,
  messages: number,
  id: string | number | null,
): void {
  const { outcome, principal, rate } = admission;
  if ((outcome === "rate_limited" || outcome === "organization_rate_limited") && principal && rate) {
    const whose = outcome === "rate_limited" ? "the key's" : "the organisation's";
    sendJsonRpcError(res, outcome, {
      id,
      message:
        messages > 1
          ? `This batch of ${messages} messages needs ${messages} requests of ${whose} minute window and ${rate.remaining} remain; nothing of it was run.`
          : undefined,
      data: {
        limit: rate.limit,
        remaining: rate.remaining,
        retryAfter: rate.retryAfterSeconds,
        ...rateLimitPlanDetail(principal, deps.baseUrl),
      },
    });
    return;
  }
  if ((outcome === "auth_throttled" || outcome === "keyless_throttled") && rate) {
    sendJsonRpcError(res, outcome, {
      id,
      data: { limit: rate.limit, retryAfter: rate.retryAfterSeconds },
    });
    return;
  }
  sendJsonRpcError(res, outcome, { id });
}
