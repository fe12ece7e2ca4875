/** `/terminals/<SMDG>/containers/<box>`: a container terminal's inquiry (simulator/terminals.ts). */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatorContext } from "../context";
import { send } from "../http";
import { terminalAnswer } from "../terminals";

export function terminalRoutes(ctx: SimulatorContext) {
  const { clock, world } = ctx;

  function answerTerminal(req: IncomingMessage, res: ServerResponse, url: URL, segments: string[]): void {
    if (req.method !== "GET") {
      send(res, 405, { error: "Use GET." }, { Allow: "GET" });
      return;
    }
    const [, code, resource, box] = segments;
    if (segments.length !== 4 || resource !== "containers" || !code || !box) {
      send(res, 404, { error: "Ask /terminals/<SMDG code>/containers/<container number>." });
      return;
    }
    const answer = terminalAnswer(world, {
      terminalCode: code,
      containerNumber: box,
      params: url.searchParams,
      nowMs: clock.now().getTime(),
    });
    send(res, answer.status, answer.body);
  }

  return { answerTerminal };
}
