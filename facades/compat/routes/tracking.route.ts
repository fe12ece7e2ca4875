import type { Router } from "express";
import { answerFor, type OutcomeCode } from "../../../src/http/outcomes";
import type { FacadeDeps } from "../../facade";
import {
  CompatSealineDocument,
  CompatServedDocument,
  CompatStoredTrackDocument,
  type CompatStoredTrackQuery,
  CompatTrackDocument,
  type CompatTrackedFragment,
  type CompatTrackMutation,
} from "../../generated/operations";
import { type CompatCall, compatRoute } from "../call";
import { type CompatType, coreReferenceType, parseTrackingParams, type TrackingParams } from "../params";
import { carrierFailureWords } from "../render/carrier-failure";
import {
  renderRouteData,
  successMessage,
  trackingAnswerJson,
  type UsageView,
} from "../render/tracking-answer";

/** A lookup answered with a document, fresh or from the store (`track` or `storedTrack`). */
export type Tracked = CompatTrackedFragment;

export type CompatTrackOutcome =
  | { ok: true; tracked: Tracked }
  | {
      ok: false;
      outcome: OutcomeCode;
      detail?: string;
      data?: Record<string, unknown>;
      retryAfter?: number;
    };

const TYPE_NAME: Record<string, string> = {
  container: "container number",
  bl: "bill of lading",
  booking: "booking",
};

/** A named sealine must be a carrier of the directory (what /info/sealines lists, or disabled). */
function namesSealine(
  carriers: readonly { scacCodes: readonly string[] }[] | null | undefined,
  code: string,
) {
  return (carriers ?? []).some((c) => c.scacCodes.includes(code));
}

async function knownSealine(call: CompatCall, code: string): Promise<boolean> {
  const result = await call.deps.run(call.req, CompatSealineDocument, { code });
  return result.ok && namesSealine(result.data.carriers, code);
}

function sealineNotSupported(code: string): CompatTrackOutcome {
  return {
    ok: false,
    outcome: "carrier_not_supported",
    detail: `${code} is not a carrier this service tracks; /info/sealines lists the ones it does, or send sealine=auto.`,
  };
}

/**
 * Runs the core's track for a compat call (serving the stored document while younger than 12 hours)
 * and maps the way it ended to a compat outcome. The call is counted by the same operation.
 */
export async function trackForCompat(call: CompatCall, params: TrackingParams): Promise<CompatTrackOutcome> {
  // The stored answer's read holds the named sealine's directory entry too (one kept read, not two).
  const stored = params.forceUpdate ? null : await storedAnswer(call, params);
  const read = stored?.ok ? stored.data : null;
  if (params.sealine !== null) {
    const known = read
      ? namesSealine(read.sealines, params.sealine)
      : await knownSealine(call, params.sealine);
    if (!known) return sealineNotSupported(params.sealine);
  }
  if (read?.storedTrack) return servedFromStore(call, read.storedTrack, read.slots);
  const result = await call.deps.run(call.req, CompatTrackDocument, {
    reference: params.number,
    type: coreReferenceType(params.type),
    carrier: params.sealine ?? undefined,
    force: params.forceUpdate,
    withRoute: params.route,
  });
  // The operation counted the call whether or not `track` itself was refused (a view-only key).
  if (!result.ok) {
    call.counted(null);
    return { ok: false, outcome: result.outcome, detail: result.message };
  }
  call.counted(result.data.usage);
  const outcome = result.data.track;
  if (!outcome) return { ok: false, outcome: "unexpected" };
  if (outcome.__typename === "TrackSuccess") return { ok: true, tracked: outcome };
  const answer = answerFor("TrackResult", outcome);
  if (answer.kind === "answer") return { ok: false, outcome: "unexpected" };
  // The one choice compat makes: without a type, a number that is not even container-shaped could
  // not be typed at all, which compat's vocabulary says apart (AUTO_CANT_DETECT_TYPE).
  if (
    outcome.__typename === "ReferenceInvalid" &&
    params.type === null &&
    outcome.referenceType !== "container"
  ) {
    return { ok: false, outcome: "reference_type_undetectable", detail: undefined };
  }
  return {
    ok: false,
    outcome: answer.outcome,
    ...refusalDetail(outcome),
    ...(answer.retryAfterSeconds === undefined ? {} : { retryAfter: answer.retryAfterSeconds }),
  };
}

/**
 * The stored answer, when the core can give it without writing (a reference the organisation tracks,
 * its document younger than 12 hours), read with the named sealine's directory entry. Kept.
 */
function storedAnswer(call: CompatCall, params: TrackingParams) {
  return call.deps.run(call.req, CompatStoredTrackDocument, {
    reference: params.number,
    type: coreReferenceType(params.type),
    carrier: params.sealine ?? undefined,
    withRoute: params.route,
    sealine: params.sealine ?? "",
    checkSealine: params.sealine !== null,
  });
}

/** Serves a stored answer: one mutation logs the lookup and counts the call. */
async function servedFromStore(
  call: CompatCall,
  storedTrack: NonNullable<CompatStoredTrackQuery["storedTrack"]>,
  slots: CompatStoredTrackQuery["slots"],
): Promise<CompatTrackOutcome> {
  const served = await call.deps.run(call.req, CompatServedDocument, { receipt: storedTrack.receipt });
  if (!served.ok) {
    call.counted(null);
    return { ok: false, outcome: served.outcome, detail: served.message };
  }
  const calls = served.data.usage?.calls;
  call.counted(
    calls === undefined
      ? null
      : { calls, slotLimit: slots.limit, slotsHeld: slots.held, slotsRemaining: slots.remaining },
  );
  return { ok: true, tracked: storedTrack.tracked };
}

