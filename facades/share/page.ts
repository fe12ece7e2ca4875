import type { SharedShipmentQuery } from "../generated/operations";
import { routeMapSvg } from "./map";

type SharedShipmentData = NonNullable<SharedShipmentQuery["sharedShipment"]>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STATUS_TEXT: Record<string, string> = {
  PLANNED: "Planned",
  IN_TRANSIT: "In transit",
  DELIVERED: "Delivered",
  CANCELLED: "Cancelled",
  UNKNOWN: "Unknown",
};

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2733;background:#f4f6f8}
main{max-width:760px;margin:0 auto;padding:24px 16px}
h1{font-size:22px;margin:0 0 4px}.muted{color:#5b6b7c}
.status{display:inline-block;padding:2px 10px;border-radius:12px;background:#dfe9f5;font-weight:600}
.status.DELIVERED{background:#d6f0dc}.status.CANCELLED{background:#f6d9d9}
section{background:#fff;border-radius:8px;padding:16px;margin:16px 0;box-shadow:0 1px 2px #0001}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:8px}
.facts div span{display:block;font-size:12px;color:#5b6b7c;text-transform:uppercase}
table{width:100%;border-collapse:collapse}td,th{padding:6px 4px;border-bottom:1px solid #e6eaee;text-align:left}
tr.estimated td{color:#5b6b7c;font-style:italic}
.route-map{width:100%;height:auto;border-radius:6px}.sea{fill:#dbe8f3}.land{fill:#eef0e8;stroke:#b8c0b0;stroke-width:.5}
.route{fill:none;stroke:#1b5fa8;stroke-width:2.5}.inland{fill:none;stroke:#8a4b00;stroke-width:3;stroke-dasharray:7 4}.stop circle{fill:#fff;stroke:#1b5fa8;stroke-width:2}
.stop.destination circle{fill:#1b5fa8}.stop text{font-size:11px;fill:#1d2733;paint-order:stroke;stroke:#fff;stroke-width:3px}
footer{font-size:12px;color:#5b6b7c;text-align:center}`;

/** The public page: works without JavaScript and makes no external request. */
export function renderSharePage(s: SharedShipmentData): string {
  const milestones = s.milestones
    .map(
      (m) =>
        `<tr class="${m.actual ? "actual" : "estimated"}"><td>${escapeHtml(m.date ?? "")}</td><td>${escapeHtml(m.description)}${m.actual ? "" : " (estimated)"}</td><td>${escapeHtml(m.place)}</td></tr>`,
    )
    .join("");
  const containers = s.containers
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.number)}</td><td>${escapeHtml(c.description ?? "")}</td><td>${escapeHtml(STATUS_TEXT[c.status] ?? c.status)}</td></tr>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(s.reference)}: ${escapeHtml(STATUS_TEXT[s.status] ?? s.status)}</title>
<style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(s.reference)}</h1>
<p class="muted">${escapeHtml(s.carrierName)} · ${escapeHtml(s.origin)} → ${escapeHtml(s.destination)}</p>
<p><span class="status ${escapeHtml(s.status)}" data-testid="status">${escapeHtml(STATUS_TEXT[s.status] ?? s.status)}</span></p>
<section class="facts">
<div><span>${s.etaActual ? "Arrived" : "Estimated arrival"}</span><strong data-testid="eta">${escapeHtml(s.eta ?? "not known yet")}</strong></div>
<div><span>From</span>${escapeHtml(s.origin)}</div><div><span>To</span>${escapeHtml(s.destination)}</div>
</section>
<section><h2>Route</h2>${routeMapSvg(s.route, s.paths, undefined, s.inlandLegs)}${inlandNote(s.inlandLegs)}</section>
<section><h2>Milestones</h2><table><thead><tr><th>Date (local)</th><th>Event</th><th>Place</th></tr></thead><tbody>${milestones}</tbody></table></section>
<section><h2>Containers</h2><table><thead><tr><th>Container</th><th>Type</th><th>Status</th></tr></thead><tbody>${containers}</tbody></table></section>
<footer>Updated ${escapeHtml(s.updatedAt.replace("T", " ").slice(0, 16))} UTC · Tracked with Quayside</footer>
</main></body></html>`;
}

const INLAND_WORDS: Record<string, string> = { TRUCK: "Truck", RAIL: "Rail", BARGE: "Barge" };

/** Says in words what the dashed inland legs are (the map is an image). */
function inlandNote(legs: SharedShipmentData["inlandLegs"]): string {
  if (legs.length === 0) return "";
  const modes = [...new Set(legs.map((l) => INLAND_WORDS[l.mode] ?? l.mode))].join(", ");
  return `<p class="muted" data-testid="inland-legs">Dashed: ${escapeHtml(modes)} after the port, drawn from the positions the haulier reported (last ${escapeHtml(legs.at(-1)!.to.replace("T", " ").slice(0, 16))} UTC).</p>`;
}

export function renderGonePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Link not available</title><style>${STYLE}</style></head><body><main><h1>This link is not available</h1><p class="muted">It may have been revoked by the person who shared it.</p></main></body></html>`;
}
