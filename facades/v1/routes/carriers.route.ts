import type { Router } from "express";
import { z } from "zod";
import { type FacadeDeps, handler, runOperation } from "../../facade";
import { sendV1Error } from "../respond";

export const carriersQuery = z.object({ search: z.string().optional() });

interface CarriersData {
  carriers: { scac: string; name: string; slug: string }[];
}

/** GET /carriers: the carrier directory (spec v1 section 2.10). */
export function mountCarrierRoutes(router: Router, deps: FacadeDeps): void {
  router.get(
    "/carriers",
    handler(async (req, res) => {
      const query = carriersQuery.safeParse(req.query);
      if (!query.success) {
        return sendV1Error(res, "bad_request", {
          message: "search must be a single string.",
          data: { param: "search" },
        });
      }
      const result = await runOperation<CarriersData>(deps, req, "Carriers", { search: query.data.search });
      if (!result.ok)
        return sendV1Error(res, result.outcome, { message: result.message, data: { param: "search" } });
      res.json({ success: true, total: result.data.carriers.length, data: result.data.carriers });
    }),
  );
}
