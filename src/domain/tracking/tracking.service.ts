import { randomUUID } from "node:crypto";
import { type Organization, Prisma, type PrismaClient, type Shipment } from "../../generated/prisma/client";
import type { PlanCode } from "../../generated/prisma/enums";
import { answersChanged, asOneWrite } from "../../lib/answer-changes";
import { answerValidUntil } from "../../lib/answer-scope";
import type { Clock } from "../../lib/clock";
import { OneAtATime } from "../../lib/one-at-a-time";
import type { Metrics } from "../../observability/metrics";
import { inSpan, markFailed, SpanKind } from "../../observability/tracing";
import { minimumPlanFor } from "../accounts/plans";
import { featureAccess, type Principal } from "../accounts/principal";
import {
  carrierAvailability,
  detectCarriers,
  typeAskedOf,
  type UnavailableReason,
} from "../carriers/carrier-detection";
import { type Carrier, findCarrierByScac } from "../carriers/carrier-directory";
import { predictionVersionOf } from "../eta/eta.service";
import { DAY_MS, type FixedWindowLimiter } from "../limits/fixed-window";
import {
  type ParsedReference,
  parseReference,
  type ReferenceType,
  sameIdentifier,
} from "../references/reference";
import { type DiscoveryIneligibility, discoveryBarrier } from "../shipments/carrier-discovery";
import type { ShipmentReads } from "../shipments/shipment-reads";
import type { VesselRegister } from "../vessels/vessel-register";
import { shipmentEvents } from "../webhooks/events";
import type { WebhooksService } from "../webhooks/webhooks.service";
import { ItemCommit, type TaskLanes, TrackingCutOff, untilCommittedOrWrappedUp } from "./batch-commit";
import type { CarrierAnswer, CarrierFailure, CarrierTracker } from "./carrier-tracker";
import type { DocumentChange } from "./document-diff";
import { type DocumentStore, FRESHNESS_MS, type StoredDocument } from "./document-store";
import type { LookupEntry, LookupLog } from "./lookup-log";
import type { TrackingDocument } from "./model";
import { nextRefreshAt } from "./shipment-facts";
import type { SlotsService } from "./slots.service";
import { type SummaryFacts, sameSummary, storedSummary, summaryFactsOf } from "./summary-facts";

export type Surface = "v1" | "compat" | "graphql" | "mcp" | "job";

/** Who tracks: a request's principal, or a job acting for the user who added the shipment (no key). */
export type Actor = Omit<Principal, "apiKey"> & { apiKey: Principal["apiKey"] | null };

export interface TrackInput {
  reference: string;
  type?: ReferenceType;
  /** A carrier hint (SCAC). A 4-character code not in the directory is ignored and detection used. */
  carrier?: string;
  /** Skip the 12-hour freshness (compat force_update); never skips a limit. */
  force?: boolean;
  /**
   * `fetch`: always ask the carrier (v1 /container and /bl); `serve-fresh`: serve the stored document
   * while it is younger than 12 hours (compat, refresh jobs).
   */
  freshness: "fetch" | "serve-fresh";
  /** v1 /track without a carrier: resolve locally only, one attempt, no carrier-by-carrier trial. */
  localOnly?: boolean;
  /** With `serve-fresh`: the oldest stored document still served (default 12 hours). */
  maxAgeMs?: number;
  /** A scheduled refresh of an existing shipment: not new tracking, so billing does not pause it. */
  refresh?: boolean;
  surface: Surface;
  /** An item of a bulk request: entered before the first write, so a shutdown knows what was saved. */
  commit?: ItemCommit;
  /**
   * The carrier's pushed answer (src/upstream/carriers/carrier-push.ts): used in place of asking that
   * carrier, and stored, diffed and announced exactly as a polled answer is.
   */
  pushed?: { scac: string; document: TrackingDocument };
}

export interface CarrierUsed {
  scac: string;
  name: string;
  /** Whether the caller named the carrier that answered. */
  provided: boolean;
}

