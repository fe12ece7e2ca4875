import type { FacadeDeps } from "../../facade";
import { PortSearchDocument, type PortSearchQuery } from "../../generated/operations";
import { portsQuery } from "../contract/routes";
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
  api.on("ports", async (req, res) => {
    const query = portsQuery.safeParse(req.query);
    if (!query.success) {
      return sendV1Error(res, "bad_request", {
        message: query.error.issues[0]!.message,
        data: { param: "search" },
      });
    }
    const result = await deps.run(req, PortSearchDocument, { search: query.data.search });
    if (!result.ok)
      return sendV1Error(res, result.outcome, { message: result.message, data: { param: "search" } });
    const ports = result.data.ports!;
    res.json({ success: true, total: ports.total, data: ports.items.map(renderPort) });
  });
}
