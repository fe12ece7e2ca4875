import type { Request, Response } from "express";
import type { V1RouteName } from "./contract/routes";

export type RouteHandler = (req: Request, res: Response) => Promise<void>;

/** The handlers of the v1 contract, by route name; the router mounts them in the contract's order. */
export class V1Handlers {
  private readonly byName = new Map<V1RouteName, RouteHandler>();

  on(name: V1RouteName, fn: RouteHandler): void {
    if (this.byName.has(name)) throw new Error(`v1 route ${name} has two handlers`);
    this.byName.set(name, fn);
  }

  get(name: V1RouteName): RouteHandler {
    const fn = this.byName.get(name);
    if (!fn) throw new Error(`v1 route ${name} is described in the contract but has no handler`);
    return fn;
  }
}
