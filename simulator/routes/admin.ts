/** `/_admin/...`: the state, faults, habits and clock of the simulator (README "HTTP"). */

import type { IncomingMessage, ServerResponse } from "node:http";
import { ManualClock } from "../../src/lib/clock";
import type { SimulatorContext } from "../context";
import { parseFault } from "../faults";
import { parseHabitsBody } from "../habits";
import { mainScac, parseJson, readBody, send } from "../http";
import { renderSubscription, type SubscriptionControl } from "../subscriptions";
import { findSimulatedCarrier } from "../world/references";

export function adminRoutes(ctx: SimulatorContext, subscriptions: SubscriptionControl) {
  const { clock, faults, habits, tokens, requests } = ctx;

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
    const [, resource, target] = segments;
    if (resource === "state" && req.method === "GET") {
      send(res, 200, {
        clock: { now: clock.now().toISOString(), manual: clock instanceof ManualClock },
        faults: faults.list(),
        habits: habits.list(),
        tokenIssues: tokens.issueCounts(),
        subscriptions: subscriptions
          .list()
          .map((s) => ({ scac: s.scac, version: s.version, ...renderSubscription(s) })),
        pushes: subscriptions.pushes().length,
        requests: Object.fromEntries(requests),
      });
      return;
    }
    if (resource === "faults") {
      if (req.method === "DELETE") {
        if (target && !findSimulatedCarrier(target)) {
          send(res, 404, { error: `No carrier with SCAC ${target} is simulated.` });
          return;
        }
        faults.clear(target);
        send(res, 204, undefined);
        return;
      }
      if (req.method === "PUT" && target) {
        if (!findSimulatedCarrier(target)) {
          send(res, 404, { error: `No carrier with SCAC ${target} is simulated.` });
          return;
        }
        const parsed = parseJson(await readBody(req));
        const fault = parsed === undefined ? "body must be JSON" : parseFault(parsed);
        if (typeof fault === "string") {
          send(res, 400, { error: fault });
          return;
        }
        faults.set(target, fault);
        send(res, 200, { scac: mainScac(target), fault });
        return;
      }
    }
    if (resource === "habits") {
      if (target && !findSimulatedCarrier(target)) {
        send(res, 404, { error: `No carrier with SCAC ${target} is simulated.` });
        return;
      }
      if (req.method === "DELETE") {
        habits.clear(target);
        send(res, 204, undefined);
        return;
      }
      if (req.method === "PUT" && target) {
        const parsed = parseJson(await readBody(req));
        const value = parsed === undefined ? "body must be JSON" : parseHabitsBody(parsed);
        if (typeof value === "string") {
          send(res, 400, { error: value });
          return;
        }
        habits.set(target, value);
        send(res, 200, { scac: mainScac(target), ...habits.get(target) });
        return;
      }
    }
    if (resource === "clock" && req.method === "PUT") {
      if (!(clock instanceof ManualClock)) {
        send(res, 409, {
          error: "The simulator runs on the system clock; start it with a ManualClock to move time.",
        });
        return;
      }
      const parsed = parseJson(await readBody(req));
      const body = (typeof parsed === "object" && parsed !== null ? parsed : {}) as {
        now?: unknown;
        advanceMs?: unknown;
      };
      if (typeof body.now === "string" && !Number.isNaN(Date.parse(body.now))) clock.set(body.now);
      else if (typeof body.advanceMs === "number" && Number.isFinite(body.advanceMs))
        clock.advance(body.advanceMs);
      else {
        send(res, 400, { error: "Send {now: ISO date-time} or {advanceMs: number}." });
        return;
      }
      // Events the move created are pushed before the answer, so a caller sees them delivered.
      await subscriptions.deliver();
      send(res, 200, { now: clock.now().toISOString() });
      return;
    }
    send(res, 404, { error: `No admin resource ${req.method} /${segments.join("/")}.` });
  }

  return { handleAdmin };
}
