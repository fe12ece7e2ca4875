import { type Request, type RequestHandler, type Response, Router } from "express";
import { SandboxWorld } from "../../src/app/sandbox-world";
import { MINUTE_MS, type WindowDecision } from "../../src/domain/limits/fixed-window";
import { RESERVED_REFERENCES, reservedKey } from "../../src/domain/sandbox/reserved-references";
import { closeIfBodyUnread } from "../../src/http/connections";
import { clientAddress, setRateHeaders } from "../../src/http/gate";
import { type FacadeDeps, handler } from "../facade";
import { expressPath, type RouteContract, V1_ROUTES, type V1RouteName } from "./contract/routes";
import { WebhookFireBody } from "./contract/schemas";
import { sendV1Error, sendV1Refusal } from "./respond";
import { createV1Handlers } from "./router";

/** Spec v1 section 8: the sandbox's windows, per address. */
export const SANDBOX_REQUESTS_PER_MINUTE = 60;
export const SANDBOX_FIRES_PER_MINUTE = 5;

/**
 * `/api/v1/sandbox/*` (spec v1 section 4.3): every route of the v1 contract, with the live handlers,
 * run against the sandbox world instead of the caller's organisation. No key: the window is per
 * address. Success bodies say `mode: "sandbox"`; writes also say `persisted: false` (the world
 * puts back whatever a request wrote). The world is built on the first sandbox request.
 */
export function createSandboxRouter(live: FacadeDeps): {
  router(bodyParser: RequestHandler): Router;
  close(): Promise<void>;
} {
  const { services } = live;
  let world: Promise<{ world: SandboxWorld; handlers: ReturnType<typeof createV1Handlers> }> | undefined;
  const ready = () => {
    world ??= SandboxWorld.create({ config: services.config, logger: services.logger }).then((w) => ({
      world: w,
      handlers: createV1Handlers({ ...live, services: w.services }),
    }));
    // A failed build is retried by the next request rather than remembered.
    world.catch(() => {
      world = undefined;
    });
    return world;
  };

  const perAddress =
    (subject: string, limit: number): RequestHandler =>
    (req, res, next) => {
      services.limiter.consume(`${subject}:${clientAddress(req)}`, limit, MINUTE_MS).then((rate) => {
        setRateHeaders(res, rate);
        if (rate.allowed) return next();
        closeIfBodyUnread(req, res);
        res.setHeader("Retry-After", String(rate.retryAfterSeconds));
        sendV1Error(res, "rate_limited", { data: { limit: rate.limit, retryAfter: rate.retryAfterSeconds } });
      }, next);
    };

  const router = Router();

  for (const [name, route] of Object.entries(V1_ROUTES) as [V1RouteName, (typeof V1_ROUTES)[V1RouteName]][]) {
    const write = "write" in route && route.write === true;
    router[route.method](
      expressPath(route.path),
      handler(async (req, res) => {
        const { world: w, handlers } = await ready();
        req.principal = w.principal;
        if (asksRateLimited(route, req)) return sendReservedRateLimit(live, w, req, res);
        if (name === "listShipments") ignoreUpdatedSince(req);
        markSandbox(req, res, { write, stored: name === "readShipment" && req.query.include === "full" });
        await w.run(() => handlers.get(name)(req, res));
      }),
    );
  }

  router.post(
    "/webhooks/fire",
    perAddress("sandbox-fire", SANDBOX_FIRES_PER_MINUTE),
    handler(async (req, res) => {
      const body = WebhookFireBody.strict().safeParse(req.body ?? {});
      if (!body.success) {
        const issue = body.error.issues[0]!;
        const param = String(issue.path[0] ?? "body");
        return sendV1Error(res, "bad_request", {
          message:
            param === "event"
              ? `event must be one of: ${WebhookFireBody.shape.event.options.join(", ")}.`
              : param === "url"
                ? "url must be a public https URL."
                : issue.code === "unrecognized_keys"
                  ? `Unknown field: ${issue.keys.join(", ")}`
                  : issue.message,
          data: { param },
        });
      }
      const { world: w } = await ready();
      // Read inside the world's queue, so it never sees a request's writes half put back.
      const data = await w.run(() => w.sampleEventData(body.data.event));
      // Sent by the live service, on the server's clock: the world's clock stands still, and a
      // delivery signed (and `created`) at the frozen moment fails every receiver's timestamp
      // tolerance. Only the content comes from the world; sendSample stores nothing.
      const sent = await services.webhooks.sendSample(body.data.url, body.data.event, data);
      if (sent.kind === "invalid_target") {
        return sendV1Error(res, "bad_request", {
          message: `url is not accepted: ${sent.reason}.`,
          data: { param: "url" },
        });
      }
      res.json({
        success: true,
        mode: "sandbox",
        persisted: false,
        delivery_id: sent.deliveryId,
        event: body.data.event,
        signing_secret: sent.signingSecret,
        response_status: sent.status,
        error: sent.error,
        delivered: sent.status !== null && sent.status >= 200 && sent.status < 300,
        body: sent.body,
      });
    }),
  );

  // A request no sandbox route takes is answered here, in the sandbox's window, rather than falling
  // through to the live API, whose gate would ask it for a key it never needs.
  const methodsByPath = new Map<string, Set<string>>([["/webhooks/fire", new Set(["POST"])]]);
  for (const route of Object.values(V1_ROUTES)) {
    const path = expressPath(route.path);
    const methods = methodsByPath.get(path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === "get") methods.add("HEAD");
    methodsByPath.set(path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    router.all(path, (req, res) => {
      res.setHeader("Allow", [...methods].join(", "));
      sendV1Error(res, "method_not_allowed", {
        message: `${req.method} is not allowed here; this endpoint answers ${[...methods].join(", ")}.`,
      });
    });
  }
  router.use((req, res) => {
    sendV1Error(res, "route_not_found", {
      message: `There is no ${req.method} ${req.originalUrl.split("?")[0]}.`,
    });
  });

  return {
    router(bodyParser) {
      // The window first: a malformed body is still answered with the rate headers.
      return Router().use(perAddress("sandbox", SANDBOX_REQUESTS_PER_MINUTE), bodyParser, router);
    },
    async close() {
      const built = await world?.catch(() => undefined);
      await built?.world.close();
    },
  };
}

/** The sandbox's list is always the whole stable set: `updated_since` is ignored (spec v1 section 4.3). */
function ignoreUpdatedSince(req: Request): void {
  const { updated_since: _ignored, ...query } = req.query;
  Object.defineProperty(req, "query", { value: query, configurable: true, enumerable: true, writable: true });
}

/** Adds `mode` (and `persisted: false` on writes) to success bodies, right after `success`. */
function markSandbox(_req: Request, res: Response, options: { write: boolean; stored: boolean }): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (body && typeof body === "object" && (body as { success?: unknown }).success === true) {
      const { success, ...rest } = body as Record<string, unknown>;
      return json({
        success,
        // `?include=full` says `stored` in its data, as live does.
        ...(options.stored ? {} : { mode: "sandbox" }),
        ...(options.write ? { persisted: false } : {}),
        ...rest,
      });
    }
    return json(body);
  };
}