/** A refusal's `detail` sentence and data, in compat's words. */
function refusalDetail(
  outcome: Exclude<NonNullable<CompatTrackMutation["track"]>, { __typename: "TrackSuccess" }>,
): { detail?: string; data?: Record<string, unknown> } {
  switch (outcome.__typename) {
    case "ReferenceNotFound":
      return outcome.carrierProvided
        ? { detail: `${outcome.tried.join(", ")} answered that it has no record of this number.` }
        : {
            detail: `None of the carriers detected for this number (${outcome.tried.map((t) => t.replace(" (auto)", "")).join(", ")}) has a record of it. Check it, or name the carrier with sealine.`,
          };
    case "ReferenceInvalid":
      return { detail: `Not a valid ${TYPE_NAME[outcome.referenceType] ?? "number"}: ${outcome.message}` };
    case "CarrierDown":
      return {
        detail: `Asking ${outcome.scac} failed (${carrierFailureWords(outcome.failure)}) and nothing is stored for this number yet. Retry later, or track with another carrier.`,
        data: { metadata: { sealine: outcome.scac } },
      };
    case "CarrierUnavailable": {
      const details = {
        maintenance: `${outcome.scac} is under maintenance. Retry later, or track with sealine=auto.`,
        disabled: `Tracking with ${outcome.scac} is temporarily disabled on this service.`,
        not_connected: `${outcome.scac} is not supported on this service: it has no connection to that carrier. /info/sealines lists the lines it tracks.`,
        unsupported_type: `${outcome.scac} cannot track this type of number; send another type or carrier.`,
      };
      return { detail: details[outcome.cause] };
    }
    case "CarrierUndetectable":
      return {};
    case "ContainerNotOnDocument":
      return {
        detail: `${outcome.scac} answered for ${outcome.reference}, but container ${outcome.container} is not on it. Check the container number, or track ${outcome.reference} alone.`,
      };
    case "ShipmentLimitReached":
      return {
        detail: `All ${outcome.limit} shipment slots of this billing cycle are used (the cycle ends ${outcome.cycleEnd}); numbers already tracked stay available.`,
      };
    case "PaymentOverdue":
      return {
        detail: `Payment is ${outcome.overdueDays} days overdue, past the ${outcome.graceDays}-day grace period: new tracking is paused until billing is fixed.`,
      };
  }
}

export function answerContext(tracked: Tracked, type: CompatType | null, usage: UsageView | null) {
  return {
    type,
    number: tracked.shipment.reference,
    carrier: tracked.carrier,
    fromCache: tracked.fromCache,
    stale: tracked.staleFailure
      ? { reason: carrierFailureWords(tracked.staleFailure), lastSyncedAt: tracked.staleLastSyncedAt }
      : null,
    usage,
  };
}

const OPERATIONS = [
  { path: "/tracking", allowedTypes: ["CT", "BL", "BK"] },
  { path: "/container", allowedTypes: ["CT"], fixedType: "CT" },
  { path: "/reference", allowedTypes: ["BL", "BK"], defaultType: "BL" },
] as const satisfies readonly {
  path: string;
  allowedTypes: readonly CompatType[];
  fixedType?: CompatType;
  defaultType?: CompatType;
}[];

/** GET /tracking, /container (deprecated: one `container`), /reference (deprecated) and /route. */
export function mountTrackingRoutes(router: Router, deps: FacadeDeps): void {
  for (const operation of OPERATIONS) {
    router.get(
      operation.path,
      compatRoute(deps, async (call) => {
        const { req } = call;
        const parsed = parseTrackingParams(req.query, {
          allowedTypes: operation.allowedTypes,
          fixedType: "fixedType" in operation ? operation.fixedType : undefined,
        });
        if (!parsed.ok) return call.refuse(parsed.outcome, { detail: parsed.detail });
        const params: TrackingParams = {
          ...parsed.value,
          type: parsed.value.type ?? ("defaultType" in operation ? operation.defaultType : null),
        };
        const outcome = await trackForCompat(call, params);
        if (!outcome.ok) return call.refuse(outcome.outcome, outcome);
        const usage = await call.count();
        const view = outcome.tracked.document;
        await call.answerJson(
          trackingAnswerJson(view, answerContext(outcome.tracked, params.type, usage), {
            route: params.route,
            singleContainer: operation.path === "/container" ? outcome.tracked.shipment.reference : undefined,
          }),
          successMessage(view),
        );
      }),
    );
  }

  router.get(
    "/route",
    compatRoute(deps, async (call) => {
      const { req } = call;
      const parsed = parseTrackingParams(req.query, {
        allowedTypes: ["CT", "BL", "BK"],
        required: ["type", "sealine"],
      });
      if (!parsed.ok) return call.refuse(parsed.outcome, { detail: parsed.detail });
      const outcome = await trackForCompat(call, { ...parsed.value, route: true });
      if (!outcome.ok) return call.refuse(outcome.outcome, outcome);
      await call.answer(renderRouteData(outcome.tracked.document));
    }),
  );
}
