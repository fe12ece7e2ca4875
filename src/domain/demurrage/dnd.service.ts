import { z } from "zod";
import type { PreparedSql, PreparedStatement } from "../../db/database";
import type { PrismaClient } from "../../generated/prisma/client";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import type { TrackingDocument } from "../tracking/model";
import { type ContractTerms, clockEventsOf } from "./contract-terms";
import { assessDocument, type ContainerDnd, type DemurrageRisk, demurrageRiskOf } from "./dnd-assessment";
import type { PortContext } from "./dnd-clock";
import type {
  ChargeType,
  ClockEnd,
  ClockStart,
  ClockStartRule,
  DayBasis,
  Direction,
  EquipmentClass,
  Tariff,
} from "./model";

/**
 * Days from discharge to gate-out assumed at a port whose own dwell is not measured (no congestion
 * signal in the last 14 days): the low end of the 4-5 free days US forwarders quote (wssa.com 2021).
 */
export const DEFAULT_DWELL_DAYS = 3;
const DWELL_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;

const Slabs = z.array(z.object({ fromDay: z.number(), toDay: z.number().nullable(), rate: z.number() }));

type TariffRow = Awaited<ReturnType<PrismaClient["dndTariff"]["findMany"]>>[number];

/** Dates of the tariff's validity as text: a DATE read by the driver would land on local midnight. */
const CONTRACT_TERMS: PreparedStatement = {
  name: "dnd_contract_terms",
  text: `SELECT id, organization_id, carrier_scac, port_locode, country_code, direction, charge_type, equipment,
       free_days, free_day_basis, charge_day_basis, clock_start, clock_start_rule, clock_end, slabs, currency,
       to_char(effective_from, 'YYYY-MM-DD') AS effective_from, to_char(effective_to, 'YYYY-MM-DD') AS effective_to,
       source_url, source_note, is_estimate, created_at AT TIME ZONE 'UTC' AS created_at
  FROM dnd_tariffs WHERE organization_id = ANY($1::text[])
 ORDER BY created_at, id`,
};

interface RawTariffRow {
  id: string;
  organization_id: string | null;
  carrier_scac: string | null;
  port_locode: string | null;
  country_code: string | null;
  direction: string;
  charge_type: string;
  equipment: string;
  free_days: number;
  free_day_basis: string;
  charge_day_basis: string;
  clock_start: string;
  clock_start_rule: string;
  clock_end: string;
  slabs: TariffRow["slabs"];
  currency: string;
  effective_from: string;
  effective_to: string | null;
  source_url: string | null;
  source_note: string;
  is_estimate: boolean;
  created_at: Date;
}

function tariffRowOf(r: RawTariffRow): TariffRow {
  return {
    id: r.id,
    organizationId: r.organization_id,
    carrierScac: r.carrier_scac,
    portLocode: r.port_locode,
    countryCode: r.country_code,
    direction: r.direction,
    chargeType: r.charge_type,
    equipment: r.equipment,
    freeDays: r.free_days,
    freeDayBasis: r.free_day_basis,
    chargeDayBasis: r.charge_day_basis,
    clockStart: r.clock_start,
    clockStartRule: r.clock_start_rule,
    clockEnd: r.clock_end,
    slabs: r.slabs,
    currency: r.currency,
    effectiveFrom: new Date(`${r.effective_from}T00:00:00Z`),
    effectiveTo: r.effective_to === null ? null : new Date(`${r.effective_to}T00:00:00Z`),
    sourceUrl: r.source_url,
    sourceNote: r.source_note,
    isEstimate: r.is_estimate,
    createdAt: r.created_at,
  };
}

const dateOnly = (d: Date) => d.toISOString().slice(0, 10);

