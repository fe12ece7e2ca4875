import { randomUUID } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { pinoHttp } from "pino-http";
import { type Logger, redactUrl } from "../observability/logger";
import type { Metrics } from "../observability/metrics";

declare module "express-serve-static-core" {
  interface Request {
    requestId: string;
    /** Route label for metrics when a mounted handler (Yoga, MCP) has no Express route. */
    metricsRoute?: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    req.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", req.requestId);
    next();
  };
}

export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as Request).requestId,
    // Every line logged through req.log carries the request id, so one request's lines can be found.
    customProps: (req) => ({ requestId: (req as Request).requestId }),
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

export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const stop = metrics.httpDuration.startTimer();
    res.on("finish", () => {
      const route = req.metricsRoute ?? (req.route ? `${req.baseUrl}${String(req.route.path)}` : "unmatched");
      const labels = { route, method: req.method, status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      stop(labels);
    });
    next();
  };
}
