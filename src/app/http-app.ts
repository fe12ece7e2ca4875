import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import { Redis } from "ioredis";
import { sendCompatRefusal } from "../../facades/compat/respond";
import { createCompatRouter } from "../../facades/compat/router";
import { createDashboardRouter } from "../../facades/dashboard/router";
import type { FacadeDeps, FacadeLog } from "../../facades/facade";
import { createShareRouter } from "../../facades/share/router";
import { createUnsubscribeRouter } from "../../facades/share/unsubscribe";
import { v1AllowedMethods } from "../../facades/v1/allow";
import { createMetaRouter, isMetaPath } from "../../facades/v1/meta";
import { createPartnerInboundRouter } from "../../facades/v1/partner-inbound";
import { sendV1Error } from "../../facades/v1/respond";
import { createV1Router } from "../../facades/v1/router";
import { createSandboxRouter } from "../../facades/v1/sandbox";
import { databaseUnavailableReason } from "../db/unavailable";
import type { Surface } from "../domain/tracking/tracking.service";
import { AnswerCache } from "../graphql/answer-cache";
import { OperationExecutor } from "../graphql/executor";
import { operationRunner } from "../graphql/operation-runner";
import { publicSchema, schema } from "../graphql/schema";
import { closeIfBodyUnread } from "../http/connections";
import { AdmissionGate, guard } from "../http/gate";
import { inSequence } from "../http/in-sequence";
import { clientErrorOf, guardUrl, jsonBody } from "../http/input-guard";
import { assignRequestId, requestLogging, requestMetrics, traceRequests } from "../http/observability";
import { metricsAccess } from "../http/operator-access";
import { OUTCOMES, type OutcomeCode, refusalData } from "../http/outcomes";
import { SessionGate } from "../http/sessions";
import { onAnswersChanged } from "../lib/answer-changes";
import type { Clock } from "../lib/clock";
import type { CarrierPush } from "../upstream/carriers/carrier-push";
import { mountDocumentDownload } from "./document-download";
import { OPERATION_FOLDERS } from "./operation-folders";
import { sandboxOnDemand } from "./sandbox";
import type { Services } from "./services";

export interface BuiltApp {
  app: Express;
  /** Flip on SIGTERM: readiness fails and keep-alive connections close after their request. */
  startDraining(): void;
  /**
   * Loads what was left out of start-up (GraphQL Yoga, the MCP server and their modules, about a
   * third of the module graph) so that the first request to /graphql or /api/mcp does not wait.
   */
  warm(): Promise<void>;
  /** Closes what the app built for itself (the sandbox world). */
  close(): Promise<void>;
}

/**
 * A handler built on its first request (or by `warm`), so its modules stay out of the start-up path:
 * a restarted instance answers sooner. A failed load is answered as an error and tried again later.
 */
function deferred(load: () => Promise<RequestHandler>): { handler: RequestHandler; warm(): Promise<void> } {
  let loading: Promise<RequestHandler> | undefined;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    handler: (req, res, next) => {
      get().then((handle) => handle(req, res, next), next);
    },
    warm: () => get().then(() => undefined),
  };
}

/**
 * A router whose every route is under `prefix`, entered only by requests for that prefix: the API's
 * requests do not walk its routes (the dashboard has dozens), each of which the router would try
 * against every request (issue 37's profile of the in-memory /carriers route). Mounted without a path
 * so its routes keep their full paths.
 */
function onlyUnder(prefix: string, router: RequestHandler): RequestHandler {
  const below = `${prefix}/`;
  return (req, res, next) =>
    req.path === prefix || req.path.startsWith(below) ? router(req, res, next) : next();
}

/** Which surface a path belongs to, to answer a refusal in its format. */
type PathSurface = "v1" | "compat" | "graphql" | "mcp" | "other";

/**
 * Builds the HTTP app without listening, so tests and `main` share it. Each facade gets only what
 * translation needs: a run of the persisted operations (recorded as its surface), the gate, the
 * base URL and a log.
 */
