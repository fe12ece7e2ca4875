import {
  DashAssignCustomerDocument,
  DashCustomersDocument,
  DashDeleteDocumentDocument,
  DashRefreshShipmentDocument,
  DashShipmentDocumentsDocument,
  DashUploadDocumentDocument,
  type WorkspaceDocumentType,
} from "../../generated/operations";
import { refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice, time } from "../html";
import type { Mount } from "../mount";
import { filesOf } from "../multipart";
import { DOCUMENT_TYPES } from "./documents";

/**
 * The shipment page's working parts that change it (issue 38 part D): its customer, its documents,
 * and asking the carrier again now. Each reads and writes through its own persisted operation; the
 * core decides who may and when (the refresh limits are the shipment's `refreshEligibleNow`).
 */

/** The page that shows the outcome: the shipment's own, given by the shipment module at mount. */
type ShipmentPage = (s: Signed, message?: string, status?: number) => Promise<void>;

const field = (body: unknown, k: string) => {
  const v = (body as Record<string, unknown> | undefined)?.[k];
  return typeof v === "string" ? v.trim() : "";
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function mountShipmentTools(get: Mount, post: Mount, shipmentPage: ShipmentPage): void {
  post("/dashboard/shipments/:id/refresh", async (s) => {
    const id = String(s.req.params.id);
    const done = await s.run(s.deps.run(s.caller, DashRefreshShipmentDocument, { id }));
    const answer = done?.refreshShipment;
    if (!answer) return shipmentPage(s, refusal(s).html, refusal(s).status);
    if (answer.__typename === "TrackSuccess") {
      const note = answer.staleReason
        ? "The carrier could not be reached; the page shows its last answer."
        : "Refreshed: the page shows the carrier's answer of just now.";
      return shipmentPage(s, notice(answer.staleReason ? "error" : "ok", note));
    }
    if (answer.__typename === "RefreshNotAllowed") {
      const when = answer.nextRefreshEligibleAt
        ? ` The next refresh is allowed from ${time(answer.nextRefreshEligibleAt)}.`
        : "";
      // The time is markup of its own (the reader's zone), so the notice is written here, escaped.
      return shipmentPage(
        s,
        `<div class="notice notice-error" role="alert"><span aria-hidden="true">⚠</span> Not refreshed. ${esc(answer.explanation)}${when}</div>`,
      );
    }
    if (answer.__typename === "ShipmentNotFound") return shipmentPage(s);
    return shipmentPage(
      s,
      notice(
        "error",
        "The carrier did not answer this time; the page shows its last answer. Try again later.",
      ),
    );
  });

  post("/dashboard/shipments/:id/customer", async (s) => {
    const id = String(s.req.params.id);
    const customer = field(s.req.body, "customer");
    if (customer.length > 200) {
      return shipmentPage(
        s,
        notice("error", "A customer's name is at most 200 characters. Shorten it and assign again."),
        400,
      );
    }
    const done = await s.run(s.deps.run(s.caller, DashAssignCustomerDocument, { id, customer }));
    const answer = done?.updateShipment;
    if (!answer) return shipmentPage(s, refusal(s).html, refusal(s).status);
    switch (answer.__typename) {
      case "ShipmentUpdated": {
        const name = answer.shipment.customers[0];
        return shipmentPage(
          s,
          notice(
            "ok",
            name
              ? `${answer.shipment.name} is now ${name}'s: it is listed on ${name}'s shipments.`
              : `${answer.shipment.name} has no customer now.`,
          ),
        );
      }
      case "ShipmentNotFound":
        return shipmentPage(
          s,
          notice("error", "Only the person who added this shipment can change its customer."),
          404,
        );
      case "CustomerLimitReached":
        return shipmentPage(
          s,
          notice(
            "error",
            `The organisation has all ${answer.limit} customers its plan allows: pick an existing customer, or an owner changes the plan.`,
          ),
          422,
        );
      case "PlanRequired":
      case "FeatureDisabled":
        return shipmentPage(s, notice("error", "Customers are not part of this organisation's plan."), 403);
      default:
        return shipmentPage(s, notice("error", "The customer was not changed. Try again."));
    }
  });

  post("/dashboard/shipments/:id/documents", async (s) => {
    const id = String(s.req.params.id);
    const file = filesOf(s.req).file;
    if (!file || file.size === 0) return shipmentPage(s, notice("error", "Choose a file to upload."), 400);
    const type = field(s.req.body, "documentType");
    const uploaded = await s.run(
      s.deps.run(s.caller, DashUploadDocumentDocument, {
        // The File scalar has no TypeScript input type in codegen; the core checks it is a file.
        file: file as never,
        documentType: (type in DOCUMENT_TYPES ? type : "OTHER") as WorkspaceDocumentType,
        shipments: [id],
        name: field(s.req.body, "name") || undefined,
      }),
    );
    if (!uploaded) return shipmentPage(s, refusal(s).html, refusal(s).status);
    await shipmentPage(s, notice("ok", `${uploaded.uploadDocument.name} is attached to this shipment.`));
  });

  get("/dashboard/shipments/:id/documents/:doc/delete", async (s) => {
    const id = String(s.req.params.id);
    const data = await s.run(s.deps.run(s.caller, DashShipmentDocumentsDocument, { id }));
    const doc = data?.shipment?.documents.find((d) => d.id === String(s.req.params.doc));
    if (!data?.shipment || !doc)
      return shipmentPage(s, notice("error", "No such document on this shipment."), 404);
    const back = `/dashboard/shipments/${data.shipment.name}#documents`;
    const question = `Delete the document "${doc.name}"?`;
    s.render(
      question,
      "/dashboard/shipments",
      confirmation({
        question,
        consequence: `The stored file ${doc.fileName} is deleted and taken off every shipment it is attached to, ${data.shipment.reference} included; its download link stops working. This cannot be undone.`,
        action: `/dashboard/shipments/${data.shipment.name}/documents/${doc.id}/delete`,
        confirmLabel: `Delete ${doc.name}`,
        cancelHref: back,
        csrf: s.session.csrfToken,
      }),
    );
  });
  post("/dashboard/shipments/:id/documents/:doc/delete", async (s) => {
    const done = await s.run(
      s.deps.run(s.caller, DashDeleteDocumentDocument, { id: String(s.req.params.doc) }),
    );
    if (!done) return shipmentPage(s, refusal(s).html, refusal(s).status);
    await shipmentPage(s, notice("ok", "Document deleted, with its stored file."));
  });
}

/**
 * The refresh button, to sit in the "Data from the carrier" sentence (its form stands after the
 * sentence: a form may not be inside a paragraph). The core decides whether a refresh is allowed now;
 * a refused one says from when (the page's first screen has no line to spare for it before).
 */
export function refreshControl(s: Signed, shipment: { name: string }): { button: string; form: string } {
  return {
    button: `<button type="submit" form="refresh-now" class="in-text secondary">Refresh now</button>`,
    form: `<form id="refresh-now" method="post" action="/dashboard/shipments/${esc(shipment.name)}/refresh" class="inline">${csrfField(s.session.csrfToken)}</form>`,
  };
}

/** The customer the shipment is for, and assigning another (or none). */
export async function customerSection(
  s: Signed,
  shipment: { name: string; customers: string[] },
): Promise<string> {
  const data = await s.deps.run(s.caller, DashCustomersDocument, {});
  const list = data.ok ? data.data.customers : null;
  const current = shipment.customers[0] ?? "";
  let body: string;
  if (list && list.access !== "on") {
    body = "<p>Customers are not part of this organisation's plan.</p>";
  } else {
    const names = list?.items.map((c) => c.name) ?? [];
    body = `<p>${current ? `For <strong>${esc(current)}</strong>. <a href="/dashboard/shipments?customer=${encodeURIComponent(current)}">${esc(current)}'s shipments</a>` : "No customer yet."}</p>
<form method="post" action="/dashboard/shipments/${esc(shipment.name)}/customer" class="row">${csrfField(s.session.csrfToken)}<div><label for="assign-customer">Customer (an existing name or a new one; empty for none)</label><input id="assign-customer" name="customer" list="known-customers" maxlength="200" size="24" value="${esc(current)}" autocomplete="off"><datalist id="known-customers">${names.map((n) => `<option value="${esc(n)}"></option>`).join("")}</datalist></div><div><button type="submit">Assign customer</button></div></form>`;
  }
  return `<section class="card" aria-labelledby="customer"><h2 id="customer">Customer</h2>${body}</section>`;
}

/** The documents attached to the shipment: download, delete (after asking), upload one more. */
export async function documentsSection(s: Signed, id: string): Promise<string> {
  const data = await s.deps.run(s.caller, DashShipmentDocumentsDocument, { id });
  const shipment = data.ok ? data.data.shipment : null;
  if (!shipment) {
    return `<section class="card" aria-labelledby="documents"><h2 id="documents">Documents</h2><p>The documents could not be read.</p></section>`;
  }
  const csrf = s.session.csrfToken;
  const list =
    shipment.documents.length === 0
      ? "<p>No document is attached to this shipment yet.</p>"
      : `<div class="table-wrap"><table aria-label="Documents of this shipment"><thead><tr><th scope="col">Document</th><th scope="col">Type</th><th scope="col" class="hide-narrow">Size</th><th scope="col">Uploaded</th><th scope="col">Delete</th></tr></thead><tbody>${shipment.documents
          .map(
            (d) =>
              `<tr data-testid="shipment-document"><td><a href="${esc(d.downloadPath)}" download>${esc(d.name)}</a><br><span class="muted">${esc(d.fileName)}</span></td><td>${esc(DOCUMENT_TYPES[d.documentType] ?? d.documentType)}</td><td class="hide-narrow">${esc(size(d.sizeBytes))}</td><td>${time(d.createdAt)}<br><span class="muted">${esc(d.uploadedBy)}</span></td><td>${dangerLink(`/dashboard/shipments/${shipment.name}/documents/${d.id}/delete`, `Delete ${d.name}…`)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  const form = `<form method="post" action="/dashboard/shipments/${esc(shipment.name)}/documents" enctype="multipart/form-data" aria-labelledby="upload-here">${csrfField(csrf)}<h3 id="upload-here">Attach a document</h3>
<label for="sd-file">File (PDF, PNG, JPEG, TIFF, XLSX or CSV)</label><input id="sd-file" name="file" type="file" required accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.xlsx,.csv">
<div class="row"><div><label for="sd-type">Type</label><select id="sd-type" name="documentType">${Object.entries(
    DOCUMENT_TYPES,
  )
    .map(([k, label]) => `<option value="${k}">${esc(label)}</option>`)
    .join("")}</select></div>
<div><label for="sd-name">Name (optional: the file name otherwise)</label><input id="sd-name" name="name" maxlength="200" size="24"></div>
<div><button type="submit">Upload and attach</button></div></div></form>`;
  return `<section class="card" aria-labelledby="documents"><h2 id="documents">Documents</h2>${list}${form}<p class="muted"><a href="/dashboard/documents">All the organisation's documents</a></p></section>`;
}
