import {
  DashQuoteRequestsDocument,
  DashRequestBookingDocument,
  DashRequestQuoteDocument,
  type QuoteRequestStatus,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, day, esc, notice, portLabel, postButton, time } from "../html";
import type { Mount } from "../mount";

const STATUS: Record<QuoteRequestStatus, string> = {
  PENDING: "● Waiting for a quote",
  QUOTED: "◐ Quoted: book it before it expires",
  DECLINED: "✕ Declined",
  EXPIRED: "■ Quote expired",
  BOOKING_REQUESTED: "● Booking asked for",
  BOOKED: "✓ Booked",
};
const FIELDS = ["origin", "destination", "containerType", "quantity", "readyDate", "commodity"] as const;
type Typed = Record<(typeof FIELDS)[number], string>;
const field = (body: unknown, k: string) => {
  const v = (body as Record<string, unknown> | undefined)?.[k];
  return typeof v === "string" ? v.trim() : "";
};

/**
 * A customer's quote requests (the operator answers them on the quote requests queue): the list with
 * each quote, a form to ask for one that keeps what was typed when the core refuses it, and booking
 * a quote. The core decides what may be asked and booked; its refusals show as text.
 */
export function mountQuotePages(get: Mount, post: Mount): void {
  get("/dashboard/quotes", (s) =>
    quotesPage(
      s,
      s.req.query.booked === "1"
        ? notice("ok", "Booking asked for: the operator confirms it with a booking reference.")
        : "",
    ),
  );
  post("/dashboard/quotes", async (s) => {
    const typed = Object.fromEntries(FIELDS.map((k) => [k, field(s.req.body, k)])) as Typed;
    const missing = FIELDS.filter((k) => typed[k] === "");
    if (missing.length > 0)
      return quotesPage(s, notice("error", "Fill in every field of the request."), 400, typed);
    if (!/^\d+$/.test(typed.quantity) || Number(typed.quantity) < 1)
      return quotesPage(
        s,
        notice("error", "The number of containers is a whole number, 1 or more."),
        400,
        typed,
      );
    const asked = await s.run(
      s.deps.run(s.caller, DashRequestQuoteDocument, { ...typed, quantity: Number(typed.quantity) }),
    );
    if (!asked) return quotesPage(s, refusal(s).html, refusal(s).status, typed);
    await quotesPage(
      s,
      notice(
        "ok",
        asked.requestQuote.duplicate
          ? `You asked for the same within the last 30 days: that request is ${asked.requestQuote.request.requestNumber}.`
          : `Request ${asked.requestQuote.request.requestNumber} sent; the quote appears here once the operator answers.`,
      ),
    );
  });
  post("/dashboard/quotes/:number/book", async (s) => {
    const booked = await s.run(
      s.deps.run(s.caller, DashRequestBookingDocument, { requestNumber: String(s.req.params.number) }),
    );
    if (!booked) return quotesPage(s, refusal(s).html, refusal(s).status);
    s.res.redirect(303, "/dashboard/quotes?booked=1");
  });
}

async function quotesPage(
  s: Signed,
  message = "",
  status?: number,
  typed: Typed = {
    origin: "",
    destination: "",
    containerType: "",
    quantity: "1",
    readyDate: "",
    commodity: "",
  },
): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashQuoteRequestsDocument));
  const requests = data?.quoteRequests ?? [];
  const csrf = s.session.csrfToken;
  const list =
    requests.length === 0
      ? emptyState("No quote requests yet. Ask for a freight quote below.")
      : `<div class="table-wrap"><table aria-label="Quote requests"><thead><tr><th scope="col">Request</th><th scope="col">Lane</th><th scope="col">Containers</th><th scope="col">Ready</th><th scope="col">Status</th><th scope="col">Quote</th></tr></thead><tbody>${requests
          .map((r) => {
            const quote = r.quote
              ? `${esc(r.quote.currency)} ${esc(r.quote.total.toFixed(2))}, ${r.quote.transitDays} days with ${esc(r.quote.carrierScac)}<br><span class="muted">valid until ${time(r.quote.validUntil)}</span>`
              : "—";
            const action =
              r.status === "QUOTED"
                ? `<br>${postButton(`/dashboard/quotes/${r.requestNumber}/book`, `Book ${r.requestNumber}`, csrf)}`
                : "";
            const why =
              r.status === "DECLINED" && r.declineReason
                ? `<br><span class="muted">${esc(r.declineReason)}</span>`
                : r.bookingReference
                  ? `<br>Booking ${esc(r.bookingReference)}`
                  : "";
            return `<tr data-testid="quote-request"><td>${esc(r.requestNumber)}<br><span class="muted">asked ${time(r.createdAt)}</span></td><td>${portLabel(r.origin, r.originName)} → ${portLabel(r.destination, r.destinationName)}<br><span class="muted">${esc(r.commodity)}</span></td><td>${r.quantity} × ${esc(r.containerType)}</td><td>${day(r.readyDate)}</td><td>${esc(STATUS[r.status] ?? r.status)}${why}</td><td>${quote}${action}</td></tr>`;
          })
          .join("")}</tbody></table></div>`;
  const input = (k: keyof Typed, label: string, extra = "") =>
    `<div><label for="q-${k}">${esc(label)}</label><input id="q-${k}" name="${k}" required value="${esc(typed[k])}"${extra}></div>`;
  const form = `<form method="post" action="/dashboard/quotes" class="card" aria-labelledby="ask">${csrfField(csrf)}<h2 id="ask">Ask for a freight quote</h2>
<div class="row">${input("origin", "From (UN/LOCODE, e.g. CNSHA)", ' size="8" autocapitalize="characters"')}${input("destination", "To (UN/LOCODE, e.g. NLRTM)", ' size="8" autocapitalize="characters"')}</div>
<div class="row">${input("containerType", "Container type (e.g. 40HC)", ' size="8"')}${input("quantity", "Containers", ' type="number" min="1" inputmode="numeric" size="5"')}${input("readyDate", "Cargo ready on", ' type="date"')}</div>
${input("commodity", "Commodity", ' size="30" maxlength="200"')}
<p><button type="submit">Ask for a quote</button></p></form>`;
  s.render("Quotes", "/dashboard/quotes", `${message}${list}${form}`, status);
}