export function tariffOfRow(row: TariffRow): Tariff {
  return {
    id: row.id,
    organizationId: row.organizationId,
    carrierScac: row.carrierScac,
    portLocode: row.portLocode,
    countryCode: row.countryCode,
    direction: row.direction as Direction,
    chargeType: row.chargeType as ChargeType,
    equipment: row.equipment as EquipmentClass,
    freeDays: row.freeDays,
    freeDayBasis: row.freeDayBasis as DayBasis,
    chargeDayBasis: row.chargeDayBasis as DayBasis,
    clockStart: row.clockStart as ClockStart,
    clockStartRule: row.clockStartRule as ClockStartRule,
    clockEnd: row.clockEnd as ClockEnd,
    slabs: Slabs.parse(row.slabs),
    currency: row.currency,
    effectiveFrom: dateOnly(row.effectiveFrom),
    effectiveTo: row.effectiveTo ? dateOnly(row.effectiveTo) : null,
    sourceUrl: row.sourceUrl,
    sourceNote: row.sourceNote,
    isEstimate: row.isEstimate,
  };
}

/** Every box's clocks and the shipment's roll-up. */
export interface ShipmentDnd {
  containers: ContainerDnd[];
  risk: DemurrageRisk;
}

/** How long a process uses a port's dwell before reading it again, and how many ports it keeps. */
const DWELL_KEPT_MS = 5 * 60_000;
const DWELL_KEPT_PORTS = 5_000;
/** Organisations whose contract terms a process keeps at most (a bound, not a tuning figure). */
const TERMS_KEPT_ORGANISATIONS = 10_000;

/** A box's last free day as its current terminal record gives it, and whose day it is. */
export interface TerminalLastFreeDay {
  lastFreeDay: string;
  givenBy: "line" | "terminal";
  gatedOut: boolean;
}

/** What of a box's current terminal facts gives its last free day. */
export interface BoxFactsGivingLastFreeDay {
  facts: {
    lastFreeDay: string | null;
    lastFreeDaySource: "line" | "terminal" | null;
    gateOutAt: string | null;
  };
}

/** The last free days some boxes' current terminal facts give (boxes without one are absent). */
export function lastFreeDaysGiven(
  current: ReadonlyMap<string, BoxFactsGivingLastFreeDay>,
): Map<string, TerminalLastFreeDay> {
  const given = new Map<string, TerminalLastFreeDay>();
  for (const [container, { facts }] of current) {
    if (!facts.lastFreeDay) continue;
    given.set(container, {
      lastFreeDay: facts.lastFreeDay,
      givenBy: facts.lastFreeDaySource ?? "terminal",
      gatedOut: facts.gateOutAt !== null,
    });
  }
  return given;
}

export class DndService {
  private published: Promise<Tariff[]> | undefined;

  /** Dwell per port as last read, and until when it is used (see dwellDaysAt). */
  private readonly dwell = new Map<string, { days: number | null; until: number }>();

