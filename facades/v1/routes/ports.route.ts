import type { FacadeDeps } from "../../facade";
import { PortSearchDocument, type PortSearchQuery } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";

type PortView = NonNullable<PortSearchQuery["ports"]>["items"][number];

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
  api.on("ports", async (req, res, { query }) => {
    const result = await deps.run(req, PortSearchDocument, { search: query.search });
    if (!result.ok)
      return sendV1Error(res, result.outcome, { message: result.message, data: { param: "search" } });
    const ports = result.data.ports!;
    res.json({ success: true, total: ports.total, data: ports.items.map(renderPort) });
  });
}