export async function buildApp(
  services: Services,
  options: {
    baseUrl: string;
    /** The sandbox world is built at start once this settles (day one first: docs/day-one.md). */
    sandboxAfter?: Promise<unknown>;
    /** DCSA carrier push: its callback is mounted at `/carrier-push/:token`. */
    carrierPush?: CarrierPush;
  },
): Promise<BuiltApp> {
  const { config } = services;
  if (config.workers.only) return buildWorkerProcessApp(services);
  const executor = await OperationExecutor.load(schema, OPERATION_FOLDERS, config.graphqlExecution);
  const answers = config.answerCache ? keptAnswers(services) : null;
  const liveExecutor = answers ? await executor.withAnswers(answers.cache) : executor;
  const admission = new AdmissionGate({
    accounts: services.accounts,
    limiter: services.limiter,
    clock: services.clock,
    authFailuresPerMinute: config.authFailuresPerMinute,
    keylessPerMinute: config.keylessPerMinute,
  });
  const log: FacadeLog = (level, fields, message) => services.logger[level](fields, message);
  const facade = (surface: Surface): FacadeDeps => ({
    run: operationRunner(liveExecutor, services, surface),
    admission,
    baseUrl: options.baseUrl,
    log,
  });
  const v1 = facade("v1");
  const sessions = new SessionGate(services.people);
  let draining = false;

  const app = baseApp(services, () => draining);
  // A preflight or an `OPTIONS` probe is answered from the routes' verbs, without a key and without
  // counting as a failed authentication. GraphQL answers its own (Yoga's CORS), and compat and MCP
  // answer their 405 in their own format.
  const answerOptions: RequestHandler = (req, res, next) => {
    const allow = allowedMethods(req.path, config.sandboxEnabled);
    if (allow === "not-mine") return next();
    if (!allow) {
      return refuse(surfaceOf(req, config.compatPrefix), res, "route_not_found", `There is no ${req.path}.`);
    }
    res.setHeader("Allow", allow.join(", "));
    res.status(204).end();
  };

  const json = jsonBody(config.bodyLimit);
  const metaRouter = createMetaRouter(options.baseUrl);
  const v1Router = createV1Router(v1, json);
  const notFound = (req: Request, res: Response) => {
    closeIfBodyUnread(req, res);
    refuse(
      surfaceOf(req, config.compatPrefix),
      res,
      "route_not_found",
      `There is no ${req.method} ${req.path}.`,
    );
  };
  // One dispatch for the v1 API (the bulk of the traffic): a request under /api/v1/ (the sandbox
  // aside) goes straight to the layers that can answer it, in their order below (the keyless meta
  // routes, then the contract behind its gate), instead of walking every layer mounted before them
  // (operations routes, GraphQL, downloads, share, unsubscribe, carrier push, partner inbound,
  // dashboard): none of them serves a path under /api/v1/, and Express's router tried each against
  // every request (about a seventh of the CPU of a kept answer in issue 37's profile). What the
  // contract does not serve ends where it did: the surface-aware 404 (the layers after the v1 mount,
  // compat and MCP, live under other prefixes; a compat prefix configured under /api/v1/ keeps the
  // full walk). Paths spelled in another case are not matched here and take the full walk as before.
  // The prefix is taken off and put back as mounting the routers at /api/v1 does (their routes and
  // the metrics' route label see the same `baseUrl` and `url`), without a router of its own: each
  // router entered costs its own setup per request.
  const v1LaneServes = (path: string) =>
    path.startsWith("/api/v1/") &&
    !(path === "/api/v1/sandbox" || path.startsWith("/api/v1/sandbox/")) &&
    !(path === config.compatPrefix || path.startsWith(`${config.compatPrefix}/`));
  const v1Lane: RequestHandler = (req, res, next) => {
    if (!v1LaneServes(req.path)) return next();
    const { url, baseUrl } = req;
    req.baseUrl = `${baseUrl}/api/v1`;
    req.url = url.slice("/api/v1".length);
    const done = (error?: unknown) => {
      req.url = url;
      req.baseUrl = baseUrl;
      if (error) return next(error);
      notFound(req, res);
    };
    // The two keyless documents are the only routes of the meta router: any other path skips
    // entering it.
    if (!isMetaPath(req.url)) return v1Router(req, res, done);
    metaRouter(req, res, (error?: unknown) => (error ? done(error) : v1Router(req, res, done)));
  };
  // The same for compat (issue 37's compat read): a request under the compat prefix goes straight to
  // its router, which answers every path under it (its own 404 in its envelope), instead of walking
  // the dozen layers mounted before it. Only when the prefix's first segment is none the layers
  // before it serve (`/api`, `/graphql`, `/dashboard`...): otherwise, as for paths in another case,
  // the full walk decides as before.
  const compatRouter = createCompatRouter(facade("compat"));
  const compatPrefix = config.compatPrefix;
  const compatLaneOpen = !SERVED_BEFORE_COMPAT.has((compatPrefix.split("/")[1] ?? "").toLowerCase());
  const compatLane: RequestHandler = (req, res, next) => {
    const path = req.path;
    if (!compatLaneOpen || !(path === compatPrefix || path.startsWith(`${compatPrefix}/`))) return next();
    const { url, baseUrl } = req;
    const rest = url.slice(compatPrefix.length);
    req.baseUrl = `${baseUrl}${compatPrefix}`;
    req.url = rest.startsWith("/") ? rest : `/${rest}`;
    compatRouter(req, res, (error?: unknown) => {
      req.url = url;
      req.baseUrl = baseUrl;
      if (error) return next(error);
      notFound(req, res);
    });
  };
  const lanes: RequestHandler = (req, res, next) =>
    v1Lane(req, res, (error?: unknown) => (error ? next(error) : compatLane(req, res, next)));
  // The preflight answer and the lanes as one layer (each layer is a router step per request).
  app.use((req, res, next) =>
    req.method === "OPTIONS" ? answerOptions(req, res, () => lanes(req, res, next)) : lanes(req, res, next),
  );

  mountOperationsRoutes(app, services, () => draining);

  const yoga = deferred(async () => {
    const { createGraphQLHandler } = await import("../graphql/yoga");
    const handler = createGraphQLHandler(services, publicSchema);
    return (req, res) => void handler.handle(req, res);
  });
  const toYoga = yoga.handler;
  app.use(
    "/graphql",
    (req, _res, next) => {
      req.metricsRoute = "/graphql";
      next();
    },
    (req, res, next) => {
      // A CORS preflight carries no key and runs nothing: Yoga answers it with the configured policy.
      if (req.method === "OPTIONS") {
        res.setHeader("Allow", "GET, POST, OPTIONS");
        return toYoga(req, res, next);
      }
      // The GraphiQL page itself (when switched on) needs no key; every operation does.
      if (
        config.graphql.graphiql &&
        req.method === "GET" &&
        req.accepts(["text/html", "application/json"]) === "text/html" &&
        !req.query.query
      ) {
        return toYoga(req, res, next);
      }
      next();
    },
    // A person signed in to the dashboard (session cookie + CSRF header), else the key below.
    sessions.graphqlSessions(admission, (r, outcome) => sendGraphQLRefusal(r, outcome)),
    // The key is checked before the body is read.
    guard(admission, { allowQueryKey: false, allowDeveloperModeOff: true }, (r, refusal) =>
      sendGraphQLRefusal(r, refusal.outcome),
    ),
    (req, res, next) => {
      if (req.method === "POST" && !req.is(["application/json", "application/*+json"])) {
        // File uploads (GraphQL multipart request specification): Yoga reads the parts itself, within
        // the documents' size cap (docs/decisions/workspace.md).
        if (req.is("multipart/form-data")) return toYoga(req, res, next);
        return sendGraphQLRefusal(res, "unsupported_media_type");
      }
      next();
    },
    json,
    (req, res, next) => {
      // One operation per request: batching is off, so a JSON array (or any non-object) is not a
      // GraphQL request. Refused here, before Yoga would try to read the consumed stream again.
      const body: unknown = req.body;
      if (req.method === "POST" && (typeof body !== "object" || body === null || Array.isArray(body))) {
        return sendGraphQLRefusal(
          res,
          "bad_request",
          "The body must be one JSON object: {query, variables?, operationName?}.",
        );
      }
      next();
    },
    toYoga,
  );

  mountDocumentDownload(app, services, {
    admission,
    refuse: (res, outcome, message) => refuse("other", res, outcome, message),
    sessionRead: sessions.readSessions(admission, (res, outcome) => refuse("other", res, outcome)),
  });
  app.use(onlyUnder("/share", createShareRouter(v1)));
  // One-click unsubscribe from mail (RFC 8058): public, the signed token is the capability.
  app.use(onlyUnder("/unsubscribe", createUnsubscribeRouter(v1)));
  // A carrier's DCSA push (issue 41): public, the subscription's signature is the credential; the raw
  // bytes are what is signed, so the body is read before any JSON parsing.
  if (options.carrierPush) {
    const push = options.carrierPush;
    app.post("/carrier-push/:token", express.raw({ type: () => true, limit: "2mb" }), (req, res, next) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      push.receive(String(req.params.token), req.headers, body).then((answer) => {
        services.logger.info(
          { outcome: answer.outcome, applied: answer.applied ?? 0 },
          "Carrier push received",
        );
        if (answer.body === undefined) res.status(answer.status).end();
        else res.status(answer.status).json(answer.body);
      }, next);
    });
  }
  // A partner source's signed webhook (issue 41): public, the signature is the credential.
  app.use(createPartnerInboundRouter(v1));
  // The dashboard is a client of the GraphQL core: its operations count as the GraphQL surface.
  app.use(onlyUnder("/dashboard", createDashboardRouter({ ...facade("graphql"), sessions })));
  // Public and keyless, so mounted before the v1 gate.
  app.use("/api/v1", metaRouter);
  const sandbox = config.sandboxEnabled
    ? sandboxOnDemand({ live: services, executor, after: options.sandboxAfter })
    : null;
  if (sandbox) app.use("/api/v1/sandbox", createSandboxRouter(v1, sandbox.world)(json));
  else {
    app.use("/api/v1/sandbox", (req, res) =>
      refuse("v1", res, "route_not_found", `There is no ${req.method} ${req.originalUrl.split("?")[0]}.`),
    );
  }
  // The body is read after admission, so a malformed one is still answered with the rate headers.
  app.use("/api/v1", v1Router);
  app.use(config.compatPrefix, compatRouter);
  // Switched off, the path is simply not served: the surface-aware 404 below answers it.
  const mcp = config.mcpEnabled
    ? deferred(async () => {
        const { createMcpRouter } = await import("../../facades/mcp/router");
        return createMcpRouter(facade("mcp"), {
          origins: {
            bindHost: config.host,
            publicUrl: config.publicUrl,
            allowedHosts: config.mcpAllowedHosts,
            allowedOrigins: config.mcpAllowedOrigins,
          },
          bodyLimit: config.bodyLimit,
        });
      })
    : null;
  if (mcp) app.use("/api/mcp", mcp.handler);

  app.use(notFound);

  // Body-parser failures and anything thrown by a route: a clear answer in the surface's format,
  // never a stack trace or an internal message.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const surface = surfaceOf(req, config.compatPrefix);
    if (res.headersSent) return void res.end();
    closeIfBodyUnread(req, res);
    const client = clientErrorOf(error, config.bodyLimit);
    if (client) {
      // The client's mistake, not ours: one line without a stack.
      (req as Request & { log?: { info: (o: unknown, m: string) => void } }).log?.info(
        { outcome: client.outcome, reason: client.message },
        "Refused client input",
      );
      if (surface === "compat") {
        // The contract refuses a non-GET verb before anything else, so it stays a 405 whatever its
        // bytes hold. Compat carries the rate headers on every answer: no key was read, so the
        // address's failed-authentication window, read and not spent (as on a 405).
        const verbAllowed = req.method === "GET" || req.method === "HEAD";
        if (!verbAllowed) res.setHeader("Allow", "GET");
        return void admission
          .setUnauthenticatedRateHeaders(req, res)
          .catch(() => undefined)
          .then(() =>
            verbAllowed
              ? refuse(surface, res, client.outcome, client.message)
              : refuse(
                  surface,
                  res,
                  "method_not_allowed",
                  `${req.method} is not allowed; every operation of this API is a GET.`,
                ),
          );
      }
      return refuse(surface, res, client.outcome, client.message);
    }
    const unavailable = databaseUnavailableReason(error);
    if (unavailable) {
      // An outage, not a bug: one line per request, no stack.
      (req as Request & { log?: { warn: (o: unknown, m: string) => void } }).log?.warn(
        { outcome: "database_unavailable", reason: unavailable },
        "Database unavailable",
      );
      return refuse(surface, res, "database_unavailable");
    }
    (req as Request & { log?: { error: (o: unknown, m: string) => void } }).log?.error(
      { err: error },
      "Unhandled error",
    );
    refuse(surface, res, "unexpected");
  });

  return {
    app,
    startDraining() {
      draining = true;
    },
    async warm() {
      await Promise.all([yoga.warm(), mcp?.warm()]);
    },
    async close() {
      await sandbox?.close();
      await answers?.close();
    },
  };
}

