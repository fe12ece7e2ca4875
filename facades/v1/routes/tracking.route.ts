import type { Request, Response } from "express";
import { answerFor, HTTP_STATUS_TEXT, OUTCOMES, retryAfterFor } from "../../../src/http/outcomes";
import type { FacadeDeps } from "../../facade";
import { type TrackOutcomeFieldsFragment, TrackReferenceDocument } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { renderTrackingDocument } from "../render/tracking-document";

/** One way a track ended, as the core's TrackOutcomeFields fragment selects it. */
export type TrackResult = TrackOutcomeFieldsFragment;

/**
 * The paths an answer points at (`read=` of the refresh hint, `read_endpoint`, `usageApi`) are under
 * the API that answered: `/api/v1`, or `/api/v1/sandbox` for the sandbox, which needs no key there
 * (live paths would answer its caller 401). Express's `req.baseUrl` is that mount path.
 */
export function v1BaseOf(req: Request): string {
  return req.baseUrl;
}

export type TrackItemResult =
  | { ok: true; slotConsumed: boolean; data: ReturnType<typeof renderTrackingDocument>; refreshHint: string }
  | {
      ok: false;
      status: number;
      error: string;
      message: string;
      data: Record<string, unknown>;
      retryAfter?: number;
    };

/** Runs the core's track and renders its outcome as v1 status, error code and body data. */
export async function trackForV1(
  deps: FacadeDeps,
  req: Request,
  input: { reference: string; type: "container" | "bl"; carrier?: string; localOnly?: boolean },
): Promise<TrackItemResult> {
  const result = await deps.run(req, TrackReferenceDocument, {
    reference: input.reference,
    type: input.type,
    carrier: input.carrier,
    localOnly: input.localOnly ?? false,
  });
  if (!result.ok) {
    const wire = OUTCOMES[result.outcome].v1;
    return { ok: false, status: wire.status, error: wire.error, message: result.message, data: {} };
  }
  return renderTrackOutcome(deps, result.data.track!, v1BaseOf(req));
}

/**
 * One track outcome as v1 status, error code and body data (also each item of POST /track): the
 * status, the error code and the wait come from the outcome table; this file writes the sentence and
 * the data.
 */
