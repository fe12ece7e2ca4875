import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Principal } from "../src/domain/accounts/principal";
import { type Admission, admit, type GateOptions } from "../src/http/gate";
import { createContext, type GraphQLContext } from "../src/graphql/context";
import type { OperationExecutor } from "../src/graphql/executor";
import type { Services } from "../src/services";

/** What every facade gets from the composition root. */
export interface FacadeDeps {
  services: Services;
  executor: OperationExecutor;
  /** The public base URL, for links in bodies (read endpoints, upgrade pages). */
  baseUrl: string;
}

declare module "express-serve-static-core" {
  interface Request {
    principal?: Principal;
  }
}

export function contextFor(deps: FacadeDeps, req: Request): GraphQLContext {
  return createContext({ requestId: req.requestId, principal: req.principal ?? null, services: deps.services });
}

/** Express 5 forwards rejected promises to the error handler, which answers in the surface's format. */
export function handler(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch(next);
  };
}

/** Admission as middleware: refused requests are answered by `refuse` and never reach a route. */
export function gate(
  deps: FacadeDeps,
  options: GateOptions,
  refuse: (res: Response, admission: Extract<Admission, { ok: false }>) => void,
): RequestHandler {
  return (req, res, next) => {
    admit(deps.services, req, res, options).then((admission) => {
      if (!admission.ok) return refuse(res, admission);
      req.principal = admission.principal;
      next();
    }, next);
  };
}