/**
 * The answer cache of the live service (src/graphql/answer-cache.ts): in Redis when the deployment
 * shares one, so that every process serves and drops the same answers; else in this process. Every
 * committed write that feeds an answer reaches it through `answersChanged`.
 */
function keptAnswers(services: Services): { cache: AnswerCache; close(): Promise<void> } {
  const { config, logger } = services;
  // Its own connection, failing fast: a read waits for no Redis, it executes instead.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1000 })
    : undefined;
  redis?.on("error", () => undefined); // reported below, once per failing spell
  let failing = false;
  const cache = new AnswerCache({
    schema,
    clock: (services.clock as Clock & { unwatched?: Clock }).unwatched ?? services.clock,
    redis,
    entries: config.answerCacheEntries,
    compiled: config.graphqlExecution === "compiled",
    lookups: services.metrics.cache("answer"),
    onStoreError: (error, during) => {
      if (failing) return;
      failing = true;
      logger.warn(
        { err: error, during },
        "Answer cache store unreachable: reads execute until it answers again",
      );
      setTimeout(() => {
        failing = false;
      }, 60_000).unref();
    },
  });
  const stop = onAnswersChanged((change) => cache.invalidate(change));
  return {
    cache,
    async close() {
      stop();
      await redis?.quit().catch(() => undefined);
    },
  };
}

