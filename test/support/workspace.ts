/**
 * Helpers for the account workspace tests: shipments stored for an organisation (as tracking would
 * store them, without asking a carrier), multipart uploads through GraphQL, and real files of each
 * allowed type made byte by byte.
 */
import { crc32, deflateSync } from "node:zlib";
import type { TestApp } from "./app";

/** Stores a shipment of the organisation (what a successful track leaves) and answers its SHP id. */
export async function storedShipment(
  app: TestApp,
  org: { organizationId: string; userId: string },
  reference: string,
): Promise<string> {
  const row = await app.services.db.prisma.shipment.create({
    data: {
      organizationId: org.organizationId,
      addedByUserId: org.userId,
      referenceType: "container",
      reference,
      referenceKey: reference.replace(/[\s-]+/g, "").toUpperCase(),
      carrierScac: "MSCU",
      status: "IN_TRANSIT",
    },
  });
  return `SHP-${row.number}`;
}

export const UPLOAD = `mutation Upload($file: File!, $type: WorkspaceDocumentType!, $shipments: [String!]!, $name: String) {
  uploadDocument(file: $file, documentType: $type, shipments: $shipments, name: $name) {
    id name documentType fileName contentType sizeBytes sha256 source uploadedBy createdAt downloadPath
    shipments { shipmentId reference }
  }
}`;

/** A GraphQL multipart request (operations, map, file) as a browser or curl -F sends it. */
export async function uploadDocument(
  app: { url: string },
  key: string,
  file: { bytes: Uint8Array; name: string; type: string },
  variables: { type: string; shipments: string[]; name?: string },
): Promise<{ status: number; body: { data?: any; errors?: { message: string; extensions?: any }[] } }> {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query: UPLOAD, variables: { ...variables, file: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.file"] }));
  form.append("0", new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = { errors: [{ message: text }] };
  }
  return { status: res.status, body };
}

export function pdfBytes(text = "Bill of lading MSCU1234566"): Uint8Array {
  const content = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return new TextEncoder().encode(content);
}

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), Buffer.from(data)]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A real 1×1 PNG. */
export function pngBytes(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const pixels = deflateSync(Buffer.from([0, 255, 0, 0]));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", pixels),
      chunk("IEND", new Uint8Array()),
    ]),
  );
}

/** A zip of stored (uncompressed) entries, enough for an XLSX's signature. */
export function zipBytes(entries: Record<string, string>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text, "utf8");
    const fileName = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** The smallest spreadsheet shape: content types naming a workbook, and a workbook part. */
export function xlsxBytes(): Uint8Array {
  return zipBytes({
    "[Content_Types].xml":
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook/>',
  });
}
