import { type Request, type Response, Router } from "express";
import { guard } from "../../src/http/gate";
import type { FacadeDeps } from "../facade";
import { sendCompatAdmissionRefusal, sendCompatRefusal } from "./respond";
import { mountHistoryRoutes } from "./routes/history.route";
import { mountSealineRoutes } from "./routes/sealines.route";
import { mountTrackingRoutes } from "./routes/tracking.route";

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
    status: 405,
    detail: `${req.method} is not allowed; every operation of this API is a GET.`,
  });
}
