import {
  createMcpHandler,
  isLegacyRequest,
  type JSONRPCMessage,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { type Request, type Response, Router } from "express";
import { closeIfBodyUnread } from "../../src/http/connections";
import type { Admission, Principal } from "../../src/http/gate";
import { findUnstorableText, jsonBody, unstorableMessage } from "../../src/http/input-guard";
import { OUTCOMES, type OutcomeCode } from "../../src/http/outcomes";
import { rateLimitPlanDetail } from "../../src/http/refusal-details";
import { type FacadeDeps, handler } from "../facade";
import { inspectBody } from "./batch";
import { DirectMcpServers, directMessage } from "./direct";
import { clarifyErrors } from "./errors";
import { type OriginPolicyInput, originPolicy } from "./origin-policy";
import { createMcpServer, McpServerPool, reusableAfter } from "./server";
import { PROTOCOL_ERROR_META } from "./tool";

/**
 * `POST /api/mcp`: JSON-RPC 2.0 over stateless streamable HTTP (spec v1 section 4.4). In order:
 * Origin and Host (DNS rebinding), the verb (only POST: there is no stream to GET and no session to
 * DELETE), the same admission as REST (key, developer mode, one request of the key's minute window),
 * and only for a key that authenticated the body, the 20-message batch cap and the rest of the
 * batch's cost (one request per message); then one request that leaves nothing on a server on a kept
 * server's own transport (`direct.ts`), anything else through the SDK's transports. A client without
 * a good key never gets its body read, so it cannot hold a socket with a slow one.
 */
export function createMcpRouter(
  deps: FacadeDeps,
  options: { origins: OriginPolicyInput; bodyLimit: string },
): Router {
  const router = Router();
  const checkOrigin = originPolicy(options.origins);
  const json = jsonBody(options.bodyLimit, { checkText: false });
  const servers = new McpServerPool(deps);
  const directServers = new DirectMcpServers(deps);

  router.all(
    "/",
    (req, res, next) => {
      req.metricsRoute = "/api/mcp";
      const check = checkOrigin(req.get("host"), req.get("origin"));
      if (!check.ok) {
        return void unauthenticatedRefusal(deps, req, res, {
          outcome: "origin_not_allowed",
          message: check.message,
        }).catch(next);
      }
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        const message = `${req.method} is not allowed: send JSON-RPC messages with POST (this server is stateless and streams nothing).`;
        return void unauthenticatedRefusal(deps, req, res, { outcome: "method_not_allowed", message }).catch(
          next,
        );
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
            return refuseAdmission(deps, res, admission, { messages: 1, id: null });
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
      if (!admission.ok) return refuseAdmission(deps, res, admission, { messages: 1, id: body.requestId });
      const batch = await deps.admission.spendRest(res, admission, body.messages - 1);
      if (!batch.ok)
        return refuseAdmission(deps, res, batch, { messages: body.messages, id: body.requestId });

      const served = { principal: admission.principal, requestId: req.requestId };
      const answer =
        (await serveDirectly(directServers, served, req)) ??
        (await answerOf(await serveMcp(servers, deps, served, webRequestOf(req), req.body)));
      sendAnswer(deps, req, res, answer);
    }),
  );
  return router;
}

/** An answer for the wire: the status, the headers and the JSON text (empty for none). */
interface McpAnswer {
  status: number;
  headers: [name: string, value: string][];
  text: string;
}

/**
 * The commonest request (one 2025-era request that leaves nothing on the server) on a kept server's
 * direct transport (`direct.ts`), answered as the SDK's transport answers it: 200, JSON, the answer
 * message. Null when the request is not that, for the SDK's path.
 */
async function serveDirectly(
  directServers: DirectMcpServers,
  served: { principal: Principal; requestId: string },
  req: Request,
): Promise<McpAnswer | null> {
  const message = directMessage(
    req.body,
    {
      accept: req.get("accept"),
      contentType: req.get("content-type"),
      protocolVersion: req.get("mcp-protocol-version"),
      mcpMethod: req.get("mcp-method"),
      mcpName: req.get("mcp-name"),
    },
    await directServers.supportedVersions(),
  );
  if (!message) return null;
  const kept = await directServers.take(served.principal, served.requestId);
  try {
    const answer = await kept.transport.serve(message);
    return { status: 200, headers: [["content-type", "application/json"]], text: JSON.stringify(answer) };
  } finally {
    directServers.give(kept);
  }
}

