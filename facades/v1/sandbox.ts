import { type Request, type RequestHandler, type Response, Router } from "express";
import type { RunOperation } from "../../src/graphql/operation-runner";
import { closeIfBodyUnread } from "../../src/http/connections";
import type { Principal } from "../../src/http/gate";
import { type FacadeDeps, handler } from "../facade";
import { SendSampleWebhookDocument } from "../generated/operations";
import {
  expressPath,
  type RouteContract,
  SANDBOX_ONLY_ROUTES,
  V1_ROUTES,
  type V1RouteName,
} from "./contract/routes";
import { webhookEventNamed } from "./contract/schemas";
import { checked } from "./input";
import { sendV1Error, sendV1Refusal } from "./respond";
import { createV1Handlers } from "./router";

/** Spec v1 section 8: the sandbox's windows, per address. */
export const SANDBOX_REQUESTS_PER_MINUTE = 60;
export const SANDBOX_FIRES_PER_MINUTE = 5;

/**
 * The sandbox world as its facade sees it: its own core to run operations on (its clock stands
 * still), the organisation every sandbox request acts as, and a way to run a request alone against
 * it (whatever the request wrote is put back afterwards). Built by the composition root.
 */
export interface SandboxWorldAccess {
  run: RunOperation;
  principal: Principal;
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** The reserved reference that answers production's 429 (case, spaces and hyphens ignored). */
  asksRateLimit(reference: string): boolean;
}

/**
 * `/api/v1/sandbox/*` (spec v1 section 4.3): every route of the v1 contract, with the live handlers,
 * run against the sandbox world instead of the caller's organisation (`updated_since` on the list
 * included: it pages the world's eight rows as live pages an organisation's). No key: the window is per
 * address. Success bodies say `mode: "sandbox"`; writes also say `persisted: false` (the world
 * puts back whatever a request wrote). While the world is being built, every sandbox route answers
 * 503 `sandbox_starting` with Retry-After.
 */
export function createSandboxRouter(
  live: FacadeDeps,
  /** The world, or `building` while the composition root still builds it (answered 503 at once). */
  world: () => Promise<SandboxWorldAccess | "building">,
): (bodyParser: RequestHandler) => Router {
  let handlers: { world: SandboxWorldAccess; handlers: ReturnType<typeof createV1Handlers> } | undefined;
  const ready = async () => {
    const w = await world();
    if (w === "building") return null;
    if (handlers?.world !== w) handlers = { world: w, handlers: createV1Handlers({ ...live, run: w.run }) };
    return handlers;
  };
  /** The world is still being built: the outcome table's 503 and Retry-After. */
  const building = (req: Request, res: Response) => {
    closeIfBodyUnread(req, res);
    sendV1Error(res, "sandbox_starting");
  };

  // The sandbox has no key: its windows are per client address, and its 429 says so (the outcome's
  // sentence speaks of a key's window).
  const perAddress =
    (name: string, perMinute: number, what: string): RequestHandler =>
    (req, res, next) => {
      live.admission.spendAddressWindow(req, res, { name, perMinute }).then((rate) => {
        if (rate.allowed) return next();
        closeIfBodyUnread(req, res);
        sendV1Error(res, "rate_limited", {
          message: `Too many ${what} from this address in the current minute: the sandbox needs no key and allows ${perMinute} a minute per client address. Wait for the window to reset.`,
          data: { limit: rate.limit, retryAfter: rate.retryAfterSeconds },
        });
      }, next);
    };

  const router = Router();

  for (const [name, route] of Object.entries(V1_ROUTES) as [V1RouteName, (typeof V1_ROUTES)[V1RouteName]][]) {
    const write = "write" in route && route.write === true;
    router[route.method](
      expressPath(route.path),
      handler(async (req, res) => {
        const built = await ready();
        if (!built) return building(req, res);
        const { world: w, handlers } = built;
        req.principal = w.principal;
        if (asksRateLimited(route, req, w)) {
          // Production's 429 for a spent key window: the body names the plan, the headers say when it resets.
          return sendV1Refusal(res, live.admission.spentKeyWindow(res, w.principal), live.baseUrl);
        }
        markSandbox(req, res, { write, stored: name === "readShipment" && req.query.include === "full" });
        await w.exclusive(() => handlers.get(name)(req, res));
      }),
    );
  }

  router.post(
    "/webhooks/fire",
    perAddress("sandbox-fire", SANDBOX_FIRES_PER_MINUTE, "sample webhooks"),
    handler(
      checked(SANDBOX_ONLY_ROUTES.fireWebhook, async (req, res, { body }) => {
        const built = await ready();
        if (!built) return building(req, res);
        const { world: w } = built;
        // Not alone against the world: the delivery is sent over the network, and only the world's
        // data it carries is read inside the world's queue (by the core).
        const result = await w.run(
          { requestId: req.requestId, principal: w.principal },
          SendSampleWebhookDocument,
          {
            url: body.url,
            event: webhookEventNamed(body.event),
          },
        );
        if (!result.ok) {
          if (result.extensions.reason === "invalid_target") {
            return sendV1Error(res, "bad_request", {
              message: `url is not accepted: ${result.message}.`,
              data: { param: "url" },
            });
          }
          return sendV1Error(res, result.outcome, { message: result.message });
        }
        const sent = result.data.sendSampleWebhook!;
        res.json({
          success: true,
          mode: "sandbox",
          persisted: false,
          delivery_id: sent.deliveryId,
          event: body.event,
          signing_secret: sent.signingSecret,
          response_status: sent.responseStatus,
          error: sent.error,
          delivered: sent.delivered,
          body: sent.body,
        });
      }),
    ),
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

  // The window first: a malformed body is still answered with the rate headers.
  return (bodyParser) =>
    Router().use(perAddress("sandbox", SANDBOX_REQUESTS_PER_MINUTE, "sandbox requests"), bodyParser, router);
}

/** Adds `mode` (and `persisted: false` on writes) to success bodies, right after `success`. */
function markSandbox(_req: Request, res: Response, options: { write: boolean; stored: boolean }): void {
  // The same marks for a list written without res.json (sendV1List).
  res.locals.envelopeMarks = `${options.stored ? "" : '"mode":"sandbox",'}${options.write ? '"persisted":false,' : ""}`;
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

/**
 * The reserved 429 reference, on the routes that take reserved references: in the path (/container,
 * /bl) or anywhere in a /track body (a 429 refuses the whole request).
 */
function asksRateLimited(route: RouteContract, req: Request, world: SandboxWorldAccess): boolean {
  if (!route.reservedReferences) return false;
  if (req.params.number !== undefined) return world.asksRateLimit(String(req.params.number));
  const items = (req.body as { shipments?: unknown } | undefined)?.shipments;
  return (
    Array.isArray(items) &&
    items.some((i) => world.asksRateLimit(String((i as { number?: unknown })?.number ?? "")))
  );
}