  /**
   * Contract terms per organisation as last read, and until when they are used. Every single read with
   * D&D asks for them and they change a few times a year, so they were one statement of five on the
   * stored read. `termsWritten` counts this process's writes: a read that began before one does not
   * keep what it read.
   */
  private readonly terms = new Map<string, { tariffs: Tariff[]; until: number }>();
  private termsWritten = 0;

  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      sql?: PreparedSql;
      /** QUAYSIDE_CONTRACT_TERMS_CACHE_SECONDS in ms; 0 or absent: read every time. */
      termsKeptMs?: number;
      /** The current terminal facts of some boxes, in one read (boxes without facts are absent). */
      terminalFacts?: (
        containers: readonly string[],
      ) => Promise<ReadonlyMap<string, BoxFactsGivingLastFreeDay>>;
    },
  ) {}

  /**
   * The last free days the terminal records give for some boxes, each with whose day it is: the
   * assessment decides when one beats the terms' count (`effectiveGivenDay`), so every surface and
   * every mail shows one day.
   */
  async terminalLastFreeDays(containers: readonly string[]): Promise<Map<string, TerminalLastFreeDay>> {
    const read = this.deps.terminalFacts;
    if (!read || containers.length === 0) return new Map();
    return lastFreeDaysGiven(await read(containers));
  }

  /** The seeded published tariffs and benchmarks: written by a migration, so read once per process. */
  publishedTariffs(): Promise<Tariff[]> {
    this.published ??= this.deps.prisma.dndTariff
      .findMany({ where: { organizationId: null }, orderBy: { id: "asc" } })
      .then((rows) => rows.map(tariffOfRow));
    this.published.catch(() => {
      this.published = undefined;
    });
    return this.published;
  }

  /**
   * Contract terms of some organisations, in one query (a page of shipments asks once); a prepared
   * statement, as every assessment of a read asks it.
   */
  async contractTermsOf(organizationIds: readonly string[]): Promise<Tariff[]> {
    const keptMs = this.deps.termsKeptMs ?? 0;
    if (keptMs <= 0) return this.readContractTerms(organizationIds);
    const now = this.deps.clock.now().getTime();
    const wanted = [...new Set(organizationIds)].filter((id) => (this.terms.get(id)?.until ?? 0) <= now);
    if (wanted.length > 0) {
      const written = this.termsWritten;
      const read = await this.readContractTerms(wanted);
      if (written === this.termsWritten) {
        if (this.terms.size + wanted.length > TERMS_KEPT_ORGANISATIONS) this.terms.clear();
        for (const id of wanted) {
          this.terms.set(id, { tariffs: read.filter((t) => t.organizationId === id), until: now + keptMs });
        }
      } else {
        // A write landed while reading: answer from what was read (as an uncached read would) and
        // keep nothing, so the next read sees the write.
        const kept = organizationIds
          .filter((id) => !wanted.includes(id))
          .flatMap((id) => this.terms.get(id)?.tariffs ?? []);
        return [...kept, ...read];
      }
    }
    return [...new Set(organizationIds)].flatMap((id) => this.terms.get(id)?.tariffs ?? []);
  }

  private async forgetContractTerms(organizationId: string): Promise<void> {
    this.termsWritten++;
    this.terms.delete(organizationId);
    // The free time kept on the organisation's rows is counted from these terms (shipment-free-time.ts).
    await this.termsChanged?.(organizationId);
  }

  /** Set once by the services: what to recompute when an organisation's terms change. */
  termsChanged: ((organizationId: string) => Promise<void>) | undefined;

  private async readContractTerms(organizationIds: readonly string[]): Promise<Tariff[]> {
    if (this.deps.sql) {
      const rows = await this.deps.sql.query<RawTariffRow>(CONTRACT_TERMS, [[...organizationIds]]);
      return rows.map((r) => tariffOfRow(tariffRowOf(r)));
    }
    const rows = await this.deps.prisma.dndTariff.findMany({
      where: { organizationId: { in: [...organizationIds] } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return rows.map(tariffOfRow);
  }

  async addContractTerms(organizationId: string, terms: ContractTerms): Promise<Tariff> {
    const clock = clockEventsOf(terms.direction, terms.chargeType);
    const row = await this.deps.prisma.dndTariff.create({
      data: {
        organizationId,
        carrierScac: terms.carrierScac,
        portLocode: terms.portLocode,
        countryCode: terms.countryCode ?? terms.portLocode?.slice(0, 2) ?? null,
        direction: terms.direction,
        chargeType: terms.chargeType,
        equipment: terms.equipment,
        freeDays: terms.freeDays,
        freeDayBasis: terms.freeDayBasis,
        chargeDayBasis: terms.chargeDayBasis,
        clockStart: clock.start,
        clockStartRule: terms.clockStartRule,
        clockEnd: clock.end,
        slabs: terms.slabs,
        currency: terms.currency,
        effectiveFrom: new Date(`${terms.effectiveFrom}T00:00:00Z`),
        effectiveTo: terms.effectiveTo ? new Date(`${terms.effectiveTo}T00:00:00Z`) : null,
        sourceUrl: null,
        sourceNote: terms.note ?? "Contract terms stored by the organisation.",
        isEstimate: false,
      },
    });
    await this.forgetContractTerms(organizationId);
    await answersChanged({ organizations: [organizationId] });
    return tariffOfRow(row);
  }

  /** Removes one of the organisation's own terms; false when it has none with that id. */
  async removeContractTerms(organizationId: string, id: string): Promise<boolean> {
    const { count } = await this.deps.prisma.dndTariff.deleteMany({ where: { id, organizationId } });
    await this.forgetContractTerms(organizationId);
    await answersChanged({ organizations: [organizationId] });
    return count > 0;
  }

  /**
   * Median-ish dwell at ports: the newest measured daily dwell of the last 14 days, per port. A daily
   * figure the congestion worker writes at most hourly, used only to project a discharge, so each
   * port's is kept DWELL_KEPT_MS per process rather than read on every assessment.
   */
  async dwellDaysAt(locodes: readonly string[]): Promise<Map<string, number>> {
    const now = this.deps.clock.now().getTime();
    const wanted = locodes.filter((l) => (this.dwell.get(l)?.until ?? 0) <= now);
    if (wanted.length > 0) {
      const since = new Date(now - DWELL_WINDOW_DAYS * DAY_MS);
      const rows = await this.deps.prisma.portCongestionSignal.findMany({
        where: { locode: { in: wanted }, day: { gte: since }, dwellD: { not: null } },
        orderBy: { day: "desc" },
        select: { locode: true, dwellD: true },
      });
      const read = new Map<string, number>();
      for (const row of rows) if (!read.has(row.locode)) read.set(row.locode, row.dwellD!);
      if (this.dwell.size > DWELL_KEPT_PORTS) this.dwell.clear();
      for (const locode of wanted) {
        this.dwell.set(locode, { days: read.get(locode) ?? null, until: now + DWELL_KEPT_MS });
      }
    }
    const dwell = new Map<string, number>();
    for (const locode of locodes) {
      const days = this.dwell.get(locode)?.days;
      if (days != null) dwell.set(locode, days);
    }
    return dwell;
  }

  /** The port of discharge of a document as its clocks need it. */
  portOf(doc: TrackingDocument, dwell: ReadonlyMap<string, number>): PortContext {
    const pod = doc.locations.find((l) => l.key === doc.route.pod.locationKey);
    return {
      locode: pod?.unLocode ?? null,
      countryCode: pod?.countryCode ?? null,
      timeZone: pod?.timeZone ?? null,
      holidays: { countryCode: pod?.countryCode ?? null, state: pod?.state ?? null },
      dwellDays: (pod?.unLocode && dwell.get(pod.unLocode)) || DEFAULT_DWELL_DAYS,
    };
  }

  /**
   * The clocks of a shipment's newest document, with the tariffs already loaded (contract terms of the
   * organisation plus the published ones). No document: every clock is unknown (`no_tracking_facts`).
   */
  assess(input: {
    organizationId: string;
    doc: TrackingDocument | null;
    tariffs: readonly Tariff[];
    dwell: ReadonlyMap<string, number>;
    /** The predictive ETA's p50 at the port of discharge, projecting discharge when it is known. */
    predictedArrival?: string | null;
    /** The carrier's newest successful answer about the document, changed or not (`lastSyncedAt`). */
    factsConfirmedAt?: Date | null;
    /** The boxes' last free days from their terminal records (`terminalLastFreeDays`). */
    terminalLastFreeDays?: ReadonlyMap<string, { lastFreeDay: string; givenBy: "line" | "terminal" }>;
    /** The instant assessed at; absent: the clock's now. */
    now?: Date;
  }): ShipmentDnd {
    if (!input.doc) return { containers: [], risk: demurrageRiskOf([], null) };
    const containers = assessDocument({
      organizationId: input.organizationId,
      doc: input.doc,
      tariffs: input.tariffs,
      port: this.portOf(input.doc, input.dwell),
      now: input.now ?? this.deps.clock.now(),
      predictedArrival: input.predictedArrival ?? null,
      factsConfirmedAt: input.factsConfirmedAt?.toISOString() ?? null,
      terminalLastFreeDays: new Map(
        [...(input.terminalLastFreeDays ?? [])].map(([box, given]) => [
          box,
          { day: given.lastFreeDay, givenBy: given.givenBy },
        ]),
      ),
    });
    return { containers, risk: demurrageRiskOf(containers, null) };
  }
}
