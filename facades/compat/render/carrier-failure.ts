import type { CarrierFailureKind } from "../../generated/operations";

/**
 * How compat says which way asking the carrier failed (`detail` of SEALINE_NO_RESPONSE and
 * `stale_reason`): a phrase a client can act on, never the adapter's technical detail.
 */
const WORDS: Record<CarrierFailureKind, string> = {
  NO_ANSWER: "the carrier could not be reached: it did not answer in time",
  CONNECTION_FAILED:
    "the carrier could not be reached: the connection failed or was closed before it answered",
  ERROR_ANSWER: "the carrier could not be reached: it answered with an error",
  NOT_CONFIGURED: "the carrier could not be reached: no connection to it is configured on this service",
  UNREADABLE_ANSWER: "the carrier answered something that could not be read",
  RATE_LIMITED: "the carrier is limiting our requests",
  CREDENTIALS_REFUSED: "the carrier refused this service's credentials",
};

export function carrierFailureWords(failure: CarrierFailureKind): string {
  return WORDS[failure];
}
