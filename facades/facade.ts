import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Principal } from "../src/domain/accounts/principal";
import type { Surface } from "../src/domain/tracking/tracking.service";
import type { OperationExecutor } from "../src/graphql/executor";
import {
  type OperationResult,
  operationRunner,
  type VariablesArgument,
} from "../src/graphql/operation-runner";
import { closeIfBodyUnread } from "../src/http/connections";
import { type Admission, admit, type GateOptions } from "../src/http/gate";
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

export type { OperationResult };

/**
 * A value of a closed set that the schema still types as a String (until it is a GraphQL enum,
 * issue 17): checked, not cast, so a value outside the set fails loudly instead of reaching a client.
 */
export function oneOf<const T extends string>(allowed: readonly T[], value: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`"${value}" is not one of ${allowed.join(", ")}`);
}

/** The members of an operation's result union named `names` (by `__typename`), null left out. */
export type Member<Union, Names extends string> = Extract<NonNullable<Union>, { __typename: Names }>;

/**
 * Runs a persisted operation for the request; the result type comes from the generated document. A
 * coded error becomes an outcome for the facade to render; anything unexpected propagates to the
 * surface's error handler (logged, masked).
 */
export function runOperation<TData, TVariables>(
  deps: FacadeDeps,
  req: Request,
  document: TypedDocumentNode<TData, TVariables>,
  ...variables: VariablesArgument<TVariables>
): Promise<OperationResult<TData>> {
  return operationRunner(deps.executor, deps.services, deps.surface)(req, document, ...variables);
}
