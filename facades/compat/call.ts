import type { Request, RequestHandler, Response } from "express";
import type { OutcomeCode } from "../../src/http/outcomes";
import { type FacadeDeps, handler } from "../facade";
import { CompatCallDocument } from "../generated/operations";
import type { UsageView } from "./render/tracking-answer";
import { sendCompatRefusal, sendCompatSuccess, sendCompatSuccessJson } from "./respond";

/**
 * One admitted compat call. Every call that reaches an operation is counted once in the month's
 * `api_calls.used`, answer or refusal: the tracking operations count inside their own persisted
 * operation (after the track, so `unique_shipments` includes a slot it took); everything else runs
 * `CompatCall` before answering.
 */
export class CompatCall {
  private usage: UsageView | null | undefined;

  constructor(
    readonly deps: FacadeDeps,
    readonly req: Request,
    readonly res: Response,
  ) {}

  /** The usage the call's own operation already counted. */
  counted(usage: UsageView | null): void {
    this.usage = usage;
  }

  /** Counts the call (once) and returns the month's usage, this call included. */
  async count(): Promise<UsageView | null> {
    if (this.usage === undefined) {
      const result = await this.deps.run(this.req, CompatCallDocument);
      this.usage = result.ok ? result.data.usage : null;
    }
    return this.usage;
  }

  async refuse(
    outcome: OutcomeCode,
    options: { detail?: string; data?: Record<string, unknown>; retryAfter?: number } = {},
  ): Promise<void> {
    await this.count();
    sendCompatRefusal(this.res, outcome, options);
  }

  async answer(data: unknown, message = "OK"): Promise<void> {
    await this.count();
    sendCompatSuccess(this.res, data, message);
  }

  /** `answer` with the data already serialised. */
  async answerJson(dataJson: string, message = "OK"): Promise<void> {
    await this.count();
    sendCompatSuccessJson(this.res, dataJson, message);
  }
}

/**
 * A compat operation's route handler. A call that fails unexpectedly is still counted (best effort)
 * before the error handler answers UNEXPECTED_ERROR.
 */
export function compatRoute(deps: FacadeDeps, fn: (call: CompatCall) => Promise<void>): RequestHandler {
  return handler(async (req, res) => {
    const call = new CompatCall(deps, req, res);
    try {
      await fn(call);
    } catch (error) {
      await call.count().catch(() => undefined);
      throw error;
    }
  });
}
