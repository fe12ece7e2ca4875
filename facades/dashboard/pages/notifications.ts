import {
  DashNotificationsDocument,
  DashResumeMailDocument,
  DashUpdateNotificationsDocument,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, esc, notice, time } from "../html";
import type { Mount } from "../mount";

const SWITCHES = [
  ["emailEnabled", "Send me e-mail at all"],
  ["statusChanges", "Status changes (departed, arrived, delivered)"],
  ["etaChanges", "Arrival estimate changes"],
  ["vesselDeparture", "Vessel sailing from the port of loading, and transshipments"],
  ["vesselArrival", "Vessel arrival at the port of discharge"],
  ["terminalUpdates", "Terminal: available for pickup, holds placed and released"],
  ["lastFreeDayReminders", "Last free day reminders"],
  ["disruptions", "Disruptions touching my shipments"],
  ["workspaceUpdates", "My support tickets and quote requests"],
  ["dailyDigest", "One daily digest at 8:00 instead of single mails"],
] as const;

/** Notifications: the signed-in person's e-mail preferences and the organisation's mail outbox. */
export function mountNotificationPages(get: Mount, post: Mount): void {
  get("/dashboard/notifications", (s) => notificationsPage(s));
  post("/dashboard/notifications", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const text = (k: string) => (typeof body[k] === "string" ? (body[k] as string).trim() : "");
    const input: Record<string, unknown> = Object.fromEntries(SWITCHES.map(([k]) => [k, body[k] === "on"]));
    const hours = Number(text("etaChangeMinHours"));
    // A number the core checks (and refuses in words) rather than one guessed here.
    input.etaChangeMinHours = text("etaChangeMinHours") === "" || !Number.isInteger(hours) ? -1 : hours;
    input.timeZone = text("timeZone");
    const start = text("quietStart");
    const end = text("quietEnd");
    input.quietHours = start || end ? { start, end } : null;
    const done = await s.run(s.deps.run(s.caller, DashUpdateNotificationsDocument, { input }));
    // Refused: the form comes back with what was typed, not the stored preferences.
    const typed: Typed = {
      switches: Object.fromEntries(SWITCHES.map(([k]) => [k, body[k] === "on"])),
      etaChangeMinHours: text("etaChangeMinHours"),
      timeZone: text("timeZone"),
      quietStart: start,
      quietEnd: end,
    };
    if (!done) return notificationsPage(s, refusal(s).html, refusal(s).status, typed);
    await notificationsPage(s, notice("ok", "Notification preferences saved."));
  });
  post("/dashboard/notifications/resume", async (s) => {
    const done = await s.run(s.deps.run(s.caller, DashResumeMailDocument));
    if (!done) return notificationsPage(s, refusal(s).html, refusal(s).status);
    await notificationsPage(s, notice("ok", "Mail to your address resumes with the next message."));
  });
}

/** What the person typed into the preferences form, shown again when the core refused it. */
interface Typed {
  switches: Record<string, boolean>;
  etaChangeMinHours: string;
  timeZone: string;
  quietStart: string;
  quietEnd: string;
}

