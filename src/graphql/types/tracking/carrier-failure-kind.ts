import type { CarrierFailureKind } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";

export const CarrierFailureKindEnum = builder.enumType("CarrierFailureKind", {
  description:
    "Which way asking a carrier failed. Each surface says it in its own words; no technical detail of the failure leaves the service.",
  values: {
    NO_ANSWER: { value: "no_answer", description: "The carrier did not answer in time." },
    CONNECTION_FAILED: {
      value: "connection_failed",
      description: "The connection to the carrier failed or was closed before it answered.",
    },
    ERROR_ANSWER: { value: "error_answer", description: "The carrier answered with an error." },
    NOT_CONFIGURED: {
      value: "not_configured",
      description: "No connection to this carrier is configured on this service.",
    },
    UNREADABLE_ANSWER: { value: "unreadable_answer", description: "The carrier's answer could not be read." },
    RATE_LIMITED: { value: "rate_limited", description: "The carrier is limiting our requests." },
    CREDENTIALS_REFUSED: {
      value: "credentials_refused",
      description: "The carrier refused our credentials (the operator's configuration).",
    },
  } satisfies Record<string, { value: CarrierFailureKind; description: string }>,
});
