import type { Router } from "express";
import { type FacadeDeps, handler, runOperation } from "../../facade";
import { sendCompatRefusal, sendCompatSuccess } from "../respond";

interface SealinesData {
  carriers: { name: string; scacCodes: string[]; status: "active" | "maintenance" | "disabled" }[];
}

/**
 * GET /info/sealines (compat section 2.10): only `name` and `scac_codes`. Presence in the list means
 * supported, so a carrier the operator disabled is left out; one under maintenance stays listed
 * (its tracking answers SEALINE_UNDER_MAINTENANCE).
 */
export function mountSealineRoutes(router: Router, deps: FacadeDeps): void {
  router.get(
    "/info/sealines",
    handler(async (req, res) => {
      const result = await runOperation<SealinesData>(deps, req, "Sealines");
      if (!result.ok) return sendCompatRefusal(res, result.outcome, { detail: result.message });
      sendCompatSuccess(
        res,
        result.data.carriers
          .filter((c) => c.status !== "disabled")
          .map((c) => ({ name: c.name, scac_codes: c.scacCodes })),
      );
    }),
  );
}