export type TrackOutcome =
  | {
      kind: "tracked";
      shipment: Shipment;
      stored: StoredDocument;
      carrier: CarrierUsed;
      fromCache: boolean;
      /** Present only when the carrier could not be reached and a stored document was served. */
      stale: Staleness | null;
      slotConsumed: boolean;
      changes: DocumentChange[];
      /** The lookup log's number for this call; a store-served lookup is written in the log's next batch. */
      lookupId: () => Promise<number>;
      /**
       * The container of a combined `<document>/<container>` value: `stored.content` then holds that
       * container alone. Null otherwise.
       */
      container: string | null;
    }
  | { kind: "invalid_reference"; referenceType: ReferenceType; reason: string; message: string }
  | {
      kind: "not_found";
      referenceType: ReferenceType;
      reference: string;
      /** Carriers asked, `(auto)` marking an attempt the caller did not name. */
      tried: string[];
      shipment: Shipment;
      carrierProvided: boolean;
      discovery: DiscoveryEligibility;
      /** A background search of the other candidates was queued (never for a job's own attempt). */
      discoveryQueued: boolean;
      /** Only for reason `plan` on the free plan: a paid account is never sold an upgrade here. */
      upgrade: { feature: "carrier_discovery"; minPlan: PlanCode } | null;
      lookupId: number;
    }
  | {
      kind: "carrier_down";
      referenceType: ReferenceType;
      scac: string;
      failure: CarrierFailureKind;
      reason: string;
      retryAfterSeconds: number;
    }
  | {
      kind: "carrier_unavailable";
      referenceType: ReferenceType;
      scac: string;
      reason: UnavailableReason;
    }
  | { kind: "no_candidates"; referenceType: ReferenceType }
  /** A combined `<document>/<container>` value whose container the carrier does not list on the document. */
  | {
      kind: "container_not_on_document";
      referenceType: ReferenceType;
      reference: string;
      container: string;
      scac: string;
      /** Whether the caller named the carrier that answered. */
      carrierProvided: boolean;
    }
  | { kind: "shipment_limit_reached"; limit: number; used: number; cycleEnd: Date }
  | { kind: "payment_overdue"; overdueDays: number; graceDays: number; plan: PlanCode };

/** Why a stored document was served instead of the carrier's answer, and since when it is old. */
export interface Staleness {
  failure: CarrierFailureKind;
  reason: string;
  lastSyncedAt: Date | null;
}

/** A bulk request's answer: the items' outcomes by position, and the positions cut by a shutdown. */
export interface TrackBatchOutcome {
  kind: "batch";
  results: { index: number; outcome: TrackOutcome }[];
  /** Items the service stopped before saving: nothing was written for them. */
  interrupted: number[];
}

export type DiscoveryEligibility =
  | { eligible: true; candidates: string[] }
  | { eligible: false; reason: DiscoveryIneligibility };

/** Carrier attempts without a named carrier (spec 4.1 rule 1); one with a named one. */
export const MAX_DETECTION_ATTEMPTS = 3;
/** compat `force_update`: live re-fetches of one reference per organisation per UTC day. */
export const FORCE_REFETCHES_PER_DAY = 10;
const CARRIER_DOWN_RETRY_AFTER_S = 60;

/**
 * `track`, shared by every surface and by jobs: validate the reference, resolve the carrier, account
 * for the shipment slot, serve the stored document or ask the carrier, store and diff what it says,
 * and log the lookup. Expected endings are values of `TrackOutcome`, never exceptions.
 */
export interface TrackingDeps {
  prisma: PrismaClient;
  clock: Clock;
  carriers: CarrierTracker;
  directory: readonly Carrier[];
  documents: DocumentStore;
  slots: SlotsService;
  limiter: FixedWindowLimiter;
  webhooks: WebhooksService;
  /** The hot reads of shipments (prepared statements). */
  shipments: ShipmentReads;
  /** Where store-served lookups are logged off the request path. */
  lookups: LookupLog;
  metrics?: Metrics;
  /** Fills the IMO numbers and MMSIs a carrier left out of its answer, before it is stored. */
  vessels?: VesselRegister;
  /**
   * Asked when no carrier can be placed for a reference. Only the sandbox sets it: its world knows
   * every reference, so an unplaceable one still resolves (spec v1 section 4.3).
   */
  fallbackCarrier?: string;
  /**
   * Aborted shortly before the shutdown grace ends: a bulk request then answers with the items it
   * saved and reports the others as interrupted, instead of being cut with its answer unsent.
   */
  wrapUp?: AbortSignal;
  /**
   * The process's lanes for bulk tracking: `items` bounds the items of every bulk request running at
   * once (the rest wait in arrival order, holding nothing), `writes` the items writing at once. Five
   * bulks of 50 started 250 items together and each opened its transactions at once: the pool of 10
   * was taken, transactions waited past Prisma's 2 s to start (P2028, answered 500) and other
   * organisations' requests queued behind them for seconds. Unbounded when absent (unit tests).
   */
  bulkLanes?: { items: TaskLanes; writes: TaskLanes };
}

/**
 * What `logStoredLookup` needs to log a lookup `peekStored` answered: the reference as asked and the
 * version served, for the organisation that asked.
 */
export interface StoredLookupReceipt {
  organizationId: string;
  reference: string;
  referenceType: ReferenceType;
  referenceKey: string;
  carrierScac: string;
  documentVersionId: string;
}

/** A box of a stored document. */
type ContainerOnDocument = TrackingDocument["containers"][number];

/** What a served document says of the shipment, written by `settle` (or found unchanged). */
type ServedFacts = Parameters<typeof unchangedBy>[1] &
  Parameters<typeof upsertLiveShipment>[2] & { updatedAt: Date };

