import { dateTimeWords, dateWords, isTimeZone } from "../../lib/time-zone";
import type { ShipmentStatus } from "../tracking/model";
import { DIGEST_HOUR } from "./preferences";

/**
 * Every mail is a small page a person reads once (issue 43 item 1): what happened, to which shipment
 * (reference, customer, route by port name), what it means (the new estimate against the previous
 * one, the free time left), one link to act on, and a footer with the way out. Plain text and HTML
 * say the same; no internal code (status enums, UN/LOCODEs, SCACs, match kinds, ids) ever reaches a
 * reader: `test/unit/notifications/mail-words.test.ts` renders every kind and scans for them.
 */

/** What a mail is about; also the first part of its de-duplication key. */
export const MAIL_KINDS = [
  "status_changed",
  "delivered",
  "eta_changed",
  "vessel_departed",
  "transshipment",
  "vessel_arrived",
  "available_for_pickup",
  "hold_placed",
  "hold_released",
  "lfd_72h",
  "lfd_24h",
  "disruption",
  "digest",
  "ticket",
  "quote",
  "mail",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * The preference that decides a kind of mail: the one a per-kind unsubscribe link switches off.
 * Invitations and other one-off mail (`mail`) are not subscriptions: they carry no unsubscribe.
 */
export const TOPIC_OF_KIND = {
  status_changed: "statusChanges",
  delivered: "statusChanges",
  eta_changed: "etaChanges",
  vessel_departed: "vesselDeparture",
  transshipment: "vesselDeparture",
  vessel_arrived: "vesselArrival",
  available_for_pickup: "terminalUpdates",
  hold_placed: "terminalUpdates",
  hold_released: "terminalUpdates",
  lfd_72h: "lastFreeDayReminders",
  lfd_24h: "lastFreeDayReminders",
  disruption: "disruptions",
  digest: "dailyDigest",
  ticket: "workspaceUpdates",
  quote: "workspaceUpdates",
  mail: null,
} as const satisfies Record<MailKind, string | null>;
export type MailTopic = NonNullable<(typeof TOPIC_OF_KIND)[MailKind]>;

/** What a topic is called where a person reads it (the unsubscribe page, the footer). */
export const TOPIC_WORDS: Record<MailTopic, string> = {
  statusChanges: "status changes and deliveries",
  etaChanges: "changes of the expected arrival",
  vesselDeparture: "vessel departures and transshipments",
  vesselArrival: "vessel arrivals",
  terminalUpdates: "pickup availability and holds at the terminal",
  lastFreeDayReminders: "last free day reminders",
  disruptions: "disruptions",
  dailyDigest: "the daily digest",
  workspaceUpdates: "tickets and quotes",
};

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** A port as a reader knows it: the directory's name and country, never the UN/LOCODE alone. */
export interface PlaceName {
  name: string;
  country: string | null;
}

/** The shipment a mail is about, in words (`shipment-context.ts` builds it). */
export interface MailShipment {
  /** `SHP-12` */
  name: string;
  /** The carrier reference the customer knows (container, bill of lading or booking number). */
  reference: string;
  customer: string | null;
  /** The carrier's name from the directory; null when the directory does not know the code. */
  carrier: string | null;
  origin: PlaceName | null;
  destination: PlaceName | null;
  /** The shipment in the dashboard (the deployment's public URL). */
  link: string;
}

/** Where the footer and the `List-Unsubscribe` header point (`unsubscribe.ts` signs them). */
export interface MailLinks {
  preferences: string;
  /** Stops this kind of mail; null for mail that is not a subscription. */
  unsubscribeKind: string | null;
  /** Stops all mail from this deployment. */
  unsubscribeAll: string | null;
  /** The topic `unsubscribeKind` stops, in words. */
  kindWords: string | null;
}

/** The shipment facts of a change as the webhook payload carries them (spec v1 section 6). */
export interface ChangeData {
  shipment_id: string;
  reference_number: string;
  carrier: string | null;
  status: string;
  previous_status: string;
  eta: string | null;
  previous_eta: string | null;
  ata: string | null;
}

// ---- words -------------------------------------------------------------------------------------

const STATUS_WORDS: Record<ShipmentStatus, string> = {
  PLANNED: "booked, not yet under way",
  IN_TRANSIT: "under way",
  DELIVERED: "delivered",
  CANCELLED: "cancelled",
  UNKNOWN: "not reported by the carrier",
};

export function statusWords(status: string): string {
  return STATUS_WORDS[status as ShipmentStatus] ?? "not reported by the carrier";
}

/** "Los Angeles time" for America/Los_Angeles; UTC stays UTC. */
export function zoneWords(zone: string): string {
  if (zone === "UTC" || zone === "Etc/UTC") return "UTC";
  const city = zone.split("/").at(-1)!.replace(/_/g, " ");
  return `${city} time`;
}

/** "Monday, 30 November 2026, 14:00 (Los Angeles time)": a date a person reads without converting. */
export function when(iso: string | Date | null, zone: string): string {
  if (!iso) return "not known yet";
  const instant = typeof iso === "string" ? new Date(iso) : iso;
  // A zone the runtime does not know (preferences refuse one; older rows may hold one) reads as UTC.
  return `${dateTimeWords(instant, zone)} (${zoneWords(isTimeZone(zone) ? zone : "UTC")})`;
}

/** "Monday, 30 November 2026" for a calendar date `YYYY-MM-DD`. */
export function dayWords(date: string): string {
  return dateWords(date);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A length of time in words: "2 minutes", "5 hours", "2 days and 4 hours"; never "(0 h)". */
export function durationWords(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 60) return plural(Math.max(minutes, 1), "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  const days = Math.floor(hours / 24);
  const rest = hours - days * 24;
  return rest === 0 ? plural(days, "day") : `${plural(days, "day")} and ${plural(rest, "hour")}`;
}

/** How an estimate moved: "2 days and 4 hours later than before" / "3 hours earlier than before". */
export function movedWords(previous: string | null, next: string | null): string | null {
  if (!previous || !next) return null;
  const ms = Date.parse(next) - Date.parse(previous);
  if (ms === 0) return "unchanged";
  return `${durationWords(ms)} ${ms > 0 ? "later" : "earlier"} than before`;
}

export function placeWords(place: PlaceName | null): string {
  if (!place) return "a place the carrier has not named";
  return place.country ? `${place.name}, ${place.country}` : place.name;
}

export function routeWords(shipment: MailShipment): string {
  return `${placeWords(shipment.origin)} to ${placeWords(shipment.destination)}`;
}

/** Hours between two instants, signed (later positive), to one decimal. */
export function hoursBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  return Math.round((Date.parse(to) - Date.parse(from)) / 360_000) / 10;
}

// ---- the page ----------------------------------------------------------------------------------

interface Page {
  subject: string;
  /** One sentence: what happened. */
  headline: string;
  /** Label and value rows: the shipment and the facts of the moment. */
  facts: [string, string][];
  /** What it means for the reader, in sentences. */
  meaning: string[];
  /** Extra blocks (a list of shipments, a digest's lines). */
  list?: { title: string; items: string[] };
  action: { label: string; url: string } | null;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function footerText(links: MailLinks, reason: string): string[] {
  const lines = ["", "--", reason];
  lines.push(`Choose what you receive: ${links.preferences}`);
  if (links.unsubscribeKind && links.kindWords)
    lines.push(`Stop mail about ${links.kindWords}: ${links.unsubscribeKind}`);
  if (links.unsubscribeAll) lines.push(`Stop all mail from Quayside: ${links.unsubscribeAll}`);
  return lines;
}

function render(
  page: Page,
  links: MailLinks,
  reason = "You receive this because you follow this shipment in Quayside.",
): ComposedMail {
  const width = Math.max(0, ...page.facts.map(([label]) => label.length)) + 2;
  const text = [
    page.headline,
    "",
    ...page.facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    ...(page.meaning.length > 0 ? ["", ...page.meaning] : []),
    ...(page.list ? ["", page.list.title, ...page.list.items.map((i) => `- ${i}`)] : []),
    ...(page.action ? ["", `${page.action.label}: ${page.action.url}`] : []),
    ...footerText(links, reason),
  ].join("\n");
  const cell = "padding:2px 12px 2px 0;vertical-align:top";
  const html = [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.subject)}</title></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1b2733;line-height:1.45;max-width:600px">',
    `<p style="font-size:17px;font-weight:600">${escapeHtml(page.headline)}</p>`,
    page.facts.length > 0
      ? `<table role="presentation">${page.facts
          .map(
            ([label, value]) =>
              `<tr><th align="left" style="${cell}">${escapeHtml(label)}</th><td style="${cell}">${escapeHtml(value)}</td></tr>`,
          )
          .join("")}</table>`
      : "",
    ...page.meaning.map((m) => `<p>${escapeHtml(m)}</p>`),
    page.list
      ? `<p>${escapeHtml(page.list.title)}</p><ul>${page.list.items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`
      : "",
    page.action
      ? `<p><a href="${escapeHtml(page.action.url)}" style="display:inline-block;background:#0b5cad;color:#fff;padding:8px 14px;border-radius:4px;text-decoration:none">${escapeHtml(page.action.label)}</a></p>`
      : "",
    '<hr><p style="font-size:13px;color:#52606d">',
    escapeHtml(reason),
    ` <a href="${escapeHtml(links.preferences)}">Choose what you receive</a>.`,
    links.unsubscribeKind && links.kindWords
      ? ` <a href="${escapeHtml(links.unsubscribeKind)}">Stop mail about ${escapeHtml(links.kindWords)}</a>.`
      : "",
    links.unsubscribeAll
      ? ` <a href="${escapeHtml(links.unsubscribeAll)}">Stop all mail from Quayside</a>.`
      : "",
    "</p></body></html>",
  ].join("");
  return { subject: page.subject, text, html };
}

