import { Router } from "express";
import { type FacadeDeps, handler } from "../facade";
import { SharedShipmentDocument } from "../generated/operations";
import { renderGonePage, renderSharePage } from "./page";

/**
 * GET /share/{token}: the public page of a shared shipment. No key: the unguessable token is the
 * capability, and revoking it makes the page go away at once (nothing is cached).
 */
export function createShareRouter(deps: FacadeDeps): Router {
  const router = Router();
  router.get(
    "/share/:token",
    handler(async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Referrer-Policy", "no-referrer");
      res.setHeader("X-Robots-Tag", "noindex");
      // Not frameable (clickjacking): frame-ancestors for current browsers, X-Frame-Options for old ones.
      res.setHeader(
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
      );
      res.setHeader("X-Frame-Options", "DENY");
      const result = await deps.run(req, SharedShipmentDocument, {
        token: String(req.params.token),
      });
      const shipment = result.ok ? result.data.sharedShipment : null;
      if (!shipment) return void res.status(404).type("html").send(renderGonePage());
      res.type("html").send(renderSharePage(shipment));
    }),
  );
  return router;
}