/** One lookup's answer on its way to the organisation's shipment: `settle`'s input, named. */
/** Who asks, about which reference, how: what every step of one lookup is given. */
interface TrackRequest {
  principal: Actor;
  reference: ParsedReference;
  input: TrackInput;
}

interface Settlement extends TrackRequest {
  /** The organisation's live shipment for the reference, if it tracks it already. */
  existing: Shipment | null;
  stored: StoredDocument;
  /** The caller named the carrier (no auto-detection). */
  provided: boolean;
  /** Served from the store without asking the carrier. */
  fromCache: boolean;
  /** Why the stored answer is served although the carrier was asked (it could not answer). */
  stale: Staleness | null;
  changes: DocumentChange[];
}

export class TrackingService {
  private readonly inFlight = new Map<string, Promise<CarrierAnswer>>();
  private readonly slotTakers = new OneAtATime();

  constructor(protected readonly deps: TrackingDeps) {}

  /**
   * One lookup, one write: what it stores (the version, each box's terminal record, the shipment, the
   * prediction) recomputes the facts kept from them once, at its end (`asOneWrite`).
   */
  track(principal: Actor, input: TrackInput): Promise<TrackOutcome> {
    return asOneWrite(() => this.trackOnce(principal, input));
  }

  private async trackOnce(principal: Actor, input: TrackInput): Promise<TrackOutcome> {
    const parsed = parseReference(input.reference, input.type);
    if (!parsed.ok) {
      return {
        kind: "invalid_reference",
        referenceType: parsed.type,
        reason: parsed.reason,
        message: parsed.message,
      };
    }
    const reference = parsed.value;
    const org = principal.organization;
    if (!input.refresh && org.billingState === "overdue" && org.overdueDays > org.graceDays) {
      return {
        kind: "payment_overdue",
        overdueDays: org.overdueDays,
        graceDays: org.graceDays,
        plan: org.plan,
      };
    }

    const plan = await this.planAttempts(principal, reference, input);
    if ("kind" in plan) return plan;

    const existing = await this.deps.shipments.liveByReference(org.id, reference.type, reference.normalized);
    // A new reference must be able to take a slot before any carrier is asked.
    if (!existing && !(await this.deps.slots.canReserve(org, reference.normalized))) {
      return this.limitReached(org);
    }

    const cached = await this.servableFromStore({ principal, reference, input }, plan, existing);
    if (cached) {
      await input.commit?.enter();
      const served = { stored: cached, provided: plan.provided, fromCache: true, stale: null, changes: [] };
      return this.settle({ principal, reference, input, existing, ...served });
    }

    const tried: string[] = [];
    const failures: ({ scac: string } & ReturnType<typeof describeFailure>)[] = [];
    for (const scac of plan.attempts) {
      const outcome: CarrierAnswer =
        input.pushed?.scac === scac
          ? { kind: "found", document: input.pushed.document }
          : await this.ask(scac, reference);
      // Every write of this lookup comes after the carrier's answer.
      await input.commit?.enter();
      tried.push(plan.provided ? scac : `${scac} (auto)`);
      if (outcome.kind === "found") {
        const document = this.deps.vessels
          ? await this.deps.vessels.identify(outcome.document)
          : outcome.document;
        const stored = await this.deps.documents.record(
          {
            organizationId: org.id,
            carrierScac: scac,
            referenceType: reference.type,
            referenceKey: reference.normalized,
          },
          document,
        );
        return this.settle({
          principal,
          reference,
          input,
          existing,
          stored,
          provided: plan.provided,
          fromCache: false,
          stale: null,
          changes: stored.changes,
        });
      }
      if (outcome.kind !== "not-found") {
        failures.push({ scac, ...describeFailure(outcome) });
      }
      const failure = failures.at(-1);
      if (failure?.scac === scac) {
        await this.deps.documents.recordFailure(
          {
            organizationId: org.id,
            carrierScac: scac,
            referenceType: reference.type,
            referenceKey: reference.normalized,
          },
          failure.reason,
        );
      }
    }

    if (failures.length > 0) {
      // The carrier could not be asked: serve what we hold, saying why and since when.
      for (const failure of failures) {
        const document = await this.deps.documents.find(
          org.id,
          failure.scac,
          reference.type,
          reference.normalized,
        );
        const stored = document ? await this.deps.documents.latest(document) : null;
        if (stored) {
          return this.settle({
            principal,
            reference,
            input,
            existing,
            stored,
            provided: plan.provided,
            fromCache: true,
            stale: {
              failure: failure.failure,
              reason: failure.reason,
              lastSyncedAt: document?.lastSyncedAt ?? null,
            },
            changes: [],
          });
        }
      }
      const first = failures[0]!;
      return {
        kind: "carrier_down",
        referenceType: reference.type,
        scac: first.scac,
        failure: first.failure,
        reason: first.reason,
        retryAfterSeconds: first.retryAfterSeconds,
      };
    }
    return this.notFound({ principal, reference, input }, { existing, tried, plan });
  }

