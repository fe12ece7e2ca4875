import type { Router } from "express";
import { z } from "zod";
import { type FacadeDeps, handler, runOperation } from "../../facade";
import { sendV1Error } from "../respond";

const portsQuery = z.object({
  search: z
    .string({ error: "search is required (at least 2 characters)." })
    .trim()
    .min(2, "search needs at least 2 characters."),
});

interface PortView {
  locode: string;
  name: string;
  city: string | null;
  country: string | null;
  countryCode: string;
  region: string | null;
  slug: string;
  lat: number | null;
  lng: number | null;
}

/** The port search item of spec v1 section 2.9. */
export const renderPort = (p: PortView) => ({
  locode: p.locode,
  name: p.name,
  city: p.city,
  country: p.country,
  country_code: p.countryCode,
  region: p.region,
  slug: p.slug,
  lat: p.lat,
  lng: p.lng,
});

/** GET /ports?search= (spec v1 section 4, rule 8). */
export function mountPortRoutes(router: Router, deps: FacadeDeps): void {
  router.get(
    "/ports",
    handler(async (req, res) => {
      const query = portsQuery.safeParse(req.query);
      if (!query.success) {
        return sendV1Error(res, "bad_request", {
          message: query.error.issues[0]!.message,
          data: { param: "search" },
        });
      }
      const result = await runOperation<{ ports: { total: number; items: PortView[] } }>(
        deps,
        req,
        "PortSearch",
        {
          search: query.data.search,
        },
      );
      if (!result.ok)
        return sendV1Error(res, result.outcome, { message: result.message, data: { param: "search" } });
      res.json({
        success: true,
        total: result.data.ports.total,
        data: result.data.ports.items.map(renderPort),
      });
    }),
  );
}
