import { z } from "zod";
import { shipmentName } from "../../../domain/shipments/shipment-id";
import {
  type DocumentWithShipments,
  MAX_SHIPMENTS_PER_DOCUMENT,
  WORKSPACE_DOCUMENT_TYPES,
} from "../../../domain/workspace/documents.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { principalOf } from "../../principal";
import { WRITE_SCOPES } from "../../scopes";
import { ShipmentRef } from "../shipments/shipment";

export const WorkspaceDocumentTypeEnum = builder.enumType("WorkspaceDocumentType", {
  description: "What a workspace document is (DCSA document kinds, plus other).",
  values: Object.fromEntries(WORKSPACE_DOCUMENT_TYPES.map((v) => [v.toUpperCase(), { value: v }])),
});

const DocumentShipmentRef = builder
  .objectRef<{ id: string; number: bigint; reference: string }>("WorkspaceDocumentShipment")
  .implement({
    description: "A shipment a document is attached to.",
    fields: (t) => ({
      shipmentId: t.string({ description: "SHP-<digits>", resolve: (s) => shipmentName(s.number) }),
      reference: t.exposeString("reference"),
    }),
  });

export const WorkspaceDocumentRef = builder.objectRef<DocumentWithShipments>("WorkspaceDocument").implement({
  description:
    "A file the organisation uploaded (bill of lading, invoice ...), attached to its shipments. Download it with the organisation's key at GET /api/workspace/documents/{id}/download.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name", { description: "Its display name (the file name unless one was given)." }),
    documentType: t.field({ type: WorkspaceDocumentTypeEnum, resolve: (d) => d.documentType }),
    fileName: t.exposeString("fileName", {
      description: "Sanitised: no folders, no control characters, the extension of what the bytes are.",
    }),
    contentType: t.exposeString("contentType", {
      description: "Sniffed from the bytes (PDF, PNG, JPEG, TIFF, XLSX or CSV), never taken from the client.",
    }),
    sizeBytes: t.exposeInt("sizeBytes"),
    sha256: t.exposeString("sha256", { description: "Hex SHA-256 of the bytes." }),
    source: t.exposeString("source", { description: "How it arrived: upload." }),
    uploadedBy: t.string({ description: "The uploader's name.", resolve: (d) => d.uploadedBy.name }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    shipments: t.field({
      type: [DocumentShipmentRef],
      description: "The shipments it is attached to (deleted shipments left out).",
      resolve: (d) => d.shipments.map((s) => s.shipment),
    }),
    downloadPath: t.string({
      description: "Where the organisation's key downloads it (as an attachment).",
      resolve: (d) => `/api/workspace/documents/${d.id}/download`,
    }),
  }),
});

const references = z
  .array(z.string().trim().min(1).max(100))
  .max(MAX_SHIPMENTS_PER_DOCUMENT, `at most ${MAX_SHIPMENTS_PER_DOCUMENT} shipments`);

const documentNotFound = () => publicError("NOT_FOUND", "Your organisation has no document with this id.");
const shipmentNotFound = (reference: string) =>
  publicError("NOT_FOUND", `No shipment ${reference} is tracked by your organisation.`, {
    reason: "shipment_not_found",
  });

builder.objectField(ShipmentRef, "documents", (t) =>
  t.field({
    type: [WorkspaceDocumentRef],
    description: "Workspace documents attached to this shipment, newest first.",
    resolve: (s, _a, ctx) =>
      ctx.services.workspaceDocuments.list(principalOf(ctx).organization.id, { shipmentId: s.id }),
  }),
);