  /**
   * What `track` in `serve-fresh` mode would answer from the store when it would write nothing (the
   * organisation already tracks the reference, its stored document is fresh and changes nothing
   * about the shipment), without logging the lookup; null in every other case, where `track` itself
   * must run. A pure read, so the answer cache may keep it (docs/decisions/read-path.md, "Compat
   * tracking from the store"): it holds until the document turns 12 hours old, and the lookup is
   * logged by `logStoredLookup` with the receipt, one call at a time.
   */
  async peekStored(
    principal: Actor,
    input: Pick<TrackInput, "reference" | "type" | "carrier" | "surface">,
  ): Promise<{ outcome: TrackOutcome; receipt: StoredLookupReceipt } | null> {
    const request = { ...input, freshness: "serve-fresh" as const };
    const parsed = parseReference(request.reference, request.type);
    const org = principal.organization;
    if (!parsed.ok || (org.billingState === "overdue" && org.overdueDays > org.graceDays)) return null;
    const reference = parsed.value;
    const plan = await this.planAttempts(principal, reference, request);
    if ("kind" in plan) return null;
    const existing = await this.deps.shipments.liveByReference(org.id, reference.type, reference.normalized);
    if (!existing) return null;
    const tracking = { principal, reference, input: request };
    const stored = await this.servableFromStore(tracking, plan, existing);
    if (!stored) return null;
    const settlement: Settlement = {
      ...tracking,
      existing,
      stored,
      provided: plan.provided,
      fromCache: true,
      stale: null,
      changes: [],
    };
    const served = this.servedFacts(settlement, this.deps.clock.now());
    // `updatedAt` is never shown; the served document's age bounds the answer (servableFromStore).
    answerValidUntil(null);
    if ("refused" in served || !unchangedBy(existing, served.facts)) return null;
    return {
      outcome: this.tracked(settlement, served.box, {
        shipment: existing,
        slotConsumed: false,
        lookupId: () => Promise.reject(new Error("a lookup peeked from the store is logged by its receipt")),
      }),
      receipt: {
        organizationId: org.id,
        reference: reference.number,
        referenceType: reference.type,
        referenceKey: reference.normalized,
        carrierScac: stored.document.carrierScac,
        documentVersionId: stored.version.id,
      },
    };
  }

  /**
   * Logs a lookup `peekStored` answered (the receipt it gave), as `track` logs a stored answer: in
   * the log's next batch, off the request's path. A receipt of another organisation logs nothing.
   */
  logStoredLookup(principal: Actor, receipt: StoredLookupReceipt, surface: Surface): boolean {
    if (receipt.organizationId !== principal.organization.id) return false;
    this.deps.lookups.append({
      organizationId: principal.organization.id,
      apiKeyId: principal.apiKey?.id ?? null,
      surface,
      reference: receipt.reference,
      referenceType: receipt.referenceType,
      referenceKey: receipt.referenceKey,
      createdAt: this.deps.clock.now(),
      carrierScac: receipt.carrierScac,
      outcome: "tracked",
      fromCache: true,
      documentVersionId: receipt.documentVersionId,
    });
    return true;
  }

  /**
   * Bulk tracking (v1 POST /track): every item in parallel, carriers limiting themselves per carrier.
   * Only billing past grace refuses the whole batch; everything else is that item's outcome. When the
   * service wraps up for a shutdown, the items not yet saving are `interrupted` (nothing saved for
   * them) and the batch answers with the rest (`batch-commit.ts`).
   */
  async trackBatch(
    principal: Actor,
    items: readonly { reference: string; type: ReferenceType; carrier?: string }[],
  ): Promise<TrackBatchOutcome | Extract<TrackOutcome, { kind: "payment_overdue" }>> {
    const org = principal.organization;
    if (org.billingState === "overdue" && org.overdueDays > org.graceDays) {
      return {
        kind: "payment_overdue",
        overdueDays: org.overdueDays,
        graceDays: org.graceDays,
        plan: org.plan,
      };
    }
    const { wrapUp, bulkLanes } = this.deps;
    if (wrapUp?.aborted) return { kind: "batch", results: [], interrupted: items.map((_, index) => index) };
    const settled = await Promise.all(
      items.map((item) => {
        const commit = new ItemCommit(bulkLanes?.writes);
        const track = () => {
          // An item whose turn came after the wrap-up refused it never starts.
          if (commit.refused) return Promise.reject(new TrackingCutOff());
          return this.track(principal, {
            reference: item.reference,
            type: item.type,
            carrier: item.carrier,
            freshness: "fetch",
            // Without a carrier, bulk resolves locally only: no carrier-by-carrier trial per item.
            localOnly: item.carrier === undefined,
            surface: "v1",
            commit,
          });
        };
        const run = (bulkLanes ? bulkLanes.items.run(track) : track()).finally(() => commit.leave());
        return wrapUp
          ? untilCommittedOrWrappedUp(run, commit, wrapUp)
          : run.then((outcome) => ({ done: true as const, outcome }));
      }),
    );
    const batch: TrackBatchOutcome = { kind: "batch", results: [], interrupted: [] };
    settled.forEach((item, index) => {
      if (item.done) batch.results.push({ index, outcome: item.outcome });
      else batch.interrupted.push(index);
    });
    return batch;
  }

