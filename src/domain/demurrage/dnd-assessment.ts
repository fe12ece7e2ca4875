import type { TrackedContainer, TrackedEvent, TrackingDocument } from "../tracking/model";
import { localDate } from "./calendar";
import { type DndClock, type GivenLastFreeDay, type PortContext, runClock, unknownClock } from "./dnd-clock";
import { equipmentClassOf } from "./equipment";
import { expectedDischargeAt } from "./expected-discharge";
import type { EquipmentClass, Tariff } from "./model";
import { resolveTerms } from "./tariff-resolution";

/** One box's clocks at the port of discharge. */
export interface ContainerDnd {
  container: string;
  equipment: EquipmentClass;
  /** The demurrage clock (discharge to gate-out), or the combined one where the tariff says so. */
  demurrage: DndClock;
  /** Gate-out to empty return; null while the box is at the port, and under a combined tariff. */
  detention: DndClock | null;
}

/** The facts of one box that start and stop its clocks, all actual events. */
export interface BoxMilestones {
  dischargedAt: string | null;
  gatedOutAt: string | null;
  emptyReturnedAt: string | null;
}

const actualAt = (e: TrackedEvent) => (e.actual && e.instant !== null ? e.instant : null);

/**
 * Discharge at the port of discharge; the first laden gate-out after it (at the port, or inland at
 * the end of carrier haulage); the first empty gate-in after that (DCSA GTIN with EMPTY: the empty
 * return, compat `CER`).
 */
export function boxMilestones(doc: TrackingDocument, container: TrackedContainer): BoxMilestones {
  const pod = doc.route.pod.locationKey;
  const events = container.events
    .filter((e) => actualAt(e) !== null)
    .sort((a, b) => Date.parse(a.instant!) - Date.parse(b.instant!));
  const discharge = events.find((e) => e.eventCode === "DISC" && e.locationKey === pod);
  const after = (instant: string | null | undefined) => (e: TrackedEvent) =>
    instant != null && Date.parse(e.instant!) >= Date.parse(instant);
  const gateOut = discharge
    ? events.find(
        (e) => e.eventCode === "GTOT" && e.emptyIndicator !== "EMPTY" && after(discharge.instant)(e),
      )
    : undefined;
  const emptyReturn = gateOut
    ? events.find((e) => e.eventCode === "GTIN" && e.emptyIndicator === "EMPTY" && after(gateOut.instant)(e))
    : undefined;
  return {
    dischargedAt: discharge?.instant ?? null,
    gatedOutAt: gateOut?.instant ?? null,
    emptyReturnedAt: emptyReturn?.instant ?? null,
  };
}

export interface AssessmentInput {
  organizationId: string;
  doc: TrackingDocument;
  tariffs: readonly Tariff[];
  port: PortContext;
  now: Date;
  /** The predicted arrival at the port of discharge (predictive ETA p50), when there is one. */
  predictedArrival?: string | null;
  /**
   * When the carrier last confirmed these facts: its newest successful answer, changed or not (the
   * document's `lastSyncedAt`). An unchanged answer stores no new version, so the version's own
   * `fetchedAt` only says when the facts last changed; an on-time box whose carrier was asked an hour
   * ago is not stale. Absent: the version's fetch time.
   */
  factsConfirmedAt?: string | null;
  /**
   * Last free days the boxes' terminal records give (container number to the day and whose it is):
   * `effectiveGivenDay` says when one wins over the terms' count for the demurrage (or combined) clock.
   */
  terminalLastFreeDays?: ReadonlyMap<string, GivenLastFreeDay>;
}

/** Import clocks of every box of a document at its port of discharge. */
export function assessDocument(input: AssessmentInput): ContainerDnd[] {
  return input.doc.containers.map((c) => assessContainer(input, c));
}

