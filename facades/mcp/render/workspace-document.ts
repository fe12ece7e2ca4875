import { z } from "zod";
import { instant } from "./shipment";

export const DOCUMENT_TYPES = [
  "bill_of_lading",
  "commercial_invoice",
  "packing_list",
  "arrival_notice",
  "delivery_order",
  "customs_entry",
  "other",
] as const;

/** The keys every document answer has (list item and detail alike). */
export const documentShape = {
  id: z.string().describe("The document id, for get_document_meta"),
  name: z.string().describe("Its display name"),
  documentType: z.enum(DOCUMENT_TYPES),
  fileName: z.string().describe("Sanitised file name"),
  contentType: z
    .string()
    .describe(
      "Sniffed from the bytes: application/pdf, image/png, image/jpeg, image/tiff, text/csv or the XLSX type",
    ),
  sizeBytes: z.number().int(),
  source: z.string().describe("How it arrived: upload"),
  uploadedBy: z.string().describe("The teammate who uploaded it"),
  createdAt: instant,
};

type DocumentFields = {
  id: string;
  name: string;
  documentType: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  source: string;
  uploadedBy: string;
  createdAt: unknown;
};

export function renderDocument(d: DocumentFields) {
  return {
    id: d.id,
    name: d.name,
    documentType: d.documentType.toLowerCase() as (typeof DOCUMENT_TYPES)[number],
    fileName: d.fileName,
    contentType: d.contentType,
    sizeBytes: d.sizeBytes,
    source: d.source,
    uploadedBy: d.uploadedBy,
    createdAt: d.createdAt as string,
  };
}
