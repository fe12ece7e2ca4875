import { z } from "zod";
import { McpDocumentMetaDocument } from "../../generated/operations";
import { documentShape, renderDocument } from "../render/workspace-document";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const output = z.object({
  ...documentShape,
  sha256: z.string().describe("Hex SHA-256 of the file, to check a copy against"),
  shipments: z
    .array(z.object({ shipmentId: z.string(), reference: z.string() }))
    .describe("The shipments it is attached to"),
});

export const getDocumentMeta = defineTool({
  name: "get_document_meta",
  title: "Document details",
  description:
    "One of your organisation's documents by id (from list_documents): type, file name, sniffed content type, size, SHA-256, uploader, time and the shipments it is attached to. No file contents and no download link: download it from the dashboard or with your key from the API.",
  input: z.object({
    id: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe("A document id from list_documents, e.g. 0b7c5a1e-3f0d-4c8e-9a51-2d6f4b8e7a10"),
  }),
  output,
  async call({ id }, context) {
    const result = await context.run(McpDocumentMetaDocument, { id });
    if (!result.ok) return refusalOf(result);
    const d = result.data.workspaceDocument;
    if (!d) return refusal("not_found", `Your organisation has no document with the id ${id}.`);
    return answer({
      ...renderDocument(d),
      sha256: d.sha256,
      shipments: d.shipments.map((s) => ({ shipmentId: s.shipmentId, reference: s.reference })),
    });
  },
});
