/**
 * Matching stays exact (issue 35 item 5), on the sandbox world: its disruptions are made by the real
 * pipeline from news about its own shipments' ports, a chokepoint and a carrier. Every entity an event
 * publishes is named in one of its reports (no port read from a word that is not one), and every
 * stored match of a shipment is exactly what its document's ports, carrier and remaining route share
 * with the event's entities: no match type without its port, carrier, chokepoint or country, and no
 * shipment touched that the entities do not reach.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_PORT_WATCH_ORGANIZATION } from "../../src/app/sandbox-congestion";
import { SandboxWorld } from "../../src/app/sandbox-world";
import { loadConfig } from "../../src/config";
import { CARRIERS } from "../../src/domain/carriers/carrier-directory";
import { exposureOf } from "../../src/domain/disruptions/exposure";
import { findChokepoint } from "../../src/domain/disruptions/gazetteer";
import { matchTypes } from "../../src/domain/disruptions/matching";
import { findPort } from "../../src/domain/ports/port-directory";
import type { TrackingDocument } from "../../src/domain/tracking/model";
import { createLogger } from "../../src/observability/logger";

let world: SandboxWorld;

beforeAll(async () => {
  const config = loadConfig({
    PORT: "0",
    QUAYSIDE_DEMO: "false",
    QUAYSIDE_SIMULATOR: "off",
    QUAYSIDE_DISRUPTION_FEEDS: "off",
    QUAYSIDE_DATA_DIR: "memory://",
  });
  const quiet = new Writable({ write: (_chunk, _enc, done) => done() });
  world = await SandboxWorld.create({
    config,
    logger: createLogger("error", quiet),
    sampleSender: { sendSample: async () => ({ delivered: false }) } as never,
  });
}, 180_000);

afterAll(() => world?.close());

const folded = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

describe("disruption matching on the sandbox world", () => {
  it("publishes only entities its reports name", async () => {
    const events = await world.services.disruptions.list({
      severity: 1,
      category: null,
      port: null,
      carrier: null,
      country: null,
      status: "active",
      since: null,
      page: 1,
      pageSize: 100,
    });
    expect(events.items.length).toBeGreaterThan(0);
    for (const event of events.items) {
      const titles = folded(event.sources.map((s) => s.title).join(" | "));
      for (const port of event.entities.ports) {
        const name = folded((findPort(port)?.name ?? port).replace(/\s*\(.*\)$/, "").split(",")[0]!);
        expect(titles, `${event.headline}: port ${port}`).toContain(name);
      }
      for (const scac of event.entities.carriers) {
        const name = folded(CARRIERS.find((c) => c.scac === scac)!.name.replace(/\s*\(.*\)$/, ""));
        expect(titles, `${event.headline}: carrier ${scac}`).toContain(name);
      }
      for (const id of event.entities.chokepoints)
        expect(titles, `${event.headline}: chokepoint ${id}`).toContain(folded(findChokepoint(id)!.name));
    }
  });

  it("stores a match exactly where a shipment's ports, carrier, route or countries meet the entities", async () => {
    const { prisma } = world.services.db;
    const shipments = await prisma.shipment.findMany({
      // The sandbox's own shipments: the port watch's (tracked after the news, only for congestion's
      // dwell and slip, and read by no key) are not the world's matched shipments.
      where: {
        deletedAt: null,
        documentId: { not: null },
        status: { notIn: ["DELIVERED", "CANCELLED"] },
        organization: { name: { not: SANDBOX_PORT_WATCH_ORGANIZATION } },
      },
      select: {
        id: true,
        reference: true,
        carrierScac: true,
        document: { select: { id: true, latestVersion: true } },
      },
    });
    const active = await prisma.disruption.findMany({ where: { status: "active" } });
    let stored = 0;
    let expected = 0;
    for (const shipment of shipments) {
      const version = await prisma.documentVersion.findUnique({
        where: {
          documentId_version: {
            documentId: shipment.document!.id,
            version: shipment.document!.latestVersion,
          },
        },
        select: { content: true },
      });
      const exposure = exposureOf(version!.content as unknown as TrackingDocument, shipment.carrierScac);
      const listed = await world.services.disruptions.forShipment(shipment.id);
      stored += listed.length;
      for (const event of active) {
        const entities = {
          ports: event.ports,
          carriers: event.carriers,
          countries: event.countries,
          chokepoints: event.chokepoints,
        };
        const want = matchTypes(exposure, entities);
        const got = listed.find((l) => l.disruption.id === event.id)?.matchTypes ?? [];
        if (want.length) expected++;
        // Precision and recall of each match type against the shipment's own facts.
        expect(got, `${shipment.reference} / ${event.headline}`).toEqual(want);
        for (const type of got) {
          if (type === "pol") expect(event.ports).toContain(exposure.portOfLoading);
          if (type === "pod") expect(event.ports).toContain(exposure.portOfDischarge);
          if (type === "transship")
            expect(exposure.transshipmentPorts.some((p) => event.ports.includes(p))).toBe(true);
          if (type === "carrier") expect(event.carriers).toContain(exposure.carrierScac);
          if (type === "lane_interest")
            expect(exposure.chokepoints.some((c) => event.chokepoints.includes(c))).toBe(true);
          if (type === "country")
            expect(exposure.countries.some((c) => event.countries.includes(c))).toBe(true);
        }
      }
    }
    // The world's news is about its own shipments: there is something to be exact about.
    expect(expected).toBeGreaterThan(0);
    expect(stored).toBe(expected);
  });
});
