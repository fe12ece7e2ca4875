import { Router } from "express";
import { type FacadeDeps, gate } from "../facade";
import { sendV1Refusal } from "./respond";
import { mountAccountRoutes } from "./routes/account.route";
import { mountBulkRoutes } from "./routes/bulk.route";
import { mountCarrierRoutes } from "./routes/carriers.route";
import { mountLookupRoutes } from "./routes/lookups.route";
import { mountPortRoutes } from "./routes/ports.route";
import { mountScheduleRoutes } from "./routes/schedules.route";
import { mountShipmentRoutes } from "./routes/shipments.route";
import { mountTrackingRoutes } from "./routes/tracking.route";
import { mountVesselRoutes } from "./routes/vessels.route";

export function createV1Router(deps: FacadeDeps): Router {
  const router = Router();
  router.use(
    gate(deps, { allowQueryKey: false }, (res, refusal) => sendV1Refusal(res, refusal, deps.baseUrl)),
  );
  mountCarrierRoutes(router, deps);
  mountLookupRoutes(router, deps);
  mountPortRoutes(router, deps);
  mountVesselRoutes(router, deps);
  mountScheduleRoutes(router, deps);
  mountTrackingRoutes(router, deps);
  mountBulkRoutes(router, deps);
  mountAccountRoutes(router, deps);
  mountShipmentRoutes(router, deps);
  return router;
}
