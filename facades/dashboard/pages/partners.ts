import { OUTCOMES } from "../../../src/http/outcomes";
import {
  DashCreatePartnerSourceDocument,
  DashPartnerSourcesDocument,
  DashRemovePartnerSourceDocument,
  DashRotatePartnerSourceDocument,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice, time } from "../html";
import type { Mount } from "../mount";

const PAGE = "/dashboard/partners";

/**
 * Partner sources (issue 41): the truckers, rail feeds and warehouses that post events about the
 * organisation's boxes. Create (the signing secret shown once), rotate and remove, each asked first.
 */
export function mountPartnerPages(get: Mount, post: Mount): void {
  get(PAGE, (s) => partnersPage(s));
  post(PAGE, async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const name = typeof body.name === "string" ? body.name.trim() : "";
    if (!name)
      return partnersPage(
        s,
        notice("error", "Give the source a name: it is shown on every event it sends."),
        400,
      );
    const created = await s.run(s.deps.run(s.caller, DashCreatePartnerSourceDocument, { name }));
    if (!created?.createPartnerSource) return partnersPage(s, refusal(s).html, refusal(s).status, name);
    const { source, signingSecret } = created.createPartnerSource;
    await partnersPage(s, secretShown(s, `Source "${source.name}" added.`, source.id, signingSecret));
  });
  for (const action of ["rotate", "remove"] as const) {
    get(`${PAGE}/:id/${action}`, async (s) => {
      const data = await s.run(s.deps.run(s.caller, DashPartnerSourcesDocument));
      const source = data?.partnerSources?.find((p) => p.id === String(s.req.params.id));
      if (!source)
        return partnersPage(
          s,
          notice("error", "No such partner source: it was removed, or it is not your organisation's."),
          OUTCOMES.not_found.v1.status,
        );
      const question =
        action === "rotate" ? `Give "${source.name}" a new signing secret?` : `Remove "${source.name}"?`;
      s.render(
        question,
        PAGE,
        confirmation({
          question,
          consequence:
            action === "rotate"
              ? "The current secret stops working at once: the partner's requests signed with it are refused until they sign with the new one, shown once on the next page."
              : "The source can post no more events, signed or with a key. The events it already sent stay on the shipments' timelines.",
          action: `${PAGE}/${source.id}/${action}`,
          confirmLabel: action === "rotate" ? `Rotate the secret of ${source.name}` : `Remove ${source.name}`,
          cancelHref: PAGE,
          csrf: s.session.csrfToken,
        }),
      );
    });
  }
  post(`${PAGE}/:id/rotate`, async (s) => {
    const done = await s.run(
      s.deps.run(s.caller, DashRotatePartnerSourceDocument, { id: String(s.req.params.id) }),
    );
    if (!done?.rotatePartnerSourceSecret) return partnersPage(s, refusal(s).html, refusal(s).status);
    const { source, signingSecret } = done.rotatePartnerSourceSecret;
    await partnersPage(s, secretShown(s, `"${source.name}" has a new secret.`, source.id, signingSecret));
  });
  post(`${PAGE}/:id/remove`, async (s) => {
    const done = await s.run(
      s.deps.run(s.caller, DashRemovePartnerSourceDocument, { id: String(s.req.params.id) }),
    );
    if (!done?.removePartnerSource) return partnersPage(s, refusal(s).html, refusal(s).status);
    await partnersPage(s, notice("ok", "The source was removed; the events it sent stay on the timelines."));
  });
}

function inboundUrl(s: Signed, id: string): string {
  return `${s.deps.baseUrl}/api/inbound/partners/${encodeURIComponent(id)}`;
}

function secretShown(s: Signed, what: string, id: string, secret: string): string {
  return `${notice("ok", `${what} Copy the signing secret now: it is shown only this once.`)}
<p class="secret" id="new-secret" data-testid="new-secret">${esc(secret)}</p><p><button type="button" class="secondary" data-copy="new-secret">Copy secret</button></p>
<p>The partner posts to <code>${esc(inboundUrl(s, id))}</code>, signing each request: <code>X-Quayside-Timestamp</code> (Unix seconds) and <code>X-Quayside-Signature: v1=</code> the hex HMAC-SHA256 of "timestamp.body" with this secret.</p>`;
}

async function partnersPage(s: Signed, message = "", status?: number, typedName = ""): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashPartnerSourcesDocument));
  const sources = data?.partnerSources ?? [];
  const rows = sources
    .map(
      (p) =>
        `<tr><td>${esc(p.name)}</td><td class="hide-narrow"><code>${esc(inboundUrl(s, p.id))}</code></td><td>${time(p.createdAt)}</td><td>${time(p.lastEventAt, "None yet")}</td><td><div class="row">${dangerLink(`${PAGE}/${p.id}/rotate`, `Rotate the secret of ${p.name}…`)}${dangerLink(`${PAGE}/${p.id}/remove`, `Remove ${p.name}…`)}</div></td></tr>`,
    )
    .join("");
  const table =
    sources.length === 0
      ? emptyState(
          "No partner sources yet. Add one for each trucker, rail feed or warehouse that reports on your boxes.",
        )
      : `<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col" class="hide-narrow">Signed webhook</th><th scope="col">Added</th><th scope="col">Last event</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const form = `<form method="post" action="${PAGE}" class="card" aria-labelledby="new-source-title"><h2 id="new-source-title">Add a partner source</h2>${csrfField(s.session.csrfToken)}
<label for="source-name">Name, shown on its events</label><input id="source-name" name="name" maxlength="80" required size="24" value="${esc(typedName)}">
<p><button type="submit">Add source</button></p></form>`;
  s.render(
    "Partner sources",
    PAGE,
    `<p>Truckers, rail feeds and warehouses post the events after the port (gate-out, arrival at the warehouse, empty return, positions). Each event joins the shipment's timeline marked with its source, and never overrides an event the carrier reported itself.</p>${message}${table}${form}`,
    status ?? (message.includes("notice-error") ? OUTCOMES.bad_request.v1.status : 200),
  );
}
