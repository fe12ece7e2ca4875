import type { Router } from "express";
import type { FacadeDeps } from "../../facade";
import { SealinesDocument } from "../../generated/operations";
import { compatRoute } from "../call";

/**
 * GET /info/sealines (compat section 2.10): only `name` and `scac_codes`. Presence in the list means
 * supported, so only the carriers the core says are tracked are listed (one under maintenance is; its
 * tracking answers SEALINE_UNDER_MAINTENANCE).
 */
export function mountSealineRoutes(router: Router, deps: FacadeDeps): void {
  router.get(
    "/info/sealines",
    compatRoute(deps, async (call) => {
      const { req } = call;
      const result = await deps.run(req, SealinesDocument);
      if (!result.ok) return call.refuse(result.outcome, { detail: result.message });
      await call.answer(
        result.data
          .carriers!.filter((c) => c.tracked)
          .map((c) => ({ name: c.name, scac_codes: c.scacCodes })),
      );
    }),
  );
}
