import type { Request, Response } from "express";
import { V1_ROUTES, type V1RouteName } from "./contract/routes";
import { type CheckedHandler, checked } from "./input";

export type RouteHandler = (req: Request, res: Response) => Promise<void>;

/** The handlers of the v1 contract, by route name; the router mounts them in the contract's order. */
export class V1Handlers {
  private readonly byName = new Map<V1RouteName, RouteHandler>();

  /** `fn` runs only on input the route's contract accepts (facades/v1/input.ts refuses the rest). */
  on<N extends V1RouteName>(name: N, fn: CheckedHandler<(typeof V1_ROUTES)[N]>): void {
    if (this.byName.has(name)) throw new Error(`v1 route ${name} has two handlers`);
    this.byName.set(name, checked(V1_ROUTES[name], fn));
  }

  get(name: V1RouteName): RouteHandler {
    const fn = this.byName.get(name);
    if (!fn) throw new Error(`v1 route ${name} is described in the contract but has no handler`);
    return fn;
  }
}
