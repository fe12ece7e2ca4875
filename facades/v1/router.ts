import { type RequestHandler, Router } from "express";
import { guard } from "../../src/http/gate";
import { type FacadeDeps, handler } from "../facade";
import { expressPath, V1_ROUTES, type V1RouteName } from "./contract/routes";
import { V1Handlers } from "./handlers";
import { sendV1Refusal } from "./respond";
import { mountAccountRoutes } from "./routes/account.route";
import { mountBulkRoutes } from "./routes/bulk.route";
import { mountCarrierRoutes } from "./routes/carriers.route";
import { mountCongestionRoutes } from "./routes/congestion.route";
import { mountDisruptionRoutes } from "./routes/disruptions.route";
import { mountLookupRoutes } from "./routes/lookups.route";
import { mountPartnerRoutes } from "./routes/partners.route";
import { mountPortRoutes } from "./routes/ports.route";
import { mountRefreshRoutes } from "./routes/refresh.route";
import { mountScheduleRoutes } from "./routes/schedules.route";
import { mountShipmentRoutes } from "./routes/shipments.route";
import { mountTrackingRoutes } from "./routes/tracking.route";
import { mountVesselRoutes } from "./routes/vessels.route";

/** Every handler of the contract, for one core (live, or the sandbox world). */
export function createV1Handlers(deps: FacadeDeps): V1Handlers {
  const api = new V1Handlers();
  mountCarrierRoutes(api, deps);
  mountLookupRoutes(api, deps);
  mountPortRoutes(api, deps);
  mountCongestionRoutes(api, deps);
  mountVesselRoutes(api, deps);
  mountScheduleRoutes(api, deps);
  mountTrackingRoutes(api, deps);
  mountBulkRoutes(api, deps);
  mountAccountRoutes(api, deps);
  mountShipmentRoutes(api, deps);
  mountRefreshRoutes(api, deps);
  mountDisruptionRoutes(api, deps);
  mountPartnerRoutes(api, deps);
  return api;
}

/**
 * Mounts every route of the contract behind `admission`, in the contract's order. The live API and
 * the sandbox are both built here, so a route described in the contract exists on both.
 */
export function mountV1Contract(
  router: Router,
  api: V1Handlers,
  wrap: (name: V1RouteName) => RequestHandler[],
) {
  for (const [name, route] of Object.entries(V1_ROUTES) as [V1RouteName, (typeof V1_ROUTES)[V1RouteName]][]) {
    router[route.method](expressPath(route.path), ...wrap(name), handler(api.get(name)));
  }
}

export function createV1Router(deps: FacadeDeps, bodyParser: RequestHandler): Router {
  const router = Router();
  router.use(
    guard(deps.admission, { allowQueryKey: false }, (res, refusal) =>
      sendV1Refusal(res, refusal, deps.baseUrl),
    ),
    bodyParser,
  );
  mountV1Contract(router, createV1Handlers(deps), () => []);
  return router;
}