  /** Which carriers to ask, in order, or the outcome that ends the lookup before any call. */
  private async planAttempts(
    principal: Actor,
    reference: ParsedReference,
    input: TrackInput,
  ): Promise<{ attempts: string[]; provided: boolean; candidates: string[] } | TrackOutcome> {
    const hint = input.carrier?.trim().toUpperCase();
    const named = hint ? findCarrierByScac(hint, this.deps.directory) : undefined;
    if (named) {
      const availability = carrierAvailability(named, typeAskedOf(named, reference));
      if (!availability.available) {
        return {
          kind: "carrier_unavailable",
          referenceType: reference.type,
          scac: named.scac,
          reason: availability.reason,
        };
      }
    }
    const history = await this.deps.documents.carriersThatAnswered(
      principal.organization.id,
      reference.normalized,
    );
    const candidates = detectCarriers(reference, { history, directory: this.deps.directory }).map(
      (c) => c.scac,
    );
    // A named carrier is the one exact attempt; the detected ones remain for carrier discovery.
    if (named) return { attempts: [named.scac], provided: true, candidates: [named.scac, ...candidates] };
    if (candidates.length === 0 && this.deps.fallbackCarrier) {
      const fallback = this.deps.fallbackCarrier;
      return { attempts: [fallback], provided: false, candidates: [fallback] };
    }
    if (candidates.length === 0) return { kind: "no_candidates", referenceType: reference.type };
    const attempts = candidates.slice(0, input.localOnly ? 1 : MAX_DETECTION_ATTEMPTS);
    return { attempts, provided: false, candidates };
  }

  /** The stored document, when the surface serves stored answers and it is fresh (or force is capped). */
  private async servableFromStore(
    { principal, reference, input }: TrackRequest,
    plan: { attempts: string[]; provided: boolean },
    existing: Shipment | null,
  ): Promise<StoredDocument | null> {
    if (input.freshness !== "serve-fresh") return null;
    // A named carrier is the only one whose document may answer: what another carrier said about the
    // number (cached by an earlier call without sealine) is not this carrier's answer.
    const scacs =
      existing?.carrierScac && !plan.provided ? [existing.carrierScac, ...plan.attempts] : plan.attempts;
    for (const scac of new Set(scacs)) {
      const document = await this.deps.documents.find(
        principal.organization.id,
        scac,
        reference.type,
        reference.normalized,
      );
      if (!document || document.latestVersion === 0) continue;
      const syncedAt = document.lastSyncedAt?.getTime() ?? 0;
      const age = this.deps.clock.now().getTime() - syncedAt;
      const maxAge = input.maxAgeMs ?? FRESHNESS_MS;
      // Served while younger than that: an answer built on it (peekStored) holds until then.
      answerValidUntil(syncedAt + maxAge);
      if (!input.force) {
        return age < maxAge ? this.deps.documents.latest(document) : null;
      }
      // force_update skips the wait, but only so often a day per reference; then the store answers.
      const budget = await this.deps.limiter.consume(
        `force:${principal.organization.id}:${reference.normalized}`,
        FORCE_REFETCHES_PER_DAY,
        DAY_MS,
      );
      return budget.allowed ? null : this.deps.documents.latest(document);
    }
    return null;
  }