builder.queryFields((t) => ({
  workspaceDocuments: t.withAuth({ developerMode: true }).field({
    type: [WorkspaceDocumentRef],
    description: "The organisation's documents, newest first (at most 100).",
    extensions: { listSize: 100 },
    args: {
      limit: t.arg.int({ required: false, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (_r, { limit }, ctx) =>
      ctx.services.workspaceDocuments.list(ctx.principal.organization.id, { limit: limit ?? 100 }),
  }),
  workspaceDocument: t.withAuth({ developerMode: true }).field({
    type: WorkspaceDocumentRef,
    nullable: true,
    description: "One of the organisation's documents by id; null when it has none with that id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) =>
      ctx.services.workspaceDocuments.find(ctx.principal.organization.id, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  uploadDocument: t.withAuth(WRITE_SCOPES).field({
    type: WorkspaceDocumentRef,
    description:
      "Uploads a document (multipart/form-data, GraphQL multipart request specification) and attaches it to one or more of the organisation's shipments. The type is sniffed from the bytes: PDF, PNG, JPEG, TIFF, XLSX or CSV; anything else is refused whatever it is called or declared. QUAYSIDE_DOCUMENTS_MAX_BYTES caps the size (20 MiB by default).",
    args: {
      file: t.arg({ type: "File", required: true }),
      documentType: t.arg({ type: WorkspaceDocumentTypeEnum, required: true }),
      shipments: t.arg.stringList({
        required: true,
        description: "Shipment ids (SHP-<digits>) or references: at least one.",
        validate: references.min(1, "attach the document to at least one shipment"),
      }),
      name: t.arg.string({ required: false, validate: z.string().trim().max(200) }),
    },
    resolve: async (_r, args, ctx) => {
      const file = args.file;
      const maxBytes = ctx.services.workspaceDocuments.maxBytes;
      if (file.size > maxBytes) {
        throw publicError("BAD_USER_INPUT", `The file is larger than ${maxBytes} bytes.`, {
          reason: "file_too_large",
        });
      }
      const outcome = await ctx.services.workspaceDocuments.upload(ctx.principal, {
        bytes: new Uint8Array(await file.arrayBuffer()),
        fileName: file.name,
        documentType: args.documentType,
        name: args.name,
        shipments: args.shipments,
      });
      switch (outcome.kind) {
        case "uploaded":
          return outcome.document;
        case "empty":
          throw publicError("BAD_USER_INPUT", "The file is empty.", { reason: "file_empty" });
        case "too_large":
          throw publicError("BAD_USER_INPUT", `The file is larger than ${outcome.maxBytes} bytes.`, {
            reason: "file_too_large",
          });
        case "type_not_allowed":
          throw publicError(
            "BAD_USER_INPUT",
            `The file's bytes are ${outcome.found ?? "of no recognised type"}: only PDF, PNG, JPEG, TIFF, XLSX and CSV documents are accepted.`,
            { reason: "file_type_not_allowed" },
          );
        case "shipment_not_found":
          throw shipmentNotFound(outcome.reference);
      }
    },
  }),
  attachDocument: t.withAuth(WRITE_SCOPES).field({
    type: WorkspaceDocumentRef,
    description: "Attaches a document to more of the organisation's shipments (already attached: no change).",
    args: {
      id: t.arg.id({ required: true }),
      shipments: t.arg.stringList({ required: true, validate: references.min(1) }),
    },
    resolve: async (_r, { id, shipments }, ctx) => {
      const outcome = await ctx.services.workspaceDocuments.attach(
        ctx.principal.organization.id,
        String(id),
        shipments,
        true,
      );
      if (outcome.kind === "document_not_found") throw documentNotFound();
      if (outcome.kind === "shipment_not_found") throw shipmentNotFound(outcome.reference);
      return outcome.document;
    },
  }),
  detachDocument: t.withAuth(WRITE_SCOPES).field({
    type: WorkspaceDocumentRef,
    description: "Detaches a document from shipments; the document itself stays (deleteDocument removes it).",
    args: {
      id: t.arg.id({ required: true }),
      shipments: t.arg.stringList({ required: true, validate: references.min(1) }),
    },
    resolve: async (_r, { id, shipments }, ctx) => {
      const outcome = await ctx.services.workspaceDocuments.attach(
        ctx.principal.organization.id,
        String(id),
        shipments,
        false,
      );
      if (outcome.kind === "document_not_found") throw documentNotFound();
      if (outcome.kind === "shipment_not_found") throw shipmentNotFound(outcome.reference);
      return outcome.document;
    },
  }),
  deleteDocument: t.withAuth(WRITE_SCOPES).boolean({
    description: "Deletes a document and its stored bytes. Another organisation's id is not found.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const deleted = await ctx.services.workspaceDocuments.delete(ctx.principal.organization.id, String(id));
      if (!deleted) throw documentNotFound();
      return true;
    },
  }),
}));
