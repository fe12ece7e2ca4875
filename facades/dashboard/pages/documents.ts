import {
  DashAttachDocumentDocument,
  DashDeleteDocumentDocument,
  DashDetachDocumentDocument,
  DashDocumentsDocument,
  DashUploadDocumentDocument,
  type WorkspaceDocumentType,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { confirmation, csrfField, dangerLink, esc, notice, postButton, time } from "../html";
import type { Mount } from "../mount";
import { filesOf } from "../multipart";

/** The document types as a person names them (the shipment page's upload form uses them too). */
export const DOCUMENT_TYPES: Record<WorkspaceDocumentType, string> = {
  BILL_OF_LADING: "Bill of lading",
  ARRIVAL_NOTICE: "Arrival notice",
  COMMERCIAL_INVOICE: "Commercial invoice",
  PACKING_LIST: "Packing list",
  CUSTOMS_ENTRY: "Customs entry",
  DELIVERY_ORDER: "Delivery order",
  OTHER: "Other",
};
const TYPES = DOCUMENT_TYPES;

const text = (body: unknown, k: string) => {
  const v = (body as Record<string, unknown> | undefined)?.[k];
  return typeof v === "string" ? v.trim() : "";
};
const shipmentList = (value: string) => [
  ...new Set(
    value
      .split(/[\s,;]+/)
      .map((r) => r.trim())
      .filter(Boolean),
  ),
];

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Documents: the organisation's files, upload (multipart, through uploadDocument), attach, download, delete. */
export function mountDocumentPages(get: Mount, post: Mount): void {
  get("/dashboard/documents", (s) => documentsPage(s));
  post("/dashboard/documents", async (s) => {
    const file = filesOf(s.req).file;
    const type = text(s.req.body, "documentType") as WorkspaceDocumentType;
    if (!file || file.size === 0) {
      return documentsPage(s, notice("error", "Choose a file to upload."), 400);
    }
    const uploaded = await s.run(
      s.deps.run(s.caller, DashUploadDocumentDocument, {
        // The File scalar has no TypeScript input type in codegen; the core checks it is a file.
        file: file as never,
        documentType: type in TYPES ? type : ("OTHER" as WorkspaceDocumentType),
        shipments: shipmentList(text(s.req.body, "shipments")),
        name: text(s.req.body, "name") || undefined,
      }),
    );
    if (!uploaded) return documentsPage(s, refusal(s).html, refusal(s).status);
    s.res.redirect(303, "/dashboard/documents?uploaded=1");
  });
  post("/dashboard/documents/:id/attach", async (s) => {
    const id = String(s.req.params.id);
    const shipments = shipmentList(text(s.req.body, "shipments"));
    const detach = text(s.req.body, "action") === "detach";
    const done = detach
      ? await s.run(s.deps.run(s.caller, DashDetachDocumentDocument, { id, shipments }))
      : await s.run(s.deps.run(s.caller, DashAttachDocumentDocument, { id, shipments }));
    if (!done) return documentsPage(s, refusal(s).html, refusal(s).status);
    await documentsPage(s, notice("ok", detach ? "Document detached." : "Document attached."));
  });
  get("/dashboard/documents/:id/delete", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashDocumentsDocument));
    const doc = data?.workspaceDocuments.find((d) => d.id === String(s.req.params.id));
    if (!doc) return documentsPage(s, notice("error", "No such document."), 404);
    const question = `Delete the document "${doc.name}"?`;
    const on = doc.shipments.map((x) => x.reference).join(", ");
    s.render(
      question,
      "/dashboard/documents",
      confirmation({
        question,
        consequence: `The stored file ${doc.fileName} is deleted${on ? ` and taken off ${on}` : ""}; its download link stops working. This cannot be undone.`,
        action: `/dashboard/documents/${doc.id}/delete`,
        confirmLabel: `Delete ${doc.name}`,
        cancelHref: "/dashboard/documents",
        csrf: s.session.csrfToken,
      }),
    );
  });
  post("/dashboard/documents/:id/delete", async (s) => {
    const done = await s.run(
      s.deps.run(s.caller, DashDeleteDocumentDocument, { id: String(s.req.params.id) }),
    );
    if (!done) return documentsPage(s, refusal(s).html, refusal(s).status);
    await documentsPage(s, notice("ok", "Document deleted, with its stored file."));
  });
}

