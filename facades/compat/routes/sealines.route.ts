import type { Router } from "express";
import type { FacadeDeps } from "../../facade";
import { SealinesDocument } from "../../generated/operations";
import { compatRoute } from "../call";

/**
 * GET /info/sealines (compat section 2.10): only `name` and `scac_codes`. Presence in the list means
 * supported, so a carrier the operator disabled is left out; one under maintenance stays listed
 * (its tracking answers SEALINE_UNDER_MAINTENANCE).
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
          .carriers!.filter((c) => c.status !== "disabled")
          .map((c) => ({ name: c.name, scac_codes: c.scacCodes })),
      );
    }),
  );
}
