/** Text into HTML: every value a page shows goes through here. */
export const esc = (value: unknown): string =>
  String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-12-12..." as "12 Dec 2026": only the text is rearranged, nothing is computed. */
const dayText = (text: string) =>
  `${Number(text.slice(8, 10))} ${MONTHS[Number(text.slice(5, 7)) - 1]} ${text.slice(0, 4)}`;

/**
 * A time as the reader's zone shows it (the page script rewrites the text), with UTC in the title so
 * hovering shows it; without script the UTC text stays. One shape everywhere, the port's times
 * included: "17 Dec 2026 09:30 UTC", "17 Dec 2026 17:30 GMT+8" (issue 38).
 */
export function time(value: string | Date | null | undefined, empty = "—"): string {
  if (!value) return esc(empty);
  const iso = typeof value === "string" ? value : value.toISOString();
  const utc = `${dayText(iso)} ${iso.slice(11, 16)} UTC`;
  return `<time datetime="${esc(iso)}" title="${esc(utc)}">${esc(utc)}</time>`;
}

/** A calendar day the core gives as YYYY-MM-DD (a ready date, a last free day): "24 Dec 2026". */
export function day(value: string | null | undefined, empty = "—"): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return esc(value || empty);
  return `<time datetime="${esc(value.slice(0, 10))}">${esc(dayText(value))}</time>`;
}

/**
 * A port-local time at the port's clock with its zone, and the same moment in UTC: "12 Dec 2026 14:00
 * UTC+01:00 (13:00 UTC)" (docs/decisions/times.md). Every part comes from the core (the wall-clock
 * reading, its `utcOffset` and the instant); the page script leaves it as it is. Without a reading or
 * an offset, the instant is shown like any other time.
 */
export function portTime(
  at: {
    local: string | null | undefined;
    utcOffset: string | null | undefined;
    instant: string | Date | null | undefined;
  },
  empty = "—",
): string {
  if (!at.instant) return esc(empty);
  if (!at.local || !at.utcOffset) return time(at.instant, empty);
  const iso = typeof at.instant === "string" ? at.instant : at.instant.toISOString();
  const local = `${dayText(at.local)} ${at.local.slice(11, 16)}`;
  const utcClock = `${iso.slice(11, 16)} UTC`;
  const utc = iso.slice(0, 10) === at.local.slice(0, 10) ? utcClock : `${dayText(iso)} ${utcClock}`;
  const text = at.utcOffset === "+00:00" ? `${local} UTC` : `${local} UTC${at.utcOffset} (${utc})`;
  const datetime = `${at.local.slice(0, 19).replace(" ", "T")}${at.utcOffset}`;
  return `<time datetime="${esc(datetime)}" data-clock="port" title="${esc(`At the port's clock; ${iso.slice(0, 16).replace("T", " ")} UTC`)}">${esc(text)}</time>`;
}

interface ArrivalFacts {
  eta: string | Date | null;
  ata: string | Date | null;
  summary?: {
    arrival: string | Date | null;
    arrivalLocalDateTime: string | null;
    arrivalUtcOffset: string | null;
    ata: string | Date | null;
    ataLocalDateTime: string | null;
    ataUtcOffset: string | null;
  } | null;
}

/** A shipment's arrival (actual once it happened, else estimated) at the port of discharge's clock. */
export function arrivalTime(s: ArrivalFacts, empty = "—"): string {
  const facts = s.summary;
  if (facts?.ata)
    return portTime(
      { local: facts.ataLocalDateTime, utcOffset: facts.ataUtcOffset, instant: facts.ata },
      empty,
    );
  if (facts?.arrival && !s.ata) {
    return portTime(
      { local: facts.arrivalLocalDateTime, utcOffset: facts.arrivalUtcOffset, instant: facts.arrival },
      empty,
    );
  }
  return time(s.ata ?? s.eta, empty);
}

export const STATUS_TEXT: Record<string, string> = {
  PLANNED: "Planned",
  IN_TRANSIT: "In transit",
  DELIVERED: "Delivered",
  CANCELLED: "Cancelled",
  UNKNOWN: "Unknown",
};

/** A status as a word and a shape, never colour alone. */
export function statusBadge(status: string, failed = false): string {
  if (failed) return `<span class="badge badge-failed">✕ Failed</span>`;
  const icon = { DELIVERED: "✓", IN_TRANSIT: "→", PLANNED: "○", CANCELLED: "✕" }[status] ?? "?";
  return `<span class="badge badge-${esc(status.toLowerCase())}"><span aria-hidden="true">${icon}</span> ${esc(STATUS_TEXT[status] ?? status)}</span>`;
}

export function csrfField(token: string): string {
  return `<input type="hidden" name="_csrf" value="${esc(token)}">`;
}

/** A one-button form that posts (with the CSRF token) to `action`. */
export function postButton(action: string, label: string, csrf: string, extra = ""): string {
  return `<form method="post" action="${esc(action)}" class="inline">${csrfField(csrf)}${extra}<button type="submit">${esc(label)}</button></form>`;
}

export function notice(kind: "ok" | "error", text: string): string {
  const role = kind === "error" ? "alert" : "status";
  const icon = kind === "error" ? "⚠" : "✓";
  return `<div class="notice notice-${kind}" role="${role}"><span aria-hidden="true">${icon}</span> ${esc(text)}</div>`;
}

/**
 * A link to the confirmation step of something that cannot be undone, styled as danger: the action
 * itself is only the confirmation page's button, so one click never destroys (works without script).
 */
export function dangerLink(href: string, label: string): string {
  return `<a class="danger-link" href="${esc(href)}">${esc(label)}</a>`;
}

/**
 * The confirmation step of a destructive action: what will happen in words, a danger-styled button
 * that posts (with the CSRF token) to `action`, and a way back that changes nothing.
 */
export function confirmation(input: {
  question: string;
  consequence: string;
  action: string;
  confirmLabel: string;
  cancelHref: string;
  csrf: string;
  extra?: string;
}): string {
  return `<section class="card confirm" aria-labelledby="confirm-title"><h2 id="confirm-title">${esc(input.question)}</h2>
<p>${esc(input.consequence)}</p>
<form method="post" action="${esc(input.action)}" class="row">${csrfField(input.csrf)}${input.extra ?? ""}<button type="submit" class="danger">${esc(input.confirmLabel)}</button> <a href="${esc(input.cancelHref)}">Cancel, keep it as it is</a></form></section>`;
}

/** A port as people read it: its directory name with the code ("Rotterdam (NLRTM)"), else the bare code. */
export function portLabel(locode: string, name: string | null | undefined): string {
  return esc(name ? `${name} (${locode})` : locode);
}
