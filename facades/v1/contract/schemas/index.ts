/**
 * The bodies the v1 API answers, as zod schemas. They are the OpenAPI document's components (never
 * written by hand) and the tests validate real answers against them, so a renderer that adds, drops
 * or retypes a field fails a test until these files say so too. Field meanings: spec v1 section 2
 * and docs/decisions/README.md.
 *
 * One file per part of the API; common.ts holds the field shapes they share.
 */

export { UsageAnswer } from "./account";
export { BulkAnswer, BulkItem, BulkTrackBody } from "./bulk";
export {
  CongestionBoardAnswer,
  CongestionBoardItem,
  CongestionComponent,
  CongestionHistoryItem,
  CongestionReading,
  CongestionReadingAnswer,
} from "./congestion";
export {
  DISRUPTION_CATEGORIES,
  Disruption,
  DisruptionAnswer,
  DisruptionPage,
  ShipmentDisruptionsAnswer,
} from "./disruptions";
export {
  AuthThrottledErrorBody,
  CarrierLookupLimitErrorBody,
  CarrierUnavailableErrorBody,
  CarrierUnreachableErrorBody,
  CustomerLimitErrorBody,
  DisruptionNotFoundErrorBody,
  ErrorBody,
  FeatureDisabledErrorBody,
  LookupLimitErrorBody,
  PaymentOverdueErrorBody,
  PlanRequiredErrorBody,
  PortNotFoundErrorBody,
  ProviderUnavailableErrorBody,
  RateLimitErrorBody,
  RefreshNotAllowedErrorBody,
  RefreshTooSoonErrorBody,
  RetryTooSoonErrorBody,
  SandboxRateLimitErrorBody,
  ShipmentLimitErrorBody,
  TrackingNotFoundErrorBody,
  UnsupportedReferenceTypeErrorBody,
  VesselNotFoundErrorBody,
} from "./errors";
export {
  Carrier,
  CarrierLookupAnswer,
  CarriersAnswer,
  Port,
  PortsAnswer,
  ScheduleItem,
  SchedulesAnswer,
  VesselAnswer,
  VesselPosition,
} from "./lookups";
export {
  PartnerEvent,
  PartnerEventResult,
  PartnerEventsAnswer,
  PartnerEventsBody,
  PartnerEventsFrame,
  PartnerSource,
  PartnerSourceBody,
  PartnerSourceRemovedAnswer,
  PartnerSourcesAnswer,
  PartnerSourceWithSecretAnswer,
  SANDBOX_PARTNER_SOURCE_ID,
} from "./partners";
export { PredictiveEta } from "./predictive-eta";
export { WebhookFireAnswer, WebhookFireBody, webhookEventNamed } from "./sandbox-webhook-fire";
export {
  RetryFailedAnswer,
  RetryFailedBody,
  ShareAnswer,
  ShipmentAnswer,
  ShipmentDeletedAnswer,
  ShipmentDetail,
  ShipmentPage,
  ShipmentPatchBody,
  ShipmentSummary,
  ShipmentUpdatedAnswer,
  UnshareAnswer,
} from "./shipments";
export { TrackingAnswer, TrackingDocument } from "./tracking-document";
export { WEBHOOK_PAYLOADS } from "./webhooks";