function shipmentFacts(shipment: MailShipment): [string, string][] {
  const facts: [string, string][] = [["Shipment", `${shipment.reference} (${shipment.name})`]];
  if (shipment.customer) facts.push(["Customer", shipment.customer]);
  facts.push(["Route", routeWords(shipment)]);
  if (shipment.carrier) facts.push(["Carrier", shipment.carrier]);
  return facts;
}

const openShipment = (shipment: MailShipment) => ({ label: "Open the shipment", url: shipment.link });

// ---- shipment changes --------------------------------------------------------------------------

/** One line of a change for the digest, in the recipient's zone. */
export function changeLine(event: string, data: ChangeData, shipment: MailShipment, zone: string): string {
  const name = `${data.reference_number} (${data.shipment_id})`;
  switch (event) {
    case "eta.changed": {
      const moved = movedWords(data.previous_eta, data.eta);
      return `${name}: expected arrival now ${when(data.eta, zone)}${moved ? `, ${moved}` : ""}`;
    }
    case "shipment.vessel_arrived":
      return `${name}: the vessel arrived at ${placeWords(shipment.destination)} on ${when(data.ata, zone)}`;
    case "shipment.arrived":
      return `${name}: delivered`;
    default:
      return `${name}: now ${statusWords(data.status)} (was ${statusWords(data.previous_status)})`;
  }
}

