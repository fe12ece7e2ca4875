import type { FacadeDeps } from "../../facade";
import { CarriersDocument } from "../../generated/operations";
import { carriersQuery } from "../contract/routes";
import type { V1Handlers } from "../handlers";
import { sendV1Error, sendV1List } from "../respond";

/** GET /carriers: the carrier directory (spec v1 section 2.10). */
export function mountCarrierRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("carriers", async (req, res) => {
    const query = carriersQuery.safeParse(req.query);
    if (!query.success) {
      return sendV1Error(res, "bad_request", {
        message: "search must be a single string.",
        data: { param: "search" },
      });
    }
    const result = await deps.run(req, CarriersDocument, { search: query.data.search });
    if (!result.ok)
      return sendV1Error(res, result.outcome, { message: result.message, data: { param: "search" } });
    sendV1List(res, result.data.carriers!);
  });
}
