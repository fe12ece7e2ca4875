import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * Middleware run one after the other as one: what Express's router does for consecutive layers,
 * without its per-layer step (path match, parameters, prefix trimming), which every request pays for
 * every layer it passes (issue 37's profile of the in-memory `/carriers` route: the router's own walk
 * was about a tenth of the route's CPU). Keeps Express 5's contract for each handler: `next(error)`
 * and a thrown error or rejected promise go to the error handlers; `next()` runs the following one.
 */
export function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1 && handlers[0]) return handlers[0];
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      const handle = handlers[index++];
      if (!handle) {
        next();
        return;
      }
      try {
        const returned: unknown = handle(req, res, step);
        if (returned instanceof Promise)
          returned.catch((rejected: unknown) => next(rejected ?? new Error("Rejected promise")));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