function assessContainer(input: AssessmentInput, container: TrackedContainer): ContainerDnd {
  const { doc, port, now } = input;
  const confirmedAt = latestOf(doc.fetchedAt, input.factsConfirmedAt ?? null);
  const equipment = equipmentClassOf(container.isoCode, container.sizeType);
  const box = { container: container.number, equipment };
  if (doc.route.pod.locationKey === null || (port.locode === null && port.countryCode === null)) {
    return { ...box, demurrage: unknownClock("demurrage", "no_port_of_discharge"), detention: null };
  }
  const facts = boxMilestones(doc, container);
  const expected = facts.dischargedAt
    ? null
    : expectedDischargeAt(doc, container, input.predictedArrival ?? null);
  const onDate = localDate(new Date(facts.dischargedAt ?? expected ?? now.toISOString()), port.timeZone);
  const query = {
    organizationId: input.organizationId,
    carrierScac: doc.carrierScac,
    portLocode: port.locode,
    countryCode: port.countryCode,
    direction: "import" as const,
    equipment,
    onDate,
  };
  const clockOf = (
    terms: NonNullable<ReturnType<typeof resolveTerms>>,
    chargeType: "demurrage" | "combined",
  ) =>
    runClock({
      chargeType,
      terms,
      startedAt: facts.dischargedAt,
      expectedStartAt: expected,
      stoppedAt: chargeType === "combined" ? facts.emptyReturnedAt : facts.gatedOutAt,
      // The pickup is projected while the box waits at the port; under a combined tariff the clock runs
      // on to the empty return, which no dwell predicts.
      projectPickup: chargeType === "demurrage" && facts.gatedOutAt === null,
      port,
      now,
      factsFetchedAt: confirmedAt,
      givenLastFreeDay: input.terminalLastFreeDays?.get(container.number) ?? null,
    });
  const first = resolveTerms(input.tariffs, { ...query, chargeTypes: ["demurrage", "combined"] });
  if (!first) return { ...box, demurrage: unknownClock("demurrage", "no_terms"), detention: null };
  if (first.tariff.chargeType === "combined") {
    return { ...box, demurrage: clockOf(first, "combined"), detention: null };
  }
  const demurrage = clockOf(first, "demurrage");
  if (facts.gatedOutAt === null) return { ...box, demurrage, detention: null };
  const detentionTerms = resolveTerms(input.tariffs, {
    ...query,
    chargeTypes: ["detention"],
    onDate: localDate(new Date(facts.gatedOutAt), port.timeZone),
  });
  const detention = detentionTerms
    ? runClock({
        chargeType: "detention",
        terms: detentionTerms,
        startedAt: facts.gatedOutAt,
        expectedStartAt: null,
        stoppedAt: facts.emptyReturnedAt,
        projectPickup: false,
        port,
        now,
        factsFetchedAt: confirmedAt,
      })
    : unknownClock("detention", "no_terms");
  return { ...box, demurrage, detention };
}

/** The later of two instants (an ISO string); the first when the second is absent. */
function latestOf(instant: string, other: string | null): string {
  return other !== null && Date.parse(other) > Date.parse(instant) ? other : instant;
}

/** The clock that matters now for a box: detention once it has left the port, else demurrage. */
export function currentClock(box: ContainerDnd): DndClock {
  return box.detention ?? box.demurrage;
}

const URGENCY = ["overdue", "at_risk", "unknown", "within_free_time", "closed"] as const;

/** The shipment's `demurrage_risk`: the most urgent box's current clock, with costs summed over boxes. */
export interface DemurrageRisk extends DndClock {
  /** Boxes assessed. */
  containers: number;
  /** The most urgent box (its clock's fields are the ones shown). */
  container: string | null;
}

/**
 * Rolls the boxes up: the most urgent current clock leads (overdue, at risk, unknown, within free
 * time, closed: an unknown box outranks a calm one, since "cannot assess" is never "no risk"), and
 * the accrued and projected costs are summed over every box charged in the lead's currency (a box in
 * another currency makes the sum null rather than mixing currencies).
 */
export function demurrageRiskOf(
  boxes: readonly ContainerDnd[],
  reasonWhenEmpty: DndClock | null,
): DemurrageRisk {
  if (boxes.length === 0) {
    return {
      ...(reasonWhenEmpty ?? unknownClock("demurrage", "no_tracking_facts")),
      containers: 0,
      container: null,
    };
  }
  const clocks = boxes.map((b) => ({ box: b, clock: currentClock(b) }));
  const lead = [...clocks].sort(
    (a, b) => URGENCY.indexOf(a.clock.status) - URGENCY.indexOf(b.clock.status),
  )[0]!;
  const sum = (pick: (c: DndClock) => number | null): number | null => {
    let total = 0;
    for (const { clock } of clocks) {
      const value = pick(clock);
      if (value === null) continue;
      if (clock.currency !== lead.clock.currency) return null;
      total += value;
    }
    return pick(lead.clock) === null ? null : Math.round(total * 100) / 100;
  };
  return {
    ...lead.clock,
    accruedCost: sum((c) => c.accruedCost),
    projectedCost: sum((c) => c.projectedCost),
    containers: boxes.length,
    container: lead.box.container,
  };
}