export function changeMail(
  kind: MailKind,
  {
    data,
    shipment,
    zone,
    links,
  }: { data: ChangeData; shipment: MailShipment; zone: string; links: MailLinks },
): ComposedMail {
  const ref = data.reference_number;
  const facts = shipmentFacts(shipment);
  switch (kind) {
    case "eta_changed": {
      const moved = movedWords(data.previous_eta, data.eta);
      return render(
        {
          subject: `New arrival estimate for ${ref}: ${when(data.eta, zone)}`,
          headline: `The carrier now expects ${ref} at ${placeWords(shipment.destination)} on ${when(data.eta, zone)}.`,
          facts: [
            ...facts,
            ["New estimate", when(data.eta, zone)],
            ["Previous estimate", when(data.previous_eta, zone)],
          ],
          meaning: moved ? [`The arrival moved ${moved}.`] : [],
          action: openShipment(shipment),
        },
        links,
      );
    }
    case "vessel_arrived":
      return render(
        {
          subject: `Arrived at ${placeWords(shipment.destination)}: ${ref}`,
          headline: `The vessel carrying ${ref} arrived at ${placeWords(shipment.destination)} on ${when(data.ata, zone)}.`,
          facts: [...facts, ["Arrived", when(data.ata, zone)]],
          meaning: [
            "The box is discharged next; the terminal then says when it can be picked up, and free time at the port starts counting from discharge.",
          ],
          action: openShipment(shipment),
        },
        links,
      );
    case "delivered":
      return render(
        {
          subject: `Delivered: ${ref}`,
          headline: `${ref} has been delivered.`,
          // The arrival, not an estimate: a delivered box has no ETA worth showing.
          facts: [
            ...facts,
            ...(data.ata ? ([["Arrived at the port", when(data.ata, zone)]] as [string, string][]) : []),
          ],
          meaning: ["Nothing more is due on this shipment; it stays in your list for the record."],
          action: openShipment(shipment),
        },
        links,
      );
    default:
      return render(
        {
          subject: `${ref} is now ${statusWords(data.status)}`,
          headline: `The carrier reports ${ref} as ${statusWords(data.status)} (before: ${statusWords(data.previous_status)}).`,
          facts: [...facts, ["Expected arrival", when(data.eta, zone)]],
          meaning: [],
          action: openShipment(shipment),
        },
        links,
      );
  }
}

