import { randomUUID } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { pinoHttp } from "pino-http";
import { type Logger, redactUrl } from "../observability/logger";
import type { Metrics } from "../observability/metrics";
import { bindToContext, endSpan, type Span, startServerSpan, tracingOn } from "../observability/tracing";

declare module "express-serve-static-core" {
  interface Request {
    requestId: string;
    /** Route label for metrics when a mounted handler (Yoga, MCP) has no Express route. */
    metricsRoute?: string;
    /** The request's server span while tracing is on. */
    traceSpan?: Span;
  }
}

/** The surfaces requests are counted and traced by. */
export type RequestSurface = "v1" | "compat" | "graphql" | "mcp" | "sandbox" | "share" | "other";

/** Which surface a path belongs to (the sandbox is v1's keyless copy, counted apart). */
export function requestSurface(path: string, compatPrefix: string): RequestSurface {
  if (path === compatPrefix || path.startsWith(`${compatPrefix}/`)) return "compat";
  if (path === "/api/v1/sandbox" || path.startsWith("/api/v1/sandbox/")) return "sandbox";
  if (path === "/api/v1" || path.startsWith("/api/v1/")) return "v1";
  if (path === "/graphql" || path.startsWith("/graphql/")) return "graphql";
  if (path === "/api/mcp" || path.startsWith("/api/mcp/")) return "mcp";
  if (path.startsWith("/share/")) return "share";
  return "other";
}

/** The route pattern a request matched, or "unmatched" (never the raw path: ids would explode the labels). */
function routeOf(req: Request): string {
  return req.metricsRoute ?? (req.route ? `${req.baseUrl}${String(req.route.path)}` : "unmatched");
}

function pathOf(req: Request): string {
  const url = req.originalUrl;
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A server span per request when tracing is on (none is installed otherwise), continuing an incoming
 * `traceparent`. Named by method and route pattern once the route is known; the surface, route and
 * status are attributes. The path is recorded without its query (which may hold `api_key`).
 */
export function traceRequests(compatPrefix: string): RequestHandler | null {
  if (!tracingOn()) return null;
  return (req, res, next) => {
    const path = pathOf(req);
    const surface = requestSurface(path, compatPrefix);
    const started = startServerSpan(req.method, req.headers, {
      "http.request.method": req.method,
      "url.path": path,
      "url.scheme": req.protocol,
      "quayside.surface": surface,
      "quayside.request_id": req.requestId,
    });
    if (!started) return next();
    const { span, run } = started;
    req.traceSpan = span;
    res.on("finish", () => {
      const route = routeOf(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttribute("http.route", route);
      span.setAttribute("http.response.status_code", res.statusCode);
      endSpan(span, res.statusCode >= 500);
    });
    res.on("close", () => {
      if (!res.writableFinished) endSpan(span, true);
    });
    run(() => {
      // Body and socket events run outside the request's context unless bound to it.
      bindToContext(req);
      bindToContext(res);
      next();
    });
  };
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: the client's `X-Request-Id` when it is a sane token, else a new one; echoed back. */
export function assignRequestId(req: Request, res: Response): void {
  const incoming = req.headers["x-request-id"];
  req.requestId = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", req.requestId);
}

/**
 * The request log (pino-http), or null at `silent`: pino-http builds a child logger, serialises the
 * request and listens for the answer's end on every request whatever the level (about a tenth of the
 * in-memory `/carriers` route's CPU in a profile), only for lines that are never written. Without it
 * `req.log` is absent, which every reader of it allows for.
 */
export function requestLogging(logger: Logger): RequestHandler | null {
  if (logger.level === "silent") return null;
  return pinoHttp({
    logger,
    genReqId: (req) => (req as Request).requestId,
    // Every line logged through req.log carries the request id, so one request's lines can be found.
    // With tracing on, the trace and span ids too, so a log line leads to its trace.
    customProps: (req) => {
      const span = (req as Request).traceSpan;
      if (!span) return { requestId: (req as Request).requestId };
      const { traceId, spanId } = span.spanContext();
      return { requestId: (req as Request).requestId, trace_id: traceId, span_id: spanId };
    },
    serializers: {
      req: (req: { id: string; method: string; url: string; remoteAddress?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // A 503 is the service saying "not now" (the database unavailable, readiness failing): a warning
    // without the made-up error and stack pino-http attaches to any 5xx. Other 5xx are bugs.
    customLogLevel: (_req, res, err) => {
      if (!err && res.statusCode === 503) return "warn";
      return err || res.statusCode >= 500 ? "error" : "info";
    },
    customErrorObject: (_req, res, _err, loggable) => {
      if (res.statusCode !== 503 || res.err) return loggable;
      const { err: _madeUp, ...rest } = loggable as Record<string, unknown>;
      return rest;
    },
    customErrorMessage: (_req, res) =>
      res.statusCode === 503 && !res.err ? "request answered 503" : "request errored",
  });
}

export function requestMetrics(metrics: Metrics, compatPrefix: string): RequestHandler {
  // The labelled children by their labels: prom-client would otherwise hash the label object of every
  // answer twice (counter and histogram). Bounded like the labels themselves (route patterns, not paths).
  const children = new Map<string, { count: { inc(): void }; duration: { observe(v: number): void } }>();
  const childrenOf = (route: string, method: string, status: number, surface: string) => {
    const key = `${route} ${method} ${status} ${surface}`;
    let found = children.get(key);
    if (!found) {
      const labels = { route, method, status: String(status), surface };
      found = { count: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) };
      children.set(key, found);
    }
    return found;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const { count, duration } = childrenOf(
        routeOf(req),
        req.method,
        res.statusCode,
        requestSurface(pathOf(req), compatPrefix),
      );
      count.inc();
      duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