async function documentsPage(s: Signed, message = "", status?: number): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashDocumentsDocument));
  const loadError = data ? "" : refusal(s).html;
  const docs = data?.workspaceDocuments ?? [];
  const csrf = s.session.csrfToken;
  const uploadedNotice = s.req.query.uploaded === "1" && !message ? notice("ok", "Document uploaded.") : "";
  const list =
    docs.length === 0
      ? emptyState(
          "No documents yet. Upload a bill of lading, invoice or other file below and attach it to a shipment.",
        )
      : `<div class="table-wrap"><table aria-label="Documents"><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Shipments</th><th scope="col" class="hide-narrow">Size</th><th scope="col">Uploaded</th><th scope="col">Actions</th></tr></thead><tbody>${docs
          .map(
            (d) =>
              `<tr data-testid="document"><td><a href="${esc(d.downloadPath)}" download>${esc(d.name)}</a><br><span class="muted">${esc(d.fileName)} · ${esc(d.contentType)}</span></td><td>${esc(TYPES[d.documentType] ?? d.documentType)}</td><td>${
                d.shipments.length === 0
                  ? "None"
                  : d.shipments
                      .map(
                        (x) =>
                          `<a href="/dashboard/shipments/${esc(x.shipmentId)}">${esc(x.reference)}</a> ${postButton(`/dashboard/documents/${d.id}/attach`, `Detach ${d.name} from ${x.reference}`, csrf, `<input type="hidden" name="action" value="detach"><input type="hidden" name="shipments" value="${esc(x.shipmentId)}">`)}`,
                      )
                      .join("<br>")
              }
<form method="post" action="/dashboard/documents/${esc(d.id)}/attach" class="row">${csrfField(csrf)}<div><label for="attach-${esc(d.id)}">Attach to (reference or SHP id)</label><input id="attach-${esc(d.id)}" name="shipments" size="14" required></div><div><button type="submit">Attach</button></div></form></td><td class="hide-narrow">${esc(size(d.sizeBytes))}</td><td>${time(d.createdAt)}<br><span class="muted">${esc(d.uploadedBy)}</span></td><td><a href="${esc(d.downloadPath)}" download>Download ${esc(d.name)}</a> ${dangerLink(`/dashboard/documents/${d.id}/delete`, `Delete ${d.name}…`)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  const form = `<form method="post" action="/dashboard/documents" enctype="multipart/form-data" class="card" aria-labelledby="upload">${csrfField(csrf)}<h2 id="upload">Upload a document</h2>
<label for="d-file">File (PDF, PNG, JPEG, TIFF, XLSX or CSV; up to 20 MiB unless the operator set another limit)</label><input id="d-file" name="file" type="file" required accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.xlsx,.csv">
<div class="row">
<div><label for="d-type">Type</label><select id="d-type" name="documentType">${Object.entries(TYPES)
    .map(([k, label]) => `<option value="${k}">${esc(label)}</option>`)
    .join("")}</select></div>
<div><label for="d-name">Name (optional: the file name otherwise)</label><input id="d-name" name="name" maxlength="200" size="24"></div>
<div><label for="d-shipments">Attach to shipments (references or SHP ids, at least one)</label><input id="d-shipments" name="shipments" required size="24"></div>
</div>
<p><button type="submit">Upload</button></p></form>`;
  s.render(
    "Documents",
    "/dashboard/documents",
    `${message}${uploadedNotice}${loadError}${list}${form}`,
    status,
  );
}