/** The SDK's web answer as ours. */
async function answerOf(answer: globalThis.Response): Promise<McpAnswer> {
  const headers: [string, string][] = [];
  answer.headers.forEach((value, name) => {
    if (name !== "content-length") headers.push([name, value]);
  });
  return { status: answer.status, headers, text: await answer.text() };
}

/**
 * One request through the SDK, by the revision the client speaks. A 2026-07-28 client (the per-request
 * `_meta` envelope, `server/discover`, no `initialize`) goes to the SDK's modern handler; a 2025-era
 * client (`initialize`, no envelope) to a stateless streamable HTTP transport with JSON answers, on a
 * server taken from the process's pool and given back once its transport closed. Both eras' servers
 * are built by `bindableMcpServer`, so they list and run the same tools.
 * The modern handler only serves modern requests here (`legacy: 'reject'`): the SDK's own legacy
 * fallback would answer 2025 clients with an SSE stream.
 */
async function serveMcp(
  servers: McpServerPool,
  deps: FacadeDeps,
  served: { principal: Principal; requestId: string },
  request: globalThis.Request,
  body: unknown,
): Promise<globalThis.Response> {
  if (await isLegacyRequest(request, body)) {
    const pooled = servers.take(served.principal, served.requestId);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await pooled.server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      // Closed before it serves again: the close clears the instance's transport.
      await pooled.server.close().catch(() => undefined);
      servers.give(pooled, reusableAfter(body));
    }
  }
  const factory = () => createMcpServer(deps, served.principal, { requestId: served.requestId });
  const handler = createMcpHandler(factory, { legacy: "reject", responseMode: "json" });
  try {
    return await handler.fetch(request, { parsedBody: body });
  } finally {
    void handler.close();
  }
}

/**
 * The Express request as the web `Request` the SDK serves: its URL and headers. The body was parsed
 * and checked before; the SDK is handed that value (`parsedBody`) and never reads this one, so a body
 * is not serialised again (a deeply nested one would not survive `JSON.stringify`).
 */
function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "content-length") continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  // The origin is fixed: Host was checked above (or deliberately not), and the SDK reads only the path.
  return new globalThis.Request(new URL(req.originalUrl, "http://localhost"), {
    method: req.method,
    headers,
  });
}

/**
 * The SDK's answer on the wire, after two corrections: its internal errors become readable
 * invalid-params errors or the masked sentence (`clarifyErrors`), and when every answer is the
 * database outage the response takes the outcome's status and `Retry-After` instead of the SDK's 200,
 * so clients and proxies back off.
 */
function sendAnswer(deps: FacadeDeps, req: Request, res: Response, answer: McpAnswer): void {
  const text = answer.text;
  let status = answer.status;
  let body = text;
  const contentType = answer.headers.find(([name]) => name === "content-type")?.[1] ?? "";
  // Only an error or a result marked as the server's failure is rewritten; the SDK's JSON has the
  // `"error":` key or the mark in it then, so an answer with neither is sent as the SDK wrote it,
  // without parsing and serialising it again.
  const mayNeedClarifying = text.includes('"error":') || text.includes(PROTOCOL_ERROR_META);
  if (mayNeedClarifying && contentType.includes("application/json")) {
    const parsed = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
    const clarify = (message: JSONRPCMessage) =>
      clarifyErrors(message, (error) =>
        deps.log("error", { error, requestId: req.requestId }, "MCP request failed"),
      );
    const messages = (Array.isArray(parsed) ? parsed : [parsed]).map(clarify);
    const answers = messages.filter((m) => "id" in m && !("method" in m));
    const outages = answers.filter(
      (m) => "error" in m && m.error.code === OUTCOMES.database_unavailable.mcp.jsonRpcCode,
    );
    if (answers.length > 0 && outages.length === answers.length) {
      const wire = OUTCOMES.database_unavailable;
      res.setHeader("Retry-After", String(wire.retryAfterSeconds));
      status = wire.v1.status;
    }
    body = JSON.stringify(Array.isArray(parsed) ? messages : messages[0]);
  }
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  // An answer without a body (the 202 to notifications) stays without one: `send("")` would type
  // it text/html.
  if (body === "") return void res.status(status).end();
  res.status(status).send(body);
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
  { outcome, message }: { outcome: OutcomeCode; message: string },
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
  /** How many JSON-RPC messages the request carried, and the id to answer (null for a batch). */
  { messages, id }: { messages: number; id: string | number | null },
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
