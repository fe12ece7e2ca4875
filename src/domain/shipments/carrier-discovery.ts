import type { Organization } from "../../generated/prisma/client";
import { featureAccess } from "../accounts/principal";

/**
 * Carrier discovery: when no carrier asked finds a reference, a background job tries the other
 * likely carriers. These are its states and the reasons it does not run, as one closed set each, so
 * that the 404 of a track, the retry-failed answer and a shipment read back name them alike.
 */

/** Where a failed shipment's discovery stands: queued, running, then recovered or exhausted. */
export const DISCOVERY_STATUSES = ["queued", "running", "recovered", "exhausted"] as const;
export type DiscoveryStatus = (typeof DISCOVERY_STATUSES)[number];

/**
 * Why no discovery runs for a reference: the plan lacks it, the organisation switched it off, the
 * reference cannot be tracked at all, or no other carrier is a candidate.
 */
export const DISCOVERY_INELIGIBILITIES = ["plan", "disabled", "invalid_reference", "no_candidates"] as const;
export type DiscoveryIneligibility = (typeof DISCOVERY_INELIGIBILITIES)[number];

/** The reasons that hold for the organisation whatever the reference: its plan or its own switch. */
export type DiscoveryBarrier = Extract<DiscoveryIneligibility, "plan" | "disabled">;

/** The stored status (a text column) as the closed set; anything else reads as no discovery. */
export function discoveryStatusOf(stored: string | null): DiscoveryStatus | null {
  return (DISCOVERY_STATUSES as readonly string[]).includes(stored ?? "")
    ? (stored as DiscoveryStatus)
    : null;
}

/**
 * What keeps the organisation from carrier discovery whatever the reference: its plan (checked first:
 * a plan without the feature cannot switch it on) or its own switch. Null when discovery may run.
 */
export function discoveryBarrier(organization: Organization): DiscoveryBarrier | null {
  const access = featureAccess(organization, "carrier_discovery");
  if (access === "plan_required") return "plan";
  if (access === "feature_disabled") return "disabled";
  return null;
}
