import type {
  FinalDestinationEtaFieldsFragment,
  PredictiveEtaFieldsFragment,
} from "../../generated/operations";

/**
 * `predictive_eta` (spec v1 section 2.4): present only when predictive ETA is on for the organisation's
 * plan, then the prediction or null (arrived, or nothing to predict from); absent otherwise.
 */
export function renderPredictiveEta(view: {
  predictiveEtaEnabled: boolean;
  predictiveEta: PredictiveEtaFieldsFragment | null;
}): { predictive_eta?: ReturnType<typeof predictiveEtaBody> | null } {
  if (!view.predictiveEtaEnabled) return {};
  return { predictive_eta: view.predictiveEta ? predictiveEtaBody(view.predictiveEta) : null };
}

function predictiveEtaBody(eta: PredictiveEtaFieldsFragment) {
  return {
    p50: eta.p50,
    p80: eta.p80,
    source: eta.source,
    confidence: eta.confidence,
    computed_at: eta.computedAt,
    fallback_reason: eta.fallbackReason ?? null,
  };
}

/**
 * `final_destination_eta` (issue 41, docs/decisions/final-destination-eta.md): only when there is one
 * (predictive ETA on, a place of delivery beyond the port still ahead, something that dates it); absent
 * otherwise, so a port-to-port or delivered journey answers as before.
 */
export function renderFinalDestinationEta(view: {
  finalDestinationEta: FinalDestinationEtaFieldsFragment | null;
}): { final_destination_eta?: ReturnType<typeof finalDestinationBody> } {
  return view.finalDestinationEta
    ? { final_destination_eta: finalDestinationBody(view.finalDestinationEta) }
    : {};
}

function finalDestinationBody(eta: FinalDestinationEtaFieldsFragment) {
  return {
    p50: eta.p50,
    p80: eta.p80,
    source: eta.source,
    confidence: eta.confidence,
    computed_at: eta.computedAt,
    place: eta.place,
    remaining_km: eta.remainingKm ?? null,
    mode: eta.mode.toLowerCase() as Lowercase<typeof eta.mode>,
  };
}
