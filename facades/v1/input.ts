import type { Request, Response } from "express";
import type { z } from "zod";
import type { InputRefusal, RouteContract } from "./contract/routes";
import { sendV1Error } from "./respond";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type CheckedBody<B> = B extends { check: infer C }
  ? Parsed<C>
  : B extends { schema: infer S }
    ? Parsed<S>
    : undefined;

/** A route's path parameters, query and body as its contract describes them, once they passed. */
export interface RouteInput<R extends RouteContract> {
  params: R extends { params: infer P } ? Parsed<P> : undefined;
  query: R extends { query: infer Q } ? Parsed<Q> : undefined;
  body: R extends { body: infer B } ? CheckedBody<B> : undefined;
}

export type CheckedHandler<R extends RouteContract> = (
  req: Request,
  res: Response,
  input: RouteInput<R>,
) => Promise<void>;

type Issue = z.core.$ZodIssue;

/**
 * Checks what the contract describes of a request: path parameters, then the query, then the body
 * (`check` where the contract gives one; an absent body as `{}`). The first issue, or the input.
 */
export function readRouteInput<R extends RouteContract>(
  route: R,
  req: Request,
): { ok: true; input: RouteInput<R> } | { ok: false; issue: Issue } {
  const parts: [z.ZodType | undefined, unknown][] = [
    [route.params, req.params],
    [route.query, req.query],
    [route.body ? (route.body.check ?? route.body.schema) : undefined, req.body ?? {}],
  ];
  const parsed: unknown[] = [];
  for (const [schema, value] of parts) {
    if (!schema) {
      parsed.push(undefined);
      continue;
    }
    const result = schema.safeParse(value);
    if (!result.success) return { ok: false, issue: result.error.issues[0]! };
    parsed.push(result.data);
  }
  const [params, query, body] = parsed;
  return { ok: true, input: { params, query, body } as RouteInput<R> };
}

/** The v1 refusal of an input issue, worded as the route's contract says (status and code: `bad_request`). */
export function sendInputRefusal(res: Response, issue: Issue, wording: InputRefusal = {}): void {
  const path = issue.path.map(String);
  const field = wording.nested ? path.join(".") : (path[0] ?? "");
  const param = field || (wording.param ?? "body");
  const own = issue.code === "unrecognized_keys" ? `Unknown field: ${issue.keys.join(", ")}` : issue.message;
  const message = wording.message ?? (wording.nested ? `${field || "body"}: ${own}` : own);
  sendV1Error(res, "bad_request", {
    message,
    data: wording.malformedBody ? { error: "malformed_body", param } : { param },
  });
}

/**
 * A handler that runs only on input its contract accepts, and receives it parsed: every route is
 * checked here, so a handler (and a new route) has no validation of its own.
 */
export function checked<R extends RouteContract>(
  route: R,
  fn: CheckedHandler<R>,
): (req: Request, res: Response) => Promise<void> {
  return async (req, res) => {
    const read = readRouteInput(route, req);
    if (!read.ok) return sendInputRefusal(res, read.issue, route.inputRefusal);
    await fn(req, res, read.input);
  };
}