const RATE_LIMITED = reservedKey(RESERVED_REFERENCES.rateLimited);

/**
 * The reserved 429 reference, on the routes that take reserved references: in the path (/container,
 * /bl) or anywhere in a /track body (a 429 refuses the whole request).
 */
function asksRateLimited(route: RouteContract, req: Request): boolean {
  if (!route.reservedReferences) return false;
  if (req.params.number !== undefined) return reservedKey(String(req.params.number)) === RATE_LIMITED;
  const items = (req.body as { shipments?: unknown } | undefined)?.shipments;
  return (
    Array.isArray(items) &&
    items.some((i) => reservedKey(String((i as { number?: unknown })?.number ?? "")) === RATE_LIMITED)
  );
}

/** Production's 429 for a spent key window: the body names the plan, the headers say when it resets. */
function sendReservedRateLimit(live: FacadeDeps, w: SandboxWorld, _req: Request, res: Response): void {
  const now = live.services.clock.now().getTime();
  const resetAt = Math.ceil((now + 1) / MINUTE_MS) * (MINUTE_MS / 1000);
  const limit = w.principal.plan.ratePerMinute;
  const rate: WindowDecision = {
    allowed: false,
    limit,
    remaining: 0,
    resetAt,
    retryAfterSeconds: Math.max(1, resetAt - Math.floor(now / 1000)),
  };
  setRateHeaders(res, rate);
  res.setHeader("Retry-After", String(rate.retryAfterSeconds));
  sendV1Refusal(res, { ok: false, outcome: "rate_limited", principal: w.principal, rate }, live.baseUrl);
}
