import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { OperationResult, RunOperation } from "../src/graphql/operation-runner";
import type { AdmissionGate } from "../src/http/gate";

/**
 * What a facade gets from the composition root: only what translation needs. No services object,
 * no limiter, no database and no clock reaches a facade; what it may do is run persisted operations,
 * ask the gate, link to the deployment and write a log line.
 */
export interface FacadeDeps {
  /** Runs persisted operations as the request's caller, recorded as this facade's surface. */
  run: RunOperation;
  /** Keys, rate windows and their headers. */
  admission: AdmissionGate;
  /** The public base URL, for links in bodies (read endpoints, upgrade pages). */
  baseUrl: string;
  log: FacadeLog;
}

/** A log line from a facade (the composition root decides where it goes; the request id is in `fields`). */
export type FacadeLog = (level: "warn" | "error", fields: Record<string, unknown>, message: string) => void;

/** Express 5 forwards rejected promises to the error handler, which answers in the surface's format. */
export function handler(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch(next);
  };
}

export type { OperationResult };

/** The members of an operation's result union named `names` (by `__typename`), null left out. */
export type Member<Union, Names extends string> = Extract<NonNullable<Union>, { __typename: Names }>;
