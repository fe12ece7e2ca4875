/**
 * Issue 43 item 1: every kind of mail is a plain-language page. Each template is rendered and its text
 * and HTML are scanned for what a reader must never see: status enums, raw UN/LOCODEs without a name,
 * a carrier's SCAC alone, match kinds such as lane_interest, raw ids, and "(0 h)".
 */
import { describe, expect, it } from "vitest";
import {
  type ChangeData,
  type ComposedMail,
  changeMail,
  digestMail,
  disruptionMail,
  durationWords,
  lastFreeDayMail,
  MAIL_KINDS,
  type MailLinks,
  type MailShipment,
  momentMail,
  movedWords,
  TOPIC_OF_KIND,
  workspaceMail,
} from "../../../src/domain/notifications/messages";
import { placeOf } from "../../../src/domain/notifications/shipment-context";

const BASE = "https://track.example.com";
const portLocation = {
  key: "l9",
  unLocode: null,
  name: "",
  state: null,
  country: null,
  countryCode: "CN",
  lat: null,
  lng: null,
  timeZone: null,
};
const shipment: MailShipment = {
  name: "SHP-12",
  reference: "MSCU7100008",
  customer: "Acme Imports",
  carrier: "MSC",
  origin: placeOf({
    key: "l1",
    unLocode: "CNXIA",
    name: "Xiamen",
    state: null,
    country: null,
    countryCode: "CN",
    lat: null,
    lng: null,
    timeZone: null,
  }),
  destination: placeOf({
    key: "l2",
    unLocode: "USLAX",
    name: "USLAX",
    state: null,
    country: null,
    countryCode: "US",
    lat: null,
    lng: null,
    timeZone: null,
  }),
  link: `${BASE}/dashboard/shipments/SHP-12`,
};
const links: MailLinks = {
  preferences: `${BASE}/dashboard/notifications`,
  unsubscribeKind: `${BASE}/unsubscribe/00000000-0000-4000-8000-000000000001.etaChanges.sig`,
  unsubscribeAll: `${BASE}/unsubscribe/00000000-0000-4000-8000-000000000001.all.sig`,
  kindWords: "changes of the expected arrival",
};
const ZONE = "America/Los_Angeles";
const change = (over: Partial<ChangeData> = {}): ChangeData => ({
  shipment_id: "SHP-12",
  reference_number: "MSCU7100008",
  carrier: "MSCU",
  status: "IN_TRANSIT",
  previous_status: "PLANNED",
  eta: "2026-12-04T14:02:00Z",
  previous_eta: "2026-12-04T14:00:00Z",
  ata: "2026-12-04T16:00:00Z",
  ...over,
});

/** Every template, every kind: what the scan reads. */
function everyMail(): [string, ComposedMail][] {
  const now = new Date("2026-12-01T08:00:00Z");
  return [
    ["status_changed", changeMail("status_changed", { data: change(), shipment, zone: ZONE, links })],
    [
      "status cancelled",
      changeMail("status_changed", { data: change({ status: "CANCELLED" }), shipment, zone: ZONE, links }),
    ],
    [
      "status unknown",
      changeMail("status_changed", { data: change({ status: "UNKNOWN" }), shipment, zone: ZONE, links }),
    ],
    [
      "delivered",
      changeMail("delivered", { data: change({ status: "DELIVERED" }), shipment, zone: ZONE, links }),
    ],
    ["eta_changed", changeMail("eta_changed", { data: change(), shipment, zone: ZONE, links })],
    ["vessel_arrived", changeMail("vessel_arrived", { data: change(), shipment, zone: ZONE, links })],
    ...(
      ["vessel_departed", "transshipment", "available_for_pickup", "hold_placed", "hold_released"] as const
    ).map((kind): [string, ComposedMail] => [
      kind,
      momentMail(
        {
          kind,
          at: "2026-11-20T03:00:00Z",
          place: shipment.origin,
          vessel: "MSC AURORA",
          container: "MSCU7100008",
          hold: "customs",
          terminal: "Fenix Marine Services",
          eta: "2026-12-04T14:00:00Z",
        },
        shipment,
        ZONE,
        links,
      ),
    ]),
    ...([72, 24] as const).map((hours): [string, ComposedMail] => [
      `lfd_${hours}h`,
      lastFreeDayMail(hours, {
        shipment,
        due: {
          container: "MSCU7100008",
          lastFreeDay: "2026-12-03",
          source: "given by the terminal",
          endsAt: new Date(now.getTime() + hours * 3_600_000),
          now,
        },
        zone: ZONE,
        links,
      }),
    ]),
    [
      "disruption",
      disruptionMail(
        { headline: "Suez Canal closed", summary: "Traffic halted.", severity: 4, category: "canal_closure" },
        {
          touched: [
            { shipment, matchTypes: ["lane_interest"] },
            {
              shipment: { ...shipment, name: "SHP-13", reference: "MSCU7100013" },
              matchTypes: ["pod", "vessel"],
            },
          ],
          link: `${BASE}/dashboard/shipments`,
          links,
        },
      ),
    ],
    [
      "digest",
      digestMail("2026-12-01", {
        changes: [
          { event: "eta.changed", data: change(), at: now, shipment },
          { event: "shipment.updated", data: change(), at: now, shipment },
          { event: "shipment.vessel_arrived", data: change(), at: now, shipment },
          { event: "shipment.arrived", data: change({ status: "DELIVERED" }), at: now, shipment },
        ],
        zone: ZONE,
        link: `${BASE}/dashboard/shipments`,
        links,
      }),
    ],
    [
      "workspace",
      workspaceMail(
        {
          subject: "Your ticket was answered",
          headline: "Support answered your ticket T-4.",
          facts: [["Ticket", "T-4 Where is my box?"]],
          meaning: ["Reply in the dashboard."],
          action: { label: "Open the ticket", url: `${BASE}/dashboard/tickets/4` },
        },
        links,
        "You receive this because you opened this ticket in Quayside.",
      ),
    ],
  ];
}

