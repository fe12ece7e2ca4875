import type { FacadeDeps } from "../../facade";
import { CarriersDocument } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error, sendV1List } from "../respond";

/** GET /carriers: the carrier directory (spec v1 section 2.10). */
export function mountCarrierRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("carriers", async (req, res, { query }) => {
    const result = await deps.run(req, CarriersDocument, { search: query.search });
    if (!result.ok)
      return sendV1Error(res, result.outcome, { message: result.message, data: { param: "search" } });
    sendV1List(res, result.data.carriers!);
  });
}
