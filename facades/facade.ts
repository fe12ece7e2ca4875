import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Principal } from "../src/domain/accounts/principal";
import type { Surface } from "../src/domain/tracking/tracking.service";
import { createContext, type GraphQLContext } from "../src/graphql/context";
import type { OperationExecutor } from "../src/graphql/executor";
import { closeIfBodyUnread } from "../src/http/connections";
import { type Admission, admit, type GateOptions } from "../src/http/gate";
import { type OutcomeCode, outcomeForGraphQLCode } from "../src/http/outcomes";
import type { Services } from "../src/services";

/** What every facade gets from the composition root. */
export interface FacadeDeps {
  services: Services;
  executor: OperationExecutor;
  /** The public base URL, for links in bodies (read endpoints, upgrade pages). */
  baseUrl: string;
  /** Recorded with tracking lookups. */
  surface: Surface;
}

declare module "express-serve-static-core" {
  interface Request {
    principal?: Principal;
  }
}

export function contextFor(deps: FacadeDeps, req: Request): GraphQLContext {
  return createContext({
    requestId: req.requestId,
    principal: req.principal ?? null,
    services: deps.services,
    surface: deps.surface,
  });
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
      if (!admission.ok) {
        closeIfBodyUnread(req, res);
        return refuse(res, admission);
      }
      req.principal = admission.principal;
      next();
    }, next);
  };
}

export type OperationResult<T> =
  | { ok: true; data: T }
  | { ok: false; outcome: OutcomeCode; message: string; extensions: Record<string, unknown> };

/**
 * Runs a persisted operation for the request. A coded error becomes an outcome for the facade to
 * render; anything unexpected propagates to the surface's error handler (logged, masked).
 */
export async function runOperation<T>(
  deps: FacadeDeps,
  req: Request,
  name: string,
  variables: Record<string, unknown> = {},
): Promise<OperationResult<T>> {
  const { data, errors } = await deps.executor.run<T>(name, variables, contextFor(deps, req));
  const first = errors[0];
  if (first) {
    return {
      ok: false,
      outcome: outcomeForGraphQLCode(first.extensions.code),
      message: first.message,
      extensions: first.extensions as Record<string, unknown>,
    };
  }
  return { ok: true, data: data as T };
}