// ---- moments read from the document and the terminal -------------------------------------------

export interface Moment {
  kind: "vessel_departed" | "transshipment" | "available_for_pickup" | "hold_placed" | "hold_released";
  /** When it happened (ISO instant). */
  at: string;
  /** Where: the port of loading, the transshipment port, the terminal's port. */
  place: PlaceName | null;
  vessel?: string | null;
  /** The container, for terminal moments. */
  container?: string | null;
  /** A hold's kind in words ("customs"). */
  hold?: string | null;
  terminal?: string | null;
  /** The expected arrival at the port of discharge, for sailing moments. */
  eta?: string | null;
}

export function momentMail(
  moment: Moment,
  shipment: MailShipment,
  zone: string,
  links: MailLinks,
): ComposedMail {
  const ref = shipment.reference;
  const facts = shipmentFacts(shipment);
  const at = when(moment.at, zone);
  const vessel = moment.vessel ? ` on the ${moment.vessel}` : "";
  const box = moment.container ?? ref;
  const terminal = moment.terminal ? ` at ${moment.terminal}` : "";
  switch (moment.kind) {
    case "vessel_departed":
      return render(
        {
          subject: `Sailed from ${placeWords(moment.place)}: ${ref}`,
          headline: `${ref} sailed from ${placeWords(moment.place)}${vessel} on ${at}.`,
          facts: [...facts, ["Sailed", at], ["Expected arrival", when(moment.eta ?? null, zone)]],
          meaning: [`The shipment is at sea towards ${placeWords(shipment.destination)}.`],
          action: openShipment(shipment),
        },
        links,
      );
    case "transshipment":
      return render(
        {
          subject: `Transshipped at ${placeWords(moment.place)}: ${ref}`,
          headline: `${ref} left ${placeWords(moment.place)}${vessel} on ${at}, on the next leg of its voyage.`,
          facts: [
            ...facts,
            ["Left the transshipment port", at],
            ["Expected arrival", when(moment.eta ?? null, zone)],
          ],
          meaning: [
            "A transshipment is where delays often start; the expected arrival above is the carrier's latest.",
          ],
          action: openShipment(shipment),
        },
        links,
      );
    case "available_for_pickup":
      return render(
        {
          subject: `Ready for pickup: ${box}`,
          headline: `Container ${box} is available for pickup${terminal} in ${placeWords(moment.place)}.`,
          facts: [...facts, ["Container", box], ["Reported", at]],
          meaning: ["Book the pickup now: free time at the terminal is running."],
          action: openShipment(shipment),
        },
        links,
      );
    case "hold_placed":
      return render(
        {
          subject: `Hold placed on ${box}: ${moment.hold ?? "hold"}`,
          headline: `A ${moment.hold ?? ""} hold was placed on container ${box}${terminal}.`.replace(
            "A  hold",
            "A hold",
          ),
          facts: [...facts, ["Container", box], ["Reported", at]],
          meaning: ["The box cannot leave the terminal until the hold is released."],
          action: openShipment(shipment),
        },
        links,
      );
    case "hold_released":
      return render(
        {
          subject: `Hold released on ${box}: ${moment.hold ?? "hold"}`,
          headline: `The ${moment.hold ?? ""} hold on container ${box} was released${terminal}.`.replace(
            "The  hold",
            "The hold",
          ),
          facts: [...facts, ["Container", box], ["Reported", at]],
          meaning: [
            "If no other hold remains, the box can be picked up once the terminal makes it available.",
          ],
          action: openShipment(shipment),
        },
        links,
      );
  }
}

// ---- reminders, disruptions, digest ------------------------------------------------------------

export function lastFreeDayMail(
  hours: 72 | 24,
  {
    shipment,
    due,
    zone,
    links,
  }: {
    shipment: MailShipment;
    due: { container: string | null; lastFreeDay: string; source: string; endsAt: Date; now: Date };
    zone: string;
    links: MailLinks;
  },
): ComposedMail {
  const left = due.endsAt.getTime() - due.now.getTime();
  const box = due.container ? `container ${due.container}` : shipment.reference;
  return render(
    {
      subject: `Last free day ${hours === 24 ? "tomorrow" : "in 3 days"}: ${shipment.reference}`,
      headline: `Free time for ${box} ends in ${durationWords(left)}, at the end of ${dayWords(due.lastFreeDay)} at the port.`,
      facts: [
        ...shipmentFacts(shipment),
        ["Last free day", `${dayWords(due.lastFreeDay)} (${due.source})`],
        ["Free time ends", when(due.endsAt, zone)],
      ],
      meaning: [
        "Pick the container up before then: after the last free day the terminal and the line charge demurrage for every day it stays.",
      ],
      action: openShipment(shipment),
    },
    links,
  );
}

