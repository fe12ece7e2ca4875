/**
 * Fragments of one event merged (issue 35) never mail the same news twice. Two reports of one dock
 * strike start as two disruptions at two ports; a follower of a shipment discharging at the first is
 * mailed about it. A later report names both ports and joins the second, which takes the first in:
 * the shipment is now touched by the surviving disruption, and nobody is mailed again for it.
 * A real SMTP server on loopback receives what is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedItem } from "../../src/domain/disruptions/normalise";
import { findPort } from "../../src/domain/ports/port-directory";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, type TestApp } from "../support/app";
import { trackActiveShipment } from "../support/disruptions";
import { drain, startMailTestApp } from "../support/mail";
import type { SmtpReceiver } from "../support/smtp";

const HOUR = 3_600_000;
const clock = new ManualClock("2026-11-22T10:00:00Z");
let app: TestApp;
let smtp: SmtpReceiver;
let org: OrgWithKey;
let published = 0;

const portName = (locode: string) => (findPort(locode)?.name ?? locode).replace(/\s*\(.*\)$/, "");

async function report(publisher: string, title: string, summary: string): Promise<string[]> {
  published++;
  const item: FeedItem = {
    sourceId: publisher,
    publisher,
    guid: `merge-mail-${published}`,
    link: `https://news.example/merge-mail/${published}`,
    title,
    summary,
    publishedAt: clock.now(),
  };
  const ingested = await app.services.disruptions.ingest(
    { id: publisher, publisher, kind: "news", authoritative: false },
    [item],
  );
  expect(ingested.accepted, title).toBe(1);
  return ingested.events;
}

beforeAll(async () => {
  ({ app, smtp, org } = await startMailTestApp({
    clock,
    env: { QUAYSIDE_PUBLIC_URL: "https://track.example.com" },
    plan: "business",
  }));
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

describe("a strike reported apart at two ports, then as one", () => {
  it("mails the follower once, about the first report, and not again when the fragments merge", async () => {
    const other = "BRSSZ";
    const shipment = await trackActiveShipment(app, org, 770_000, {
      tries: 30,
      accept: (e) =>
        !!e.portOfDischarge &&
        e.portOfDischarge !== other &&
        !e.countries.includes("BR") &&
        !!findPort(e.portOfDischarge),
    });
    const pod = portName(shipment.exposure.portOfDischarge!);
    const followed = await graphql(
      app,
      org.key,
      `mutation($shipment: String!) { followShipment(shipment: $shipment) { id } }`,
      { shipment: shipment.reference },
    );
    expect(followed.body.errors).toBeUndefined();
    clock.advance(60_000);

    const [first] = await report(
      "Tideline News",
      `Dockworkers strike at the Port of ${pod} over pay`,
      `A walkout halted container handling at the Port of ${pod}.`,
    );
    await drain(app.workers.notifications);
    // Mails about these disruptions open with a headline the service wrote for one of them.
    const headlines = new Set<string>();
    const noteHeadlines = async () => {
      for (const d of await app.services.db.prisma.disruption.findMany()) headlines.add(d.headline);
    };
    await noteHeadlines();
    const strikeMails = () =>
      smtp.received.filter((m) => [...headlines].some((h) => m.subject.startsWith(h)));
    expect(strikeMails()).toHaveLength(1);
    expect(strikeMails()[0]!.text).toContain(shipment.reference);

    clock.advance(HOUR);
    const [second] = await report(
      "Berth Report",
      "Santos terminals idle as dockers walk out over pay",
      "Container handling stopped at the Port of Santos as dockworkers strike.",
    );
    expect(second).not.toBe(first);
    await noteHeadlines();
    await drain(app.workers.notifications);
    expect(strikeMails()).toHaveLength(1);

    // A report in the second fragment's words that also names the first port ties the two.
    clock.advance(HOUR);
    const [survivor] = await report(
      "Seaboard Courier",
      `Santos terminals stay idle as dockers walk out at ${pod} too`,
      `Dockworkers strike over pay at the Port of Santos and the Port of ${pod}; container handling stopped at both.`,
    );
    const active = await app.services.disruptions.list({
      severity: 1,
      category: null,
      port: null,
      carrier: null,
      country: null,
      status: "active",
      since: null,
      page: 1,
      pageSize: 10,
    });
    // The report joined the second fragment, which took the first in: the first's id is an alias now.
    expect(survivor).toBe(second);
    expect(active.items.map((d) => d.id)).toEqual([survivor]);
    expect((await app.services.disruptions.get(first!))?.id).toBe(survivor);
    // The shipment is touched by the survivor now, and that is the news already mailed.
    expect(active.items[0]!.entities.ports).toContain(shipment.exposure.portOfDischarge);
    const touching = await app.services.disruptions.forShipment(
      (await app.services.db.prisma.shipment.findFirstOrThrow({ where: { reference: shipment.reference } }))
        .id,
    );
    expect(touching.map((t) => t.disruption.id)).toEqual([survivor]);
    await noteHeadlines();
    clock.advance(12 * HOUR);
    await drain(app.workers.notifications);
    await drain(app.workers.notifications);
    expect(strikeMails()).toHaveLength(1);
  }, 300_000);
});
