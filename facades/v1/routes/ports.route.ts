import { type FacadeDeps, runOperation } from "../../facade";
import { portsQuery } from "../contract/routes";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";

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
export function mountPortRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("ports", async (req, res) => {
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
  });
}