export interface DisruptionFacts {
  headline: string;
  summary: string | null;
  severity: number;
  category: string;
}

const SEVERITY_WORDS = ["", "minor", "moderate", "serious", "severe"];

/** How a disruption reaches a shipment, in words (never the match kind). */
export const MATCH_WORDS: Record<string, string> = {
  pol: "its port of loading",
  pod: "its port of discharge",
  transshipment: "a transshipment port",
  lane_interest: "its sea route",
  lane: "its sea route",
  vessel: "its vessel",
  port: "a port on its route",
};

/** One mail per person and disruption, listing every followed shipment it touches. */
export function disruptionMail(
  disruption: DisruptionFacts,
  {
    touched,
    link,
    links,
    followUp = false,
  }: {
    touched: { shipment: MailShipment; matchTypes: string[] }[];
    link: string;
    links: MailLinks;
    followUp?: boolean;
  },
): ComposedMail {
  const count = touched.length;
  // A follow-up names only the shipments reached since the first mail, and says so.
  const more = followUp ? " more" : "";
  const also = followUp ? " now also" : "";
  const items = touched.map(({ shipment, matchTypes }) => {
    const how = [...new Set(matchTypes.map((m) => MATCH_WORDS[m] ?? "its route"))].join(" and ");
    return `${shipment.reference} (${shipment.name}${shipment.customer ? `, ${shipment.customer}` : ""}), ${routeWords(shipment)}: through ${how}. ${shipment.link}`;
  });
  const severity = SEVERITY_WORDS[disruption.severity] ?? "";
  return render(
    {
      subject: `${disruption.headline}: ${count === 1 ? touched[0]!.shipment.reference : `${count}${more} of your shipments`}`,
      headline: `${disruption.headline}. It${also} touches ${count === 1 ? `one${more} shipment` : `${count}${more} shipments`} you follow.`,
      facts: [
        ["What", disruption.headline],
        ...(severity
          ? ([["How serious", `${severity} (${disruption.severity} of 4)`]] as [string, string][])
          : []),
        ["Kind", disruption.category.replace(/_/g, " ")],
      ],
      meaning: disruption.summary && disruption.summary !== disruption.headline ? [disruption.summary] : [],
      list: { title: count === 1 ? "The shipment it touches:" : "The shipments it touches:", items },
      action: { label: count === 1 ? "Open the shipment" : "Open your shipments", url: link },
    },
    links,
    `You receive this because you follow ${count === 1 ? "this shipment" : "these shipments"} in Quayside.`,
  );
}

export function digestMail(
  day: string,
  {
    changes,
    zone,
    link,
    links,
  }: {
    changes: { event: string; data: ChangeData; at: Date; shipment: MailShipment }[];
    zone: string;
    link: string;
    links: MailLinks;
  },
): ComposedMail {
  const count = `${changes.length} change${changes.length === 1 ? "" : "s"}`;
  return render(
    {
      subject: `Your daily summary for ${dayWords(day)}: ${count}`,
      headline: `What changed on the shipments you follow in the 24 hours up to ${String(DIGEST_HOUR).padStart(2, "0")}:00 on ${dayWords(day)} (${zoneWords(zone)}).`,
      facts: [],
      meaning: [],
      list: {
        title: `${count}, oldest first:`,
        items: changes.map(
          (c) =>
            `${changeLine(c.event, c.data, c.shipment, zone)}. ${[c.shipment.customer, routeWords(c.shipment)].filter(Boolean).join(", ")}. ${c.shipment.link}`,
        ),
      },
      action: { label: "Open your shipments", url: link },
    },
    links,
    "You receive this daily summary because you asked for it in Quayside.",
  );
}

// ---- tickets and quotes ------------------------------------------------------------------------

/** A ticket or quote mail: a short page with one link, from the workspace's hooks. */
export function workspaceMail(
  page: {
    subject: string;
    headline: string;
    facts: [string, string][];
    meaning: string[];
    action: { label: string; url: string };
  },
  links: MailLinks,
  reason: string,
): ComposedMail {
  return render({ ...page }, links, reason);
}
