import { z } from "zod";
import { McpDocumentsDocument } from "../../generated/operations";
import { notTracked, referenceArgument } from "../render/shipment";
import { documentShape, renderDocument } from "../render/workspace-document";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const output = z.object({
  shipmentId: z.string().describe("SHP-<digits>"),
  reference: z.string(),
  total: z.number().int(),
  documents: z.array(z.object(documentShape)).describe("Newest first"),
});

export const listDocuments = defineTool({
  name: "list_documents",
  title: "Shipment documents",
  description:
    "The documents your organisation uploaded for one of its shipments (bills of lading, invoices, packing lists, arrival notices, delivery orders, customs entries): name, type, file, size, uploader, time. Metadata only: no file contents and no download link.",
  input: z.object({ reference: referenceArgument }),
  output,
  async call({ reference }, context) {
    const result = await context.run(McpDocumentsDocument, { reference });
    if (!result.ok) return refusalOf(result);
    const s = result.data.shipment;
    if (!s) return refusal("not_found", notTracked(reference));
    return answer({
      shipmentId: s.name,
      reference: s.reference,
      total: s.documents.length,
      documents: s.documents.map(renderDocument),
    });
  },
});
