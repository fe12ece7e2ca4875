/** Text into HTML: every value a page shows goes through here. */
export const esc = (value: unknown): string =>
  String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A time as the reader's zone shows it (the page script rewrites the text), with UTC in the title so
 * hovering shows it; without script the UTC text stays.
 */
export function time(value: string | Date | null | undefined, empty = "—"): string {
  if (!value) return esc(empty);
  const iso = typeof value === "string" ? value : value.toISOString();
  const utc = `${iso.slice(0, 16).replace("T", " ")} UTC`;
  return `<time datetime="${esc(iso)}" title="${esc(utc)}">${esc(utc)}</time>`;
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
