import type { AppConfig } from "./config";
import type { Database } from "./db/database";
import type { AccountsService } from "./domain/accounts/accounts.service";
import type { Carrier } from "./domain/carriers/carrier-directory";
import type { CongestionService } from "./domain/congestion/congestion.service";
import type { DndService } from "./domain/demurrage/dnd.service";
import type { DisruptionsService } from "./domain/disruptions/disruptions.service";
import type { FeedIngestion } from "./domain/disruptions/ingestion.service";
import type { OpenApiSource } from "./domain/docs-search/doc-sources";
import type { EtaService } from "./domain/eta/eta.service";
import type { TrackingHistoryService } from "./domain/history/tracking-history.service";
import type { CounterStore } from "./domain/limits/counter-store";
import type { FixedWindowLimiter } from "./domain/limits/fixed-window";
import type { LookupServices } from "./domain/lookups/lookups";
import type { NotificationsService } from "./domain/notifications/notifications.service";
import type { PartnersService } from "./domain/partners/partners.service";
import type { PeopleService } from "./domain/people/people.service";
import type { ShipmentFreeTime } from "./domain/shipments/shipment-free-time";
import type { ShipmentsService } from "./domain/shipments/shipments.service";
import type { TerminalRecords } from "./domain/terminals/terminal-records.service";
import type { BackgroundTracking } from "./domain/tracking/background.service";
import type { CarrierTracker } from "./domain/tracking/carrier-tracker";
import type { DocumentStore } from "./domain/tracking/document-store";
import type { LookupLog } from "./domain/tracking/lookup-log";
import type { SlotsService } from "./domain/tracking/slots.service";
import type { TrackingService } from "./domain/tracking/tracking.service";
import type { ApiCallsService } from "./domain/usage/api-calls.service";
import type { SampleDeliveries, WebhooksService } from "./domain/webhooks/webhooks.service";
import type { WorkspaceDocumentsService } from "./domain/workspace/documents.service";
import type { QuoteRequestsService } from "./domain/workspace/quote-requests.service";
import type { TicketsService } from "./domain/workspace/tickets.service";
import type { Clock } from "./lib/clock";
import type { SecretBox } from "./lib/secret-box";
import type { Logger } from "./observability/logger";
import type { Metrics } from "./observability/metrics";

/**
 * The contract between the composition root and what it feeds: requests (src/graphql), jobs
 * (src/jobs) and CLI commands take these services; src/app/services.ts builds them. It lives here,
 * below both, so that no layer imports the composition root to learn a type (docs/decisions/architecture.md).
 */
/** Everything a request, a job or a CLI command may use, built once by the composition root. */
export interface Services {
  config: AppConfig;
  db: Database;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** Seals shared secrets at rest (docs/decisions/secrets-at-rest.md). */
  secrets: SecretBox;
  accounts: AccountsService;
  /** Free time and holds kept on the shipment rows (issue 38). */
  freeTime: ShipmentFreeTime;
  /** People in the dashboard: passwords, sessions, invitations. */
  people: PeopleService;
  /** The carrier directory with the operator's status overrides applied. */
  carriers: readonly Carrier[];
  counters: CounterStore;
  limiter: FixedWindowLimiter;
  carrierGateway: CarrierTracker;
  documents: DocumentStore;
  slots: SlotsService;
  tracking: TrackingService;
  shipments: ShipmentsService;
  /** Calls per organisation, month and surface (compat `api_calls.used`). */
  apiCalls: ApiCallsService;
  /** Store-served lookups waiting for their batched insert (flushed every second and at shutdown). */
  lookupLog: LookupLog;
  /** The lookup log read back: compat `/history`. */
  history: TrackingHistoryService;
  webhooks: WebhooksService;
  /** Partner sources (drayage, rail, warehouse) and the events they post (issue 41). */
  partners: PartnersService;
  /** Sample webhook deliveries of the sandbox world (absent from the live service). */
  sampleDeliveries?: SampleDeliveries;
  /** Scheduled refreshes, carrier discovery and retry-failed: the work jobs do. */
  background: BackgroundTracking;
  /** Ports, carrier lookups, vessel positions, schedules and their daily allowances. */
  lookups: LookupServices;
  /** Port congestion: sampling, daily signals, scoring, the board and readings. */
  congestion: CongestionService;
  /** Predictive ETA at the port of discharge, computed on read and kept (docs/decisions/eta.md). */
  eta: EtaService;
  /** Demurrage and detention: tariffs, contract terms and the clocks of shipments. */
  dnd: DndService;
  /** The REST API's OpenAPI document, for the documentation search (absent: searched without it). */
  openApiDocument?: OpenApiSource;
  /** Published disruptions, their matches to shipments, their sources' health. */
  disruptions: DisruptionsService;
  /** Feed ingestion, when sources are configured (none: nothing is fetched). */
  feedIngestion: FeedIngestion | null;
  /** E-mail notifications: preferences, followers, the mail queue and its outbox (`enqueueMail`). */
  notifications: NotificationsService;
  /** Terminal records per box and terminal, and the terminal checks the workers make. */
  terminals: TerminalRecords;
  /** Workspace: documents organisations upload (local folder or S3). */
  workspaceDocuments: WorkspaceDocumentsService;
  /** Workspace: support tickets, answered by the deployment's operator. */
  tickets: TicketsService;
  /** Workspace: freight quote requests, quoted by the deployment's operator. */
  quoteRequests: QuoteRequestsService;
  close(): Promise<void>;
}
