import { Router } from "express";
import { type FacadeDeps, gate } from "../facade";
import { sendCompatAdmissionRefusal, sendCompatRefusal } from "./respond";
import { mountSealineRoutes } from "./routes/sealines.route";

export function createCompatRouter(deps: FacadeDeps): Router {
  const router = Router();
  // Every operation is a GET; any other verb is refused before anything else happens, even auth.
  router.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    res.setHeader("Allow", "GET");
    sendCompatRefusal(res, "method_not_allowed", {
      status: 405,
      detail: `${req.method} is not allowed; every operation of this API is a GET.`,
    });
  });
  router.use(gate(deps, { allowQueryKey: true }, sendCompatAdmissionRefusal));
  mountSealineRoutes(router, deps);
  return router;
}