  /** One carrier call per reference at a time in this process: concurrent tracks share the answer. */
  private ask(scac: string, reference: ParsedReference): Promise<CarrierAnswer> {
    const carrier = findCarrierByScac(scac, this.deps.directory);
    const referenceType = carrier ? typeAskedOf(carrier, reference) : reference.type;
    const container = reference.type === "container" ? undefined : reference.container?.number;
    const key = `${scac}|${referenceType}|${reference.normalized}|${container ?? ""}`;
    let call = this.inFlight.get(key);
    if (!call) {
      const started = performance.now();
      call = inSpan(
        `carrier.track ${scac}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { "quayside.carrier.scac": scac, "quayside.reference.type": referenceType },
        },
        async (span) => {
          const outcome = await this.deps.carriers.track({
            scac,
            reference: reference.number,
            referenceType,
            ...(container ? { container } : {}),
          });
          span?.setAttribute("quayside.carrier.outcome", outcome.kind);
          if (outcome.kind !== "found" && outcome.kind !== "not-found") markFailed(span);
          const labels = { scac, outcome: outcome.kind };
          this.deps.metrics?.carrierCalls.inc(labels);
          this.deps.metrics?.carrierCallDuration.observe(labels, (performance.now() - started) / 1000);
          return outcome;
        },
      ).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, call);
    }
    return call;
  }

  /**
   * The box a combined value asks about and the shipment's facts for a served document, or the
   * refusal when the document does not hold that box (the caller is not billed: nothing is settled).
   */
  private servedFacts(
    settlement: Settlement,
    now: Date,
  ): { refused: TrackOutcome } | { box: ContainerOnDocument | null | undefined; facts: ServedFacts } {
    const { principal, reference, existing, stored, provided } = settlement;
    const content = stored.content;
    const only = reference.type !== "container" ? (reference.container?.number ?? null) : null;
    const box = only === null ? null : content.containers.find((c) => sameIdentifier(c.number, only));
    if (only !== null && !box) {
      return {
        refused: {
          kind: "container_not_on_document",
          referenceType: reference.type,
          reference: reference.number,
          container: only,
          scac: stored.document.carrierScac,
          carrierProvided: provided,
        },
      };
    }
    const facts = {
      carrierScac: stored.document.carrierScac,
      carrierProvided: provided,
      documentId: stored.document.id,
      status: content.status,
      eta: content.route.pod.instant ? new Date(content.route.pod.instant) : null,
      ata: content.ata ? new Date(content.ata) : null,
      failedAt: null,
      failureReason: null,
      triedCarriers: [],
      lastSyncedAt: stored.document.lastSyncedAt,
      // The served version's summary, copied so that lists never open the document.
      summary: storedSummary(stored.version.summary) ?? summaryFactsOf(content),
      updatedAt: now,
      // A prediction computed from another version is cleared in the same write, and the `eta` worker
      // computes the new one (docs/decisions/eta.md): a read never serves the old version's.
      ...(predictionVersionOf(existing?.predictedEta) === stored.version.id
        ? {}
        : {
            predictedEta: Prisma.DbNull,
            etaDueAt: featureAccess(principal.organization, "predictive_eta") === "on" ? now : null,
          }),
    };
    return { box, facts };
  }

  /** Creates or updates the organisation's shipment for a served document, taking the slot if new. */
  private async settle(settlement: Settlement): Promise<TrackOutcome> {
    const { principal, reference, existing, stored, fromCache, stale } = settlement;
    const { prisma, clock, slots } = this.deps;
    const org = principal.organization;
    const content = stored.content;
    const now = clock.now();
    const served = this.servedFacts(settlement, now);
    if ("refused" in served) return served.refused;
    const { box, facts } = served;
    if (fromCache && !stale && unchangedBy(existing, facts)) {
      // A stored answer that changes nothing about the shipment writes nothing on the request's
      // path: no transaction, no shipment write, and the lookup joins the log's next batch.
      return this.tracked(settlement, box, {
        shipment: existing!,
        slotConsumed: false,
        lookupId: this.deps.lookups.append(
          lookupRow(settlement, now, {
            carrierScac: stored.document.carrierScac,
            outcome: "tracked",
            fromCache,
            documentVersionId: stored.version.id,
          }),
        ),
      });
    }
    // Lookups logged earlier take their numbers first: history lists calls in the order they came.
    await this.deps.lookups.flush();
    const takesSlot = !existing || Boolean(existing.failedAt);
    const write = () =>
      prisma.$transaction(async (tx) => {
        let slotConsumed = false;
        if (takesSlot) {
          const reservation = await slots.reserve(tx, org, reference.normalized);
          if (reservation === "exhausted") return null;
          slotConsumed = reservation === "acquired";
        }
        const { shipment: written, before } = await upsertLiveShipment(tx, settlement, facts, now);
        const shipment = await tx.shipment.update({
          where: { id: written.id },
          data: {
            nextRefreshAt: nextRefreshAt({
              shipmentId: written.id,
              status: written.status,
              lastSyncedAt: written.lastSyncedAt,
              eta: written.eta,
              now,
            }),
            ...(written.discoveryStatus === "queued" || written.discoveryStatus === "running"
              ? { discoveryStatus: null, discoveryUpdatedAt: now }
              : {}),
          },
        });
        // Events only for a shipment that was already live: its first answer is not a change.
        if (before && !before.failedAt) {
          await this.deps.webhooks.enqueue(tx, org.id, shipmentEvents(before, content, shipment));
        }
        const lookup = await tx.trackingLookup.create({
          data: lookupRow(settlement, now, {
            carrierScac: stored.document.carrierScac,
            outcome: stale ? "stale" : "tracked",
            fromCache,
            documentVersionId: stored.version.id,
          }),
        });
        return { shipment, slotConsumed, lookupId: async () => lookup.number };
      });
    // Writes that take a slot wait for the organisation's slot lock; they queue here, one per
    // process at a time, rather than each holding a pooled connection while it waits.
    const result = takesSlot ? await this.slotTakers.run(org.id, write) : await write();
    if (!result) return this.limitReached(org);
    // A new shipment changes the organisation's pages and its reads by reference; a known one, its own.
    await answersChanged(
      existing && !existing.failedAt ? { shipments: [result.shipment] } : { organizations: [org.id] },
    );
    return this.tracked(settlement, box, result);
  }

  private tracked(
    { stored, provided, fromCache, stale, changes }: Settlement,
    box: TrackingDocument["containers"][number] | null | undefined,
    result: { shipment: Shipment; slotConsumed: boolean; lookupId: () => Promise<number> },
  ): TrackOutcome {
    const content = stored.content;
    const carrier = findCarrierByScac(stored.document.carrierScac, this.deps.directory);
    return {
      kind: "tracked",
      shipment: result.shipment,
      stored: box ? { ...stored, content: { ...content, containers: [box] } } : stored,
      container: box ? box.number : null,
      carrier: {
        scac: stored.document.carrierScac,
        name: carrier?.name ?? stored.document.carrierScac,
        provided,
      },
      fromCache,
      stale,
      slotConsumed: result.slotConsumed,
      changes,
      lookupId: result.lookupId,
    };
  }

  /**
   * Nothing found: the shipment is kept as failed (no slot: a refusal is not billed) so that the
   * caller can read it back and carrier discovery can recover it.
   */
  private async notFound(
    request: TrackRequest,
    {
      existing,
      tried,
      plan,
    }: {
      existing: Shipment | null;
      tried: string[];
      plan: { attempts: string[]; provided: boolean; candidates: string[] };
    },
  ): Promise<TrackOutcome> {
    const { principal, reference, input } = request;
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const org = principal.organization;
    const remainingCandidates = plan.candidates.filter((scac) => !plan.attempts.includes(scac));
    const eligibility = discoveryEligibility(org, remainingCandidates);
    // Discovery is queued for lookups by people; jobs are discovery's own attempts.
    const queueDiscovery = eligibility.eligible && input.surface !== "job";
    const shipment =
      existing?.failedAt === null && existing.documentId
        ? existing // a live shipment the carrier stopped finding keeps its stored document
        : (
            await prisma.$transaction((tx) =>
              upsertLiveShipment(
                tx,
                request,
                {
                  carrierScac: plan.attempts.at(-1) ?? null,
                  carrierProvided: plan.provided,
                  failedAt: existing?.failedAt ?? now,
                  failureReason: "not_found",
                  triedCarriers: plan.attempts,
                  nextRefreshAt: null,
                  ...(queueDiscovery ? { discoveryStatus: "queued", discoveryUpdatedAt: now } : {}),
                  updatedAt: now,
                },
                now,
              ),
            )
          ).shipment;
    if (shipment !== existing) await answersChanged({ organizations: [org.id] });
    await this.deps.lookups.flush();
    const lookup = await prisma.trackingLookup.create({
      data: lookupRow(request, now, {
        carrierScac: plan.attempts.at(-1) ?? null,
        outcome: "not_found",
      }),
    });
    const discovery = eligibility;
    return {
      kind: "not_found",
      referenceType: reference.type,
      reference: reference.number,
      tried,
      shipment,
      carrierProvided: plan.provided,
      discovery,
      discoveryQueued: queueDiscovery,
      upgrade:
        !discovery.eligible && discovery.reason === "plan" && org.plan === "free"
          ? { feature: "carrier_discovery", minPlan: minimumPlanFor("carrier_discovery").code }
          : null,
      lookupId: lookup.number,
    };
  }

  private async limitReached(org: Organization): Promise<TrackOutcome> {
    const usage = await this.deps.slots.usage(org);
    return { kind: "shipment_limit_reached", limit: usage.limit, used: usage.used, cycleEnd: usage.cycleEnd };
  }
}

/** Whether a background search of the other candidate carriers may run for a failed reference. */
export function discoveryEligibility(org: Organization, remainingCandidates: string[]): DiscoveryEligibility {
  const barrier = discoveryBarrier(org);
  if (barrier) return { eligible: false, reason: barrier };
  if (remainingCandidates.length === 0) return { eligible: false, reason: "no_candidates" };
  return { eligible: true, candidates: remainingCandidates };
}

/**
 * Which way asking a carrier failed, in the terms a client is told. The adapter's technical detail
 * (socket error codes, endpoint paths) never leaves the service.
 */
export type CarrierFailureKind =
  | "no_answer"
  | "connection_failed"
  | "error_answer"
  | "not_configured"
  | "unreadable_answer"
  | "rate_limited"
  | "credentials_refused";

/** The sentence (lower case, no full stop) each failure is described with in `reason`. */
export const CARRIER_FAILURE_WORDS: Record<CarrierFailureKind, string> = {
  no_answer: "the carrier could not be reached: it did not answer in time",
  connection_failed:
    "the carrier could not be reached: the connection failed or was closed before it answered",
  error_answer: "the carrier could not be reached: it answered with an error",
  not_configured: "the carrier could not be reached: no connection to it is configured on this service",
  unreadable_answer: "the carrier's answer could not be read",
  rate_limited: "the carrier is limiting our requests",
  credentials_refused: "the carrier refused our credentials",
};

const UNREACHABLE_KIND: Record<
  NonNullable<Extract<CarrierFailure, { kind: "unreachable" }>["cause"]>,
  CarrierFailureKind
> = {
  timeout: "no_answer",
  connection: "connection_failed",
  status: "error_answer",
  "not-configured": "not_configured",
};

export function describeFailure(outcome: CarrierFailure): {
  failure: CarrierFailureKind;
  reason: string;
  retryAfterSeconds: number;
} {
  const described = (failure: CarrierFailureKind, retryAfterSeconds = CARRIER_DOWN_RETRY_AFTER_S) => ({
    failure,
    reason: CARRIER_FAILURE_WORDS[failure],
    retryAfterSeconds,
  });
  switch (outcome.kind) {
    case "unreachable":
      return described(outcome.cause ? UNREACHABLE_KIND[outcome.cause] : "connection_failed");
    case "malformed":
      return described("unreadable_answer");
    case "rate-limited":
      return described("rate_limited", outcome.retryAfterSeconds ?? CARRIER_DOWN_RETRY_AFTER_S);
    case "unauthorized":
      return described("credentials_refused", 3600);
  }
}

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Whether serving this document leaves the live shipment exactly as it is: same document, carrier,
 * status, dates and summary, nothing failed, no discovery to close. Then no write is needed.
 */
function unchangedBy(
  existing: Shipment | null,
  facts: {
    carrierScac: string;
    carrierProvided: boolean;
    documentId: string;
    status: string;
    eta: Date | null;
    ata: Date | null;
    lastSyncedAt: Date | null;
    summary: SummaryFacts;
  },
): boolean {
  if (!existing || existing.failedAt || existing.deletedAt) return false;
  const sameSummaryAs = (stored: unknown, next: SummaryFacts) => {
    const kept = storedSummary(stored);
    return kept !== null && sameSummary(kept, next);
  };
  if (existing.discoveryStatus === "queued" || existing.discoveryStatus === "running") return false;
  const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
  return (
    existing.documentId === facts.documentId &&
    existing.carrierScac === facts.carrierScac &&
    existing.carrierProvided === facts.carrierProvided &&
    existing.status === facts.status &&
    sameTime(existing.eta, facts.eta) &&
    sameTime(existing.ata, facts.ata) &&
    sameTime(existing.lastSyncedAt, facts.lastSyncedAt) &&
    sameSummaryAs(existing.summary, facts.summary)
  );
}

/** One entry of the lookup log: who asked, on which surface, what was answered (see `LookupLog`). */
function lookupRow(
  { principal, reference, input }: TrackRequest,
  now: Date,
  answer: { carrierScac: string | null; outcome: string; fromCache?: boolean; documentVersionId?: string },
): LookupEntry {
  return {
    organizationId: principal.organization.id,
    apiKeyId: principal.apiKey?.id ?? null,
    surface: input.surface,
    reference: reference.number,
    referenceType: reference.type,
    referenceKey: reference.normalized,
    createdAt: now,
    carrierScac: answer.carrierScac,
    outcome: answer.outcome,
    fromCache: answer.fromCache ?? false,
    documentVersionId: answer.documentVersionId ?? null,
  };
}

/**
 * Concurrent tracks of one new reference converge on one row: the partial unique index on live
 * shipments turns the loser's insert into a conflict, after which it updates the winner's row.
 */
async function upsertLiveShipment(
  tx: Tx,
  { principal, reference }: Pick<TrackRequest, "principal" | "reference">,
  facts: Partial<Omit<Shipment, "summary" | "predictedEta" | "freeTime" | "dndSchedule">> & {
    summary?: SummaryFacts;
    predictedEta?: typeof Prisma.DbNull;
  },
  now: Date,
): Promise<{ shipment: Shipment; before: Shipment | null }> {
  const where = {
    organizationId: principal.organization.id,
    referenceType: reference.type,
    referenceKey: reference.normalized,
    deletedAt: null,
  };
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`shipment:${principal.organization.id}:${reference.type}:${reference.normalized}`}))`;
  const live = await tx.shipment.findFirst({ where });
  if (live)
    return {
      shipment: await tx.shipment.update({
        where: { id: live.id },
        data: { ...facts, summary: facts.summary as Prisma.InputJsonObject | undefined },
      }),
      before: live,
    };
  const created = await tx.shipment.create({
    data: {
      id: randomUUID(),
      organizationId: principal.organization.id,
      addedByUserId: principal.user.id,
      referenceType: reference.type,
      reference: reference.number,
      referenceKey: reference.normalized,
      createdAt: now,
      ...facts,
    } as never,
  });
  return { shipment: created, before: null };
}

export type { TrackingDocument };