/** What every app of a process shares: headers, request ids, logs, metrics, the URL guard. */
function baseApp(services: Services, isDraining: () => boolean): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", services.config.trustProxy);
  app.set("etag", false);
  // What every request pays before its route, in as few middleware as it takes: each layer costs a
  // router step on every request (issue 37's profile of the in-memory /carriers route).
  // One layer: the steps run in sequence without a router step between them.
  const prelude: RequestHandler[] = [
    (req, res, next) => {
      // Every answer, refusals and 404s included, is what its Content-Type says and nothing a browser
      // should guess at.
      res.setHeader("X-Content-Type-Options", "nosniff");
      if (isDraining()) res.setHeader("Connection", "close");
      assignRequestId(req, res);
      next();
    },
  ];
  // Before the log, so the request's log lines carry its trace id.
  const tracing = traceRequests(services.config.compatPrefix);
  if (tracing) prelude.push(tracing);
  const logging = requestLogging(services.logger);
  if (logging) prelude.push(logging);
  prelude.push(requestMetrics(services.metrics, services.config.compatPrefix), guardUrl());
  app.use(inSequence(prelude));
  return app;
}

/** /healthz, /readyz and /metrics: what an orchestrator and a scraper ask of every process. */
function mountOperationsRoutes(app: Express, services: Services, isDraining: () => boolean): void {
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (isDraining()) return void res.status(503).json({ status: "draining" });
    // With Redis, its state too: unreachable is "degraded" but still 200, since every instance
    // keeps serving on its insurance window and failing readiness everywhere would take them all out.
    const counters = await services.counters.health?.();
    const shared = counters ? { counters: counters.mode, instances: counters.instances } : {};
    try {
      await services.db.sql.query("SELECT 1");
      const status = counters?.mode === "insurance" ? "degraded" : "ready";
      res.json({ status, database: services.db.kind, ...shared });
    } catch {
      res.status(503).json({ status: "unavailable", database: services.db.kind, ...shared });
    }
  });
  const metricsRefusal = metricsAccess(services.config.metrics);
  app.get("/metrics", async (req, res) => {
    const refusal = metricsRefusal(req, res);
    if (refusal) return refuse("other", res, refusal);
    res.type("text/plain; version=0.0.4").send(await services.metrics.render());
  });
}