/** The words a reader sees: links taken out (a signed token is not prose), tags stripped from HTML. */
const prose = (text: string) => text.replace(/https?:\/\/\S+?(?=["\s<]|$)/g, "").replace(/<[^>]+>/g, " ");

const CODES: [string, RegExp][] = [
  ["a status enum", /\b(PLANNED|IN_TRANSIT|DELIVERED|CANCELLED|UNKNOWN)\b/],
  ["a raw UN/LOCODE", /\b(CNXIA|USLAX|[A-Z]{2}[A-Z2-9]{3})\b(?<!\bUSDA|\bSHP)/],
  ["a SCAC alone", /\bMSCU\b/],
  ["a match kind or other snake_case code", /\b[a-z]+_[a-z_]+\b/],
  ["a raw id", /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/],
  ["an hours figure such as (0 h)", /\(\s*[+-]?\d+(\.\d+)?\s*h\)/],
];

describe("every mail in plain words", () => {
  it("renders every kind of mail there is", () => {
    const rendered = new Set(everyMail().map(([kind]) => kind.split(" ")[0]));
    for (const kind of MAIL_KINDS) {
      if (kind === "mail" || kind === "ticket" || kind === "quote") continue; // workspace and one-off mail
      expect(rendered, kind).toContain(kind);
    }
  });

  it("never shows an internal code, in the text or the HTML", () => {
    for (const [kind, mail] of everyMail()) {
      for (const body of [mail.subject, mail.text, mail.html]) {
        for (const [what, pattern] of CODES) {
          expect(prose(body).match(pattern), `${kind}: ${what} in ${prose(body)}`).toBeNull();
        }
      }
    }
  });

  it("names the shipment, its customer and route by port name, links to it, and says how to stop", () => {
    for (const [kind, mail] of everyMail()) {
      if (kind !== "workspace") expect(mail.text, kind).toContain("MSCU7100008");
      expect(mail.html, kind).toMatch(/^<!doctype html>/);
      expect(mail.text, kind).toContain(`Choose what you receive: ${BASE}/dashboard/notifications`);
      expect(mail.html, kind).toContain(`href="${BASE}/dashboard/notifications"`);
      expect(mail.text, kind).toContain(links.unsubscribeAll);
      expect(mail.html, kind).toContain(`href="${links.unsubscribeKind}"`);
      if (kind === "workspace") continue;
      expect(mail.text, kind).toContain("Xiamen, China to Los Angeles, United States");
      expect(mail.text, kind).toMatch(new RegExp(`${BASE}/dashboard/shipments`));
      if (kind !== "disruption" && kind !== "digest") {
        expect(mail.text, kind).toContain("Acme Imports");
        expect(mail.html, kind).toContain(`href="${shipment.link}"`);
      }
    }
  });

  it("tells an ETA change as the new estimate against the previous one, in words", () => {
    const mail = changeMail("eta_changed", { data: change(), shipment, zone: ZONE, links });
    expect(mail.text).toContain("New estimate:");
    expect(mail.text).toContain("Friday, 4 December 2026, 06:02 (Los Angeles time)");
    expect(mail.text).toContain("Previous estimate:");
    expect(mail.text).toContain("2 minutes later than before");
    expect(movedWords("2026-12-04T14:00:00Z", "2026-12-02T10:00:00Z")).toBe(
      "2 days and 4 hours earlier than before",
    );
    expect(durationWords(30_000)).toBe("1 minute");
    // A carrier naming a port by its code alone: the country, never the code.
    const coded = placeOf({ ...portLocation, unLocode: "CNZZZ", name: "CNZZZ" });
    expect(coded).toEqual({ name: "a port", country: "China" });
  });

  it("shows a delivered shipment's arrival, never a past estimate, and arrival names the port", () => {
    const delivered = changeMail("delivered", {
      data: change({ status: "DELIVERED" }),
      shipment,
      zone: ZONE,
      links,
    });
    expect(delivered.text.split("\n--\n")[0]).not.toMatch(/estimate|expected arrival/i);
    const arrived = changeMail("vessel_arrived", { data: change(), shipment, zone: ZONE, links });
    expect(arrived.subject).toBe("Arrived at Los Angeles, United States: MSCU7100008");
  });

  it("lists every shipment a disruption touches in one mail, saying how in words", () => {
    const [, mail] = everyMail().find(([kind]) => kind === "disruption")!;
    expect(mail.subject).toBe("Suez Canal closed: 2 of your shipments");
    expect(mail.text).toContain(
      "MSCU7100008 (SHP-12, Acme Imports), Xiamen, China to Los Angeles, United States: through its sea route.",
    );
    expect(mail.text).toContain("MSCU7100013 (SHP-13, Acme Imports)");
    expect(mail.text).toContain("through its port of discharge and its vessel");
  });

  it("maps every subscribable kind to a preference its unsubscribe link switches off", () => {
    for (const kind of MAIL_KINDS) {
      if (kind === "mail") expect(TOPIC_OF_KIND[kind]).toBeNull();
      else expect(TOPIC_OF_KIND[kind], kind).toMatch(/^[a-z][A-Za-z]+$/);
    }
  });
});
