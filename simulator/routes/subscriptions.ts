/**
 * `/<SCAC>/v2/event-subscriptions` (T&T 2.2) and `/<SCAC>/v3/event-subscriptions` (3.0.0-Beta-1):
 * create (201, the secret not echoed), list, get, update (callbackUrl and filters), rotate the secret
 * (`PUT .../{id}/secret`, 204) and delete (204). The carrier's authentication applies as on its events;
 * errors have the version's error shape. The pushes themselves: simulator/subscriptions.ts.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { authorize } from "../auth";
import type { SimulatorContext } from "../context";
import { parseJson, readBody, send } from "../http";
import { renderSubscription, type SubscriptionStore, type SubscriptionVersion } from "../subscriptions";
import { TNT3_API_VERSION, tnt3Error } from "../tnt3";
import { findSimulatedCarrier } from "../world/references";

export function subscriptionRoutes(ctx: SimulatorContext, store: SubscriptionStore) {
  const { clock, auth, tokens, requests, dcsaError } = ctx;

  /** Whether `segments` (`<SCAC>/v2|v3/event-subscriptions/...`) is a subscription resource. */
  function isSubscriptionPath(segments: readonly string[]): boolean {
    return (segments[1] === "v2" || segments[1] === "v3") && segments[2] === "event-subscriptions";
  }

  async function answerSubscriptions(
    req: IncomingMessage,
    res: ServerResponse,
    segments: readonly string[],
  ): Promise<void> {
    const version = segments[1] as SubscriptionVersion;
    const apiVersion = version === "v2" ? "2.2.0" : TNT3_API_VERSION;
    const fail = (
      status: number,
      reason: string,
      messages: string[],
      headers: Record<string, string> = {},
    ) => {
      if (version === "v3") {
        send(res, status, tnt3Error(messages.join(" ")), { "API-Version": apiVersion, ...headers });
        return;
      }
      send(
        res,
        status,
        dcsaError(
          req,
          status,
          messages.map((message) => ({ reason, message })),
        ),
        { "API-Version": apiVersion, ...headers },
      );
    };
    const carrier = findSimulatedCarrier(segments[0] ?? "");
    if (!carrier) {
      fail(404, "notFound", [`No carrier with SCAC ${segments[0] ?? ""} is simulated.`]);
      return;
    }
    requests.set(carrier.scac, (requests.get(carrier.scac) ?? 0) + 1);
    const allowed = authorize(req, {
      auth: auth.get(carrier.scac) ?? { kind: "none" },
      scac: carrier.scac,
      tokens,
      nowMs: clock.now().getTime(),
    });
    if (!allowed.ok) {
      fail(
        401,
        "unauthorized",
        [allowed.message],
        allowed.challenge ? { "WWW-Authenticate": allowed.challenge } : {},
      );
      return;
    }
    const [id, sub, ...extra] = segments.slice(3);
    const headers = { "API-Version": apiVersion };
    const body = async () => {
      const parsed = parseJson(await readBody(req));
      return parsed;
    };
    if (id === undefined) {
      if (req.method === "GET") {
        const list = store
          .list(carrier.scac)
          .filter((s) => s.version === version)
          .map(renderSubscription);
        send(res, 200, list, headers);
        return;
      }
      if (req.method === "POST") {
        if (ctx.faults.get(carrier.scac)?.mode === "subscriptions-refused") {
          fail(503, "serviceUnavailable", ["Subscriptions cannot be created at the moment."]);
          return;
        }
        const parsed = await body();
        if (parsed === undefined) {
          fail(400, "invalidInput", ["The body must be JSON."]);
          return;
        }
        const created = store.create(carrier, version, parsed);
        if ("problems" in created) {
          fail(400, "invalidInput", created.problems);
          return;
        }
        send(res, 201, renderSubscription(created), headers);
        return;
      }
      fail(405, "methodNotAllowed", ["Use GET or POST."], { Allow: "GET, POST" });
      return;
    }
    const subscription = store.get(carrier.scac, id);
    if (!subscription || subscription.version !== version || extra.length > 0) {
      fail(404, "notFound", [`No subscription ${id}.`]);
      return;
    }
    if (sub === "secret") {
      if (req.method !== "PUT") {
        fail(405, "methodNotAllowed", ["Use PUT."], { Allow: "PUT" });
        return;
      }
      const rotated = store.rotateSecret(subscription, await body());
      if (rotated !== true) {
        fail(400, "invalidInput", rotated.problems);
        return;
      }
      send(res, 204, undefined, headers);
      return;
    }
    if (sub !== undefined) {
      fail(404, "notFound", [`No subscription resource ${sub}.`]);
      return;
    }
    if (req.method === "GET") {
      send(res, 200, renderSubscription(subscription), headers);
      return;
    }
    if (req.method === "PUT") {
      const parsed = await body();
      const updated =
        parsed === undefined ? { problems: ["The body must be JSON."] } : store.update(subscription, parsed);
      if ("problems" in updated) {
        fail(400, "invalidInput", updated.problems);
        return;
      }
      send(res, 200, renderSubscription(updated), headers);
      return;
    }
    if (req.method === "DELETE") {
      store.remove(carrier.scac, id);
      send(res, 204, undefined, headers);
      return;
    }
    fail(405, "methodNotAllowed", ["Use GET, PUT or DELETE."], { Allow: "GET, PUT, DELETE" });
  }

  return { isSubscriptionPath, answerSubscriptions };
}
