import { type Request, type Response, Router } from "express";
import { guard } from "../../src/http/gate";
import type { FacadeDeps } from "../facade";
import { compatRoute } from "./call";
import { sendCompatAdmissionRefusal, sendCompatRefusal } from "./respond";
import { mountHistoryRoutes } from "./routes/history.route";
import { mountSealineRoutes } from "./routes/sealines.route";
import { mountTrackingRoutes } from "./routes/tracking.route";

const OPERATION_PATHS = ["/tracking", "/container", "/reference", "/route", "/info/sealines", "/history"];

export function createCompatRouter(deps: FacadeDeps): Router {
  const router = Router();
  // Every operation is a GET; any other verb is refused before anything else happens, even auth.
  router.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    refuseMethod(deps, req, res).catch(next);
  });
  router.use(guard(deps.admission, { allowQueryKey: true, challenge: false }, sendCompatAdmissionRefusal));
  mountSealineRoutes(router, deps);
  mountTrackingRoutes(router, deps);
  mountHistoryRoutes(router, deps);
  // A path that is no operation is still answered in the envelope with HTTP 200 (the contract's only
  // status besides 405), after admission like every operation, and counted like any refusal.
  router.use(
    compatRoute(deps, (call) =>
      call.refuse("route_not_found", {
        detail: `There is no operation ${call.req.path}; the operations are ${OPERATION_PATHS.join(", ")}.`,
      }),
    ),
  );
  return router;
}

/**
 * 405 with the envelope. No key has been read, so the rate headers report the only window that
 * applies: the address's failed-authentication window, read and not spent (as on every
 * unauthenticated answer).
 */
async function refuseMethod(deps: FacadeDeps, req: Request, res: Response): Promise<void> {
  await deps.admission.setUnauthenticatedRateHeaders(req, res);
  res.setHeader("Allow", "GET");
  sendCompatRefusal(res, "method_not_allowed", {
    detail: `${req.method} is not allowed; every operation of this API is a GET.`,
  });
}
