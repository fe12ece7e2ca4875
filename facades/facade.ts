import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { OperationResult, RunOperation } from "../src/graphql/operation-runner";
import type { AdmissionGate } from "../src/http/gate";
import type { Clock } from "../src/lib/clock";

/**
 * What a facade gets from the composition root: only what translation needs. No services object,
 * no limiter, no database reaches a facade; what it may do is run persisted operations, ask the gate,
 * link to the deployment, read the time and write a log line.
 */
export interface FacadeDeps {
  /** Runs persisted operations as the request's caller, recorded as this facade's surface. */
  run: RunOperation;
  /** Keys, rate windows and their headers. */
  admission: AdmissionGate;
  /** The public base URL, for links in bodies (read endpoints, upgrade pages). */
  baseUrl: string;
  /** The service's clock: a spent slot allowance's Retry-After is counted from it. */
  clock: Clock;
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
