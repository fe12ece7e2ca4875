/**
 * The simulator's router: the first path segment picks the route family (simulator/routes/), and
 * anything else is a carrier's SCAC. A route that throws answers 500 in the carrier error shape.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatorContext } from "./context";
import { adminRoutes } from "./routes/admin";
import { carrierRoutes } from "./routes/carrier";
import { feedRoutes } from "./routes/feeds";
import { indexRoutes } from "./routes/index-page";
import { subscriptionRoutes } from "./routes/subscriptions";
import { terminalRoutes } from "./routes/terminals";
import { vesselRoutes } from "./routes/vessels";
import { createSubscriptionStore, type SubscriptionStore } from "./subscriptions";
import { findSimulatedCarrier } from "./world/references";

export function createRouter(ctx: SimulatorContext): {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  subscriptions: SubscriptionStore;
} {
  const { sendDcsaError } = ctx;
  const { handleCarrier, eventsForQuery } = carrierRoutes(ctx);
  const subscriptions = createSubscriptionStore({
    clock: ctx.clock,
    faults: ctx.faults,
    eventsFor: (scac, query) => {
      const carrier = findSimulatedCarrier(scac);
      return carrier ? eventsForQuery(carrier, query) : [];
    },
  });
  const { isSubscriptionPath, answerSubscriptions } = subscriptionRoutes(ctx, subscriptions);
  const { handleAdmin } = adminRoutes(ctx, subscriptions);
  const { answerVesselPosition, answerPortArea } = vesselRoutes(ctx);
  const { index } = indexRoutes(ctx);
  const { answerTerminal } = terminalRoutes(ctx);
  const { answerFeed } = feedRoutes(ctx);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://simulator.invalid");
    const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const work =
      segments.length === 0
        ? Promise.resolve(index(req, res))
        : segments[0] === "_admin"
          ? handleAdmin(req, res, segments)
          : segments[0] === "vessels" && segments[1] === "position"
            ? Promise.resolve(answerVesselPosition(req, res, url))
            : segments[0] === "vessels" && segments[1] === "area"
              ? Promise.resolve(answerPortArea(req, res, url))
              : segments[0] === "feeds" && segments.length === 2
                ? Promise.resolve(answerFeed(req, res, segments[1]!))
                : segments[0] === "terminals"
                  ? Promise.resolve(answerTerminal(req, res, url, segments))
                  : isSubscriptionPath(segments)
                    ? answerSubscriptions(req, res, segments)
                    : handleCarrier(req, res, url, segments);
    work.catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      sendDcsaError(req, res, 500, { reason: "internalError", message: `Simulator failure: ${message}` });
    });
  };
  return { handle, subscriptions };
}