export function renderTrackOutcome(deps: FacadeDeps, outcome: TrackResult, v1Base: string): TrackItemResult {
  const answer = answerFor("TrackResult", outcome);
  if (outcome.__typename === "TrackSuccess") return renderTracked(outcome, v1Base);
  if (answer.kind === "answer") throw new Error(`${outcome.__typename} has an answer row but no renderer`);
  const wire = OUTCOMES[answer.outcome].v1;
  const retryAfter = retryAfterFor("v1", answer.outcome, answer.retryAfterSeconds);
  return {
    ok: false,
    status: wire.status,
    error: wire.error,
    ...refusalOf(deps, outcome, v1Base),
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
}

function renderTracked(
  outcome: Extract<TrackResult, { __typename: "TrackSuccess" }>,
  v1Base: string,
): TrackItemResult {
  const name = outcome.shipment.name;
  return {
    ok: true,
    slotConsumed: outcome.slotConsumed,
    data: renderTrackingDocument({
      view: outcome.document,
      shipment: outcome.shipment,
      carrier: outcome.carrier,
      staleReason: outcome.staleReason,
    }),
    refreshHint: `read=${v1Base}/shipments/${name}; next_refresh_eligible_at=${outcome.shipment.nextRefreshEligibleAt ?? "none"}; live fetches are slow, repeat checks should read the stored shipment`,
  };
}

/** A refusal's sentence and data, in v1's words. */
function refusalOf(
  deps: FacadeDeps,
  outcome: Exclude<TrackResult, { __typename: "TrackSuccess" }>,
  v1Base: string,
): { message: string; data: Record<string, unknown> } {
  const usageApi = `${v1Base}/account/usage`;
  switch (outcome.__typename) {
    case "ReferenceNotFound":
    case "CarrierUndetectable": {
      const notFound = outcome.__typename === "ReferenceNotFound" ? outcome : null;
      const queued = notFound?.discoveryQueued === true;
      const data: Record<string, unknown> = {
        tried: notFound?.tried ?? [],
        // Queued: a background job is trying the other candidate carriers; read the outcome back at
        // read_endpoint. Otherwise the reason no job was created.
        discovery: queued ? "queued" : "not_eligible",
        ...(outcome.discoveryReason ? { discovery_reason: outcome.discoveryReason } : {}),
        read_endpoint: `${v1Base}/shipments/${notFound?.shipment.name ?? "{id}"}`,
        hint: notFound
          ? "No carrier asked has a record of this number yet. Check it, or name the carrier with ?sealine=SCAC."
          : "No carrier could be placed for this number. Name the carrier with ?sealine=SCAC.",
      };
      if (notFound?.upgradeMinPlan) {
        data.upgrade = {
          feature: "carrier_discovery",
          min_plan: notFound.upgradeMinPlan,
          message: `Carrier discovery (trying the other likely carriers in the background) starts with the ${notFound.upgradeMinPlan} plan.`,
          url: `${deps.baseUrl}/billing/upgrade?plan=${notFound.upgradeMinPlan}`,
        };
      }
      return { message: "No carrier has a record of this number.", data };
    }
    case "ReferenceInvalid":
      return { message: outcome.message, data: { param: "number" } };
    case "ContainerNotOnDocument":
      // The 404 body of a number no carrier has a record of (the contract's TrackingNotFoundError):
      // what was asked, a box on that document, is what the carrier does not know.
      return {
        message: `${outcome.scac} has no record of container ${outcome.container} on ${outcome.reference}.`,
        data: {
          tried: [outcome.carrierProvided ? outcome.scac : `${outcome.scac} (auto)`],
          discovery: "not_eligible",
          read_endpoint: `${v1Base}/shipments/{id}`,
          hint: `${outcome.scac} answered for ${outcome.reference}, but container ${outcome.container} is not on it. Check the container number, or track ${outcome.reference} alone.`,
        },
      };
    case "CarrierDown":
      return {
        message: `The carrier ${outcome.scac} could not be reached and nothing is stored yet: ${outcome.reason}. Retry in a moment.`,
        data: { sealine: outcome.scac, retryAfter: outcome.retryAfterSeconds },
      };
    case "CarrierUnavailable":
      if (outcome.cause === "unsupported_type") {
        return {
          message: `${outcome.scac} does not resolve this type of reference.`,
          data: { sealine: outcome.scac, param: "sealine" },
        };
      }
      if (outcome.cause === "not_connected") {
        return {
          message: `${outcome.scac} is not supported on this service: it has no connection to that carrier. GET /carriers flags the lines it tracks.`,
          data: { sealine: outcome.scac, param: "sealine" },
        };
      }
      return {
        message: `${outcome.scac} is ${outcome.cause === "maintenance" ? "under maintenance" : "disabled on this service"}. Retry later or track without sealine.`,
        data: { sealine: outcome.scac },
      };
    case "ShipmentLimitReached":
      return {
        message:
          "Every shipment slot of this billing cycle is used; already-tracked shipments stay readable.",
        data: {
          limit: outcome.limit,
          used: outcome.used,
          cycle_ends_at: outcome.cycleEnd,
          usageApi,
        },
      };
    case "PaymentOverdue":
      return {
        message:
          "Payment is overdue past the grace period: new tracking is paused; existing shipments stay readable.",
        data: {
          overdueDays: outcome.overdueDays,
          graceDays: outcome.graceDays,
          plan: outcome.plan,
          manageUrl: `${deps.baseUrl}/billing`,
          usageApi,
        },
      };
  }
}

export function sendTrackFailure(res: Response, failure: Extract<TrackItemResult, { ok: false }>): void {
  if (failure.retryAfter !== undefined) res.setHeader("Retry-After", String(failure.retryAfter));
  res.status(failure.status).json({
    success: false,
    statusCode: failure.status,
    statusMessage: HTTP_STATUS_TEXT[failure.status] ?? "Error",
    message: failure.message,
    data: { error: failure.error, ...failure.data },
  });
}

/** GET /container/{number} and GET /bl/{number}: a live fetch from the carrier. */
export function mountTrackingRoutes(api: V1Handlers, deps: FacadeDeps): void {
  for (const [name, type] of [
    ["trackContainer", "container"],
    ["trackBillOfLading", "bl"],
  ] as const) {
    api.on(name, async (req, res, { params, query }) => {
      const outcome = await trackForV1(deps, req, { reference: params.number, type, carrier: query.sealine });
      if (!outcome.ok) return sendTrackFailure(res, outcome);
      res.setHeader("X-Service-Refresh-Hint", outcome.refreshHint);
      res.json({ success: true, data: outcome.data });
    });
  }
}
