/**
 * The proforma calls behind the carriers' port schedules (DCSA Commercial Schedules 1.0
 * `port-schedules`). A shipment plan sails its legs on sailings of the world's fleet (fleet.ts); the
 * proforma of a call is the sailing's published arrival before any delay, on the sailing the box
 * really took (a rolled box's later ship and voyage). The world is lazy, so a carrier's schedule lists
 * the voyages of the shipments the world has planned so far: the ones anybody has asked about, which
 * includes every shipment a tracking client follows. Bounded per port; the oldest are forgotten first.
 */

import { toLocalIso } from "./local-time";
import type { Port } from "./ports";
import { type ShipmentPlan, voyageOf } from "./shipment-plan";
import { sailingOf, type Timeline } from "./shipment-timeline";
import type { Vessel } from "./vessels";

export interface PlannedPortCall {
  scac: string;
  port: Port;
  vessel: Vessel;
  serviceName: string;
  /** The carrier's code for the service, else the operator's (a schedule always names one). */
  serviceCode: string;
  voyage: string;
  /** The proforma arrival (ms). */
  arrival: number;
}

const PER_PORT = 20_000;

export class PortCallRegistry {
  private readonly byPort = new Map<string, Map<string, PlannedPortCall>>();

  /** Records the discharge call of every vessel leg of a placed shipment. */
  record(plan: ShipmentPlan, timeline: Timeline): void {
    plan.legs.forEach((leg, index) => {
      // The sailing the box really takes (a rolled box's later one), as the carrier's events name it.
      const sailing = sailingOf(plan, index, timeline.actual);
      if (!sailing) return;
      const vessel = sailing.vessel;
      const call: PlannedPortCall = {
        scac: plan.carrier.scac,
        port: leg.dischargePort,
        vessel,
        serviceName: leg.service.name,
        serviceCode: leg.serviceCode ?? Object.values(leg.service.codes)[0] ?? leg.service.name,
        voyage: voyageOf(plan, leg, sailing, true),
        arrival: sailing.arrival,
      };
      const portKey = `${call.scac}|${call.port.unLocode}`;
      let calls = this.byPort.get(portKey);
      if (!calls) {
        calls = new Map();
        this.byPort.set(portKey, calls);
      }
      // Two plans may put the same ship and voyage number on different days: both calls are kept.
      const key = `${vessel.imo}|${call.voyage}|${call.arrival}`;
      calls.delete(key);
      calls.set(key, call);
      if (calls.size > PER_PORT) {
        const oldest = calls.keys().next().value;
        if (oldest !== undefined) calls.delete(oldest);
      }
    });
  }

  /** A carrier's calls at a port whose proforma arrival falls on a local date there, earliest first. */
  callsOn(scac: string, port: Port, date: string): PlannedPortCall[] {
    const calls = [...(this.byPort.get(`${scac}|${port.unLocode}`)?.values() ?? [])];
    return calls
      .filter((call) => toLocalIso(call.arrival, port.timeZone).slice(0, 10) === date)
      .sort((a, b) => a.arrival - b.arrival || a.vessel.imo.localeCompare(b.vessel.imo));
  }
}