/**
 * A worker process (`QUAYSIDE_WORKERS=only`): background work and the operations routes, no API. No
 * persisted operations are loaded; every other path is a 404 saying what the process is.
 */
function buildWorkerProcessApp(services: Services): BuiltApp {
  let draining = false;
  const app = baseApp(services, () => draining);
  mountOperationsRoutes(app, services, () => draining);
  app.use((req: Request, res: Response) => {
    closeIfBodyUnread(req, res);
    refuse(
      "other",
      res,
      "route_not_found",
      `There is no ${req.method} ${req.path} here: this process runs background work only (QUAYSIDE_WORKERS=only).`,
    );
  });
  return {
    app,
    startDraining() {
      draining = true;
    },
    async warm() {},
    async close() {},
  };
}

const OPERATIONS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** The verbs a path answers; "not-mine" when its surface answers `OPTIONS` itself. */
function allowedMethods(path: string, sandboxEnabled: boolean): string[] | undefined | "not-mine" {
  if (OPERATIONS_PATHS.has(path) || /^\/share\/[^/]+$/.test(path)) return ["GET", "HEAD", "OPTIONS"];
  if (sandboxEnabled && path.startsWith("/api/v1/sandbox/")) {
    return v1AllowedMethods(path.slice("/api/v1/sandbox".length), { sandbox: true });
  }
  if (path.startsWith("/api/v1/")) return v1AllowedMethods(path.slice("/api/v1".length), { sandbox: false });
  return "not-mine";
}

