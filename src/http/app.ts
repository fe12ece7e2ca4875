import { fileURLToPath } from "node:url";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { sendCompatRefusal } from "../../facades/compat/respond";
import { createCompatRouter } from "../../facades/compat/router";
import type { FacadeDeps } from "../../facades/facade";
import { gate } from "../../facades/facade";
import { createMcpRouter } from "../../facades/mcp/router";
import { createShareRouter } from "../../facades/share/router";
import { createMetaRouter } from "../../facades/v1/meta";
import { sendV1Error } from "../../facades/v1/respond";
import { createV1Router } from "../../facades/v1/router";
import { createSandboxRouter } from "../../facades/v1/sandbox";
import { OperationExecutor } from "../graphql/executor";
import { publicSchema, schema } from "../graphql/schema";
import { createGraphQLHandler } from "../graphql/yoga";
import type { Services } from "../services";
import { requestId, requestLogging, requestMetrics } from "./observability";
import { OUTCOMES, type OutcomeCode } from "./outcomes";

export const OPERATION_DIRS = [
  "../../facades/v1/operations",
  "../../facades/compat/operations",
  "../../facades/mcp/operations",
  "../../facades/share/operations",
].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

export interface BuiltApp {
  app: Express;
  executor: OperationExecutor;
  /** Flip on SIGTERM: readiness fails and keep-alive connections close after their request. */
  startDraining(): void;
  /** Closes what the app built for itself (the sandbox world). */
  close(): Promise<void>;
}

type Surface = "v1" | "compat" | "graphql" | "mcp" | "other";

/** Builds the HTTP app without listening, so tests and `main` share it. */
export async function buildApp(services: Services, options: { baseUrl: string }): Promise<BuiltApp> {
  const { config } = services;
  const executor = await OperationExecutor.load(schema, OPERATION_DIRS);
  const deps: FacadeDeps = { services, executor, baseUrl: options.baseUrl, surface: "v1" };
  let draining = false;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.set("etag", false);
  app.use(requestId(), requestLogging(services.logger), requestMetrics(services.metrics));
  app.use((_req, res, next) => {
    if (draining) res.setHeader("Connection", "close");
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (draining) return void res.status(503).json({ status: "draining" });
    try {
      await services.db.sql.query("SELECT 1");
      res.json({ status: "ready", database: services.db.kind });
    } catch {
      res.status(503).json({ status: "unavailable", database: services.db.kind });
    }
  });
  app.get("/metrics", async (_req, res) => {
    res.type("text/plain; version=0.0.4").send(await services.metrics.render());
  });

  const json = express.json({ limit: config.bodyLimit, type: ["application/json", "application/*+json"] });

  const yoga = createGraphQLHandler(services, publicSchema);
  const toYoga = (req: Request, res: Response) => void yoga.handle(req, res);
  app.use(
    "/graphql",
    (req, _res, next) => {
      req.metricsRoute = "/graphql";
      next();
    },
    (req, res, next) => {
      // A CORS preflight carries no key and runs nothing: Yoga answers it with the configured policy.
      if (req.method === "OPTIONS") return toYoga(req, res);
      // The GraphiQL page itself (when switched on) needs no key; every operation does.
      if (
        config.graphql.graphiql &&
        req.method === "GET" &&
        req.accepts(["text/html", "application/json"]) === "text/html" &&
        !req.query.query
      ) {
        return toYoga(req, res);
      }
      next();
    },
    // The key is checked before the body is read.
    gate(deps, { allowQueryKey: false, allowDeveloperModeOff: true }, (r, refusal) =>
      sendGraphQLRefusal(r, refusal.outcome),
    ),
    (req, res, next) => {
      if (req.method === "POST" && !req.is(["application/json", "application/*+json"])) {
        return sendGraphQLRefusal(res, "unsupported_media_type");
      }
      next();
    },
    json,
    toYoga,
  );

  app.use(createShareRouter({ ...deps, surface: "v1" }));
  // Public and keyless, so mounted before the v1 gate.
  app.use("/api/v1", createMetaRouter(options.baseUrl));
  const sandbox = config.sandboxEnabled ? createSandboxRouter(deps) : null;
  if (sandbox) app.use("/api/v1/sandbox", sandbox.router(json));
  else {
    app.use("/api/v1/sandbox", (req, res) =>
      refuse("v1", res, "route_not_found", `There is no ${req.method} ${req.originalUrl.split("?")[0]}.`),
    );
  }
  // The body is read after admission, so a malformed one is still answered with the rate headers.
  app.use("/api/v1", createV1Router(deps, json));
  app.use(config.compatPrefix, createCompatRouter({ ...deps, surface: "compat" }));
  // Switched off, the path is simply not served: the surface-aware 404 below answers it.
  if (config.mcpEnabled) app.use("/api/mcp", createMcpRouter({ ...deps, surface: "mcp" }));

  app.use((req: Request, res: Response) => {
    refuse(
      surfaceOf(req, config.compatPrefix),
      res,
      "route_not_found",
      `There is no ${req.method} ${req.path}.`,
    );
  });

  // Body-parser failures and anything thrown by a route: a clear answer in the surface's format,
  // never a stack trace or an internal message.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const type = (error as { type?: string }).type;
    const surface = surfaceOf(req, config.compatPrefix);
    if (res.headersSent) return void res.end();
    if (type === "entity.parse.failed") return refuse(surface, res, "malformed_json");
    if (type === "entity.too.large") {
      return refuse(surface, res, "body_too_large", `The request body is larger than ${config.bodyLimit}.`);
    }
    if (type === "encoding.unsupported" || type === "charset.unsupported") {
      return refuse(surface, res, "bad_request", "The request body's encoding is not supported.");
    }
    (req as Request & { log?: { error: (o: unknown, m: string) => void } }).log?.error(
      { err: error },
      "Unhandled error",
    );
    refuse(surface, res, "unexpected");
  });

  return {
    app,
    executor,
    startDraining() {
      draining = true;
    },
    async close() {
      await sandbox?.close();
    },
  };
}

function surfaceOf(req: Request, compatPrefix: string): Surface {
  const path = req.originalUrl.split("?")[0] ?? "";
  if (path === compatPrefix || path.startsWith(`${compatPrefix}/`)) return "compat";
  if (path.startsWith("/api/v1")) return "v1";
  if (path.startsWith("/graphql")) return "graphql";
  if (path.startsWith("/api/mcp")) return "mcp";
  return "other";
}

function refuse(surface: Surface, res: Response, outcome: OutcomeCode, message?: string): void {
  const wire = OUTCOMES[outcome];
  switch (surface) {
    case "compat":
      sendCompatRefusal(res, outcome, {
        detail: message,
        // A client error that is not an operation's answer (unknown path, broken body) keeps its
        // HTTP status; every operation's own answer is 200.
        status: outcome === "unexpected" ? 200 : wire.v1.status,
      });
      return;
    case "graphql":
      sendGraphQLRefusal(res, outcome, message);
      return;
    case "mcp":
      res.status(wire.v1.status).json({
        jsonrpc: "2.0",
        id: null,
        error: { code: wire.mcp.jsonRpcCode, message: message ?? wire.sentence },
      });
      return;
    default:
      sendV1Error(res, outcome, { message });
  }
}

function sendGraphQLRefusal(res: Response, outcome: OutcomeCode, message?: string): void {
  const wire = OUTCOMES[outcome];
  res.status(wire.graphql.status).json({
    errors: [
      { message: message ?? wire.sentence, extensions: { code: wire.graphql.code, reason: wire.v1.error } },
    ],
  });
}
