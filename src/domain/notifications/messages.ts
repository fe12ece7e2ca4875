import { localDateTime } from "./local-time";
import { DIGEST_HOUR } from "./preferences";

/** What a mail is about; also the first part of its de-duplication key. */
export const MAIL_KINDS = [
  "status_changed",
  "delivered",
  "eta_changed",
  "vessel_arrived",
  "lfd_72h",
  "lfd_24h",
  "disruption",
  "digest",
  "mail",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface ComposedMail {
  subject: string;
  text: string;
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

const when = (iso: string | null, zone: string) =>
  iso ? `${localDateTime(new Date(iso), zone)} (${zone})` : "not known";

const FOOTER =
  "\n\nYou receive this because you follow this shipment in Quayside. Change what you receive in your notification preferences.";

/** Hours between two instants, signed (later positive), to one decimal. */
export function hoursBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  return Math.round((Date.parse(to) - Date.parse(from)) / 360_000) / 10;
}

/** One line of a change, in the recipient's zone (the digest lists them). */
export function changeLine(event: string, data: ChangeData, zone: string): string {
  const name = `${data.reference_number} (${data.shipment_id})`;
  switch (event) {
    case "eta.changed": {
      const moved = hoursBetween(data.previous_eta, data.eta);
      const by = moved === null ? "" : ` (${moved > 0 ? "+" : ""}${moved} h)`;
      return `${name}: ETA ${when(data.previous_eta, zone)} -> ${when(data.eta, zone)}${by}`;
    }
    case "shipment.vessel_arrived":
      return `${name}: vessel arrived at the port of discharge ${when(data.ata, zone)}`;
    case "shipment.arrived":
      return `${name}: delivered (status ${data.status})`;
    default:
      return `${name}: status ${data.previous_status} -> ${data.status}`;
  }
}

export function changeMail(kind: MailKind, event: string, data: ChangeData, zone: string): ComposedMail {
  const ref = data.reference_number;
  const subject =
    kind === "eta_changed"
      ? `ETA changed: ${ref} now ${when(data.eta, zone)}`
      : kind === "vessel_arrived"
        ? `Vessel arrived: ${ref}`
        : kind === "delivered"
          ? `Delivered: ${ref}`
          : `Status changed: ${ref} is ${data.status}`;
  const lines = [
    changeLine(event, data, zone),
    "",
    `Shipment: ${data.shipment_id}`,
    `Reference: ${ref}`,
    `Carrier: ${data.carrier ?? "unknown"}`,
    `Status: ${data.status}`,
    `ETA: ${when(data.eta, zone)}`,
  ];
  return { subject, text: lines.join("\n") + FOOTER };
}

export function lastFreeDayMail(
  hours: number,
  shipment: { name: string; reference: string },
  lastFreeDay: Date,
  zone: string,
): ComposedMail {
  return {
    subject: `Last free day in ${hours} hours: ${shipment.reference}`,
    text:
      [
        `The last free day of ${shipment.reference} (${shipment.name}) ends ${when(lastFreeDay.toISOString(), zone)}.`,
        "Pick the container up before then to avoid demurrage.",
      ].join("\n") + FOOTER,
  };
}

export function disruptionMail(
  shipment: { name: string; reference: string },
  disruption: { id: string; headline: string; severity: number; category: string; matchTypes: string[] },
): ComposedMail {
  return {
    subject: `Disruption: ${disruption.headline} (${shipment.reference})`,
    text:
      [
        `A new disruption touches ${shipment.reference} (${shipment.name}).`,
        "",
        disruption.headline,
        `Severity ${disruption.severity} of 4, ${disruption.category}; touches the shipment by ${disruption.matchTypes.join(", ")}.`,
        `Disruption id: ${disruption.id}`,
      ].join("\n") + FOOTER,
  };
}

export function digestMail(
  day: string,
  changes: { event: string; data: ChangeData; at: Date }[],
  zone: string,
): ComposedMail {
  const lines = changes.map((c) => `- ${localDateTime(c.at, zone)} ${changeLine(c.event, c.data, zone)}`);
  const count = `${changes.length} change${changes.length === 1 ? "" : "s"}`;
  return {
    subject: `Daily digest ${day}: ${count} on the shipments you follow`,
    text:
      [
        `Changes in the 24 hours up to ${day} ${String(DIGEST_HOUR).padStart(2, "0")}:00 (${zone}):`,
        "",
        ...lines,
      ].join("\n") + FOOTER,
  };
}
