/** `/vessels/position` and `/vessels/area`: the world's ships as AIS sees them (simulator/vessel-positions.ts). */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatorContext } from "../context";
import { send } from "../http";
import { portAreaAnswer, vesselPositionAnswer } from "../vessel-positions";

export function vesselRoutes(ctx: SimulatorContext) {
  const { clock } = ctx;

  function answerVesselPosition(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== "GET") {
      send(res, 405, { error: "Use GET." }, { Allow: "GET" });
      return;
    }
    const answer = vesselPositionAnswer(url.searchParams, clock.now().getTime());
    send(res, answer.status, answer.body);
  }

  function answerPortArea(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== "GET") {
      send(res, 405, { error: "Use GET." }, { Allow: "GET" });
      return;
    }
    const answer = portAreaAnswer(url.searchParams, clock.now().getTime());
    send(res, answer.status, answer.body);
  }

  return { answerVesselPosition, answerPortArea };
}