async function notificationsPage(s: Signed, message = "", status?: number, typed?: Typed): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashNotificationsDocument));
  if (!data) return s.render("Notifications", "/dashboard/notifications", refusal(s).html, refusal(s).status);
  const p = data.notificationPreferences;
  const stop = p?.deliveryStop;
  // The owner hears it here first: every mail to the address is held back until they act.
  const stopped = stop
    ? `<section class="card" role="alert" aria-labelledby="mail-stopped"><h2 id="mail-stopped">${stop.reason === "complaint" ? "Mail stopped after a spam report" : "Mail to your address bounced"}</h2><p>${esc(stop.explanation)}</p><p class="muted">Since ${time(stop.since)}. ${esc(stop.detail)}</p><form method="post" action="/dashboard/notifications/resume">${csrfField(s.session.csrfToken)}<button type="submit">Resume mail to ${esc(p.email)}</button></form></section>`
    : "";
  const form = p
    ? `<form method="post" action="/dashboard/notifications" class="card" aria-labelledby="prefs"><h2 id="prefs">My e-mail preferences</h2>${csrfField(s.session.csrfToken)}
<p>Mail goes to ${esc(p.email)} about the ${p.followedShipments} shipment${p.followedShipments === 1 ? "" : "s"} you follow. Follow a shipment from its page.</p>
<fieldset><legend>What to send</legend>${SWITCHES.map(
        ([k, label]) =>
          `<div><label for="n-${k}"><input id="n-${k}" type="checkbox" name="${k}"${(typed ? typed.switches[k] : p[k]) ? " checked" : ""}> ${esc(label)}</label></div>`,
      ).join("")}</fieldset>
<label for="n-eta-hours">Mail arrival estimate changes of at least (hours)</label><input id="n-eta-hours" name="etaChangeMinHours" type="number" min="0" step="1" inputmode="numeric" value="${esc(typed ? typed.etaChangeMinHours : String(p.etaChangeMinHours))}" size="5">
<p class="muted">Last free day reminders come ${esc(p.lastFreeDayReminderHours.join(" and "))} hours before it.</p>
<label for="n-zone">Time zone (IANA, e.g. Europe/Amsterdam)</label><input id="n-zone" name="timeZone" value="${esc(typed ? typed.timeZone : p.timeZone)}" size="24" required>
<fieldset><legend>Quiet hours (no mail in between; leave both empty for none)</legend>
<div class="row"><div><label for="n-quiet-start">From (HH:MM)</label><input id="n-quiet-start" name="quietStart" value="${esc(typed ? typed.quietStart : (p.quietHours?.start ?? ""))}" size="6" pattern="[0-2][0-9]:[0-5][0-9]"></div>
<div><label for="n-quiet-end">Until (HH:MM)</label><input id="n-quiet-end" name="quietEnd" value="${esc(typed ? typed.quietEnd : (p.quietHours?.end ?? ""))}" size="6" pattern="[0-2][0-9]:[0-5][0-9]"></div></div></fieldset>
<p><button type="submit">Save preferences</button></p></form>`
    : "";
  const mail = data.mailOutbox ?? [];
  const outbox = `<section class="card" aria-labelledby="outbox"><h2 id="outbox">Mail outbox</h2>${
    mail.length === 0
      ? "<p>No e-mail yet. Follow a shipment and turn on the mail you want: what is sent appears here.</p>"
      : `<div class="table-wrap"><table aria-label="Mail outbox"><thead><tr><th scope="col">Created</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Sent</th></tr></thead><tbody>${mail
          .map(
            (m) =>
              `<tr><td>${time(m.createdAt)}</td><td>${esc(m.to)}</td><td>${esc(m.subject)}</td><td>${esc(m.kind.replace(/_/g, " "))}</td><td>${esc(MAIL_STATUS[m.status] ?? m.status)}${m.status === "pending" ? ` until ${time(m.notBefore)}` : ""}${m.lastError ? `<br><span class="muted">${esc(m.lastError)}</span>` : ""}</td><td>${time(m.sentAt, "Not yet")}${m.transport ? ` <span class="muted">(${esc(m.transport)})</span>` : ""}</td></tr>`,
          )
          .join("")}</tbody></table></div>`
  }</section>`;
  s.render(
    "Notifications",
    "/dashboard/notifications",
    `${message}${stopped}${p ? form : emptyState("Notification preferences could not be read.")}${outbox}`,
    status,
  );
}

const MAIL_STATUS: Record<string, string> = {
  pending: "◌ Waiting",
  sent: "✓ Sent",
  failed: "✕ Failed",
  bounced: "✕ Bounced",
  cancelled: "■ Cancelled",
};