/**
 * First path segments the layers mounted before compat serve (operations routes, GraphQL, downloads
 * and partner inbound under /api, share, unsubscribe, carrier push, the dashboard, v1 and its
 * sandbox): a compat prefix under one of them keeps Express's full walk.
 */
const SERVED_BEFORE_COMPAT = new Set([
  "",
  "healthz",
  "readyz",
  "metrics",
  "graphql",
  "api",
  "share",
  "unsubscribe",
  "carrier-push",
  "dashboard",
]);

function surfaceOf(req: Request, compatPrefix: string): PathSurface {
  const path = req.originalUrl.split("?")[0] ?? "";
  if (path === compatPrefix || path.startsWith(`${compatPrefix}/`)) return "compat";
  if (path.startsWith("/api/v1")) return "v1";
  if (path.startsWith("/graphql")) return "graphql";
  if (path.startsWith("/api/mcp")) return "mcp";
  return "other";
}

function refuse(surface: PathSurface, res: Response, outcome: OutcomeCode, message?: string): void {
  const wire = OUTCOMES[outcome];
  switch (surface) {
    case "compat":
      // HTTP 200 whatever went wrong (the contract's only status besides 405), from the table.
      sendCompatRefusal(res, outcome, { detail: message });
      return;
    case "graphql":
      sendGraphQLRefusal(res, outcome, message);
      return;
    case "mcp":
      if (wire.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(wire.retryAfterSeconds));
      res.status(wire.v1.status).json({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: wire.mcp.jsonRpcCode,
          message: message ?? wire.sentence,
          data: refusalData(outcome),
        },
      });
      return;
    default:
      sendV1Error(res, outcome, { message });
  }
}

function sendGraphQLRefusal(res: Response, outcome: OutcomeCode, message?: string): void {
  const wire = OUTCOMES[outcome];
  if (wire.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(wire.retryAfterSeconds));
  res.status(wire.graphql.status).json({
    errors: [
      { message: message ?? wire.sentence, extensions: { code: wire.graphql.code, reason: wire.v1.error } },
    ],
  });
}
