import { fileTypeFromBuffer } from "file-type";

/** The file types a workspace document may be, by the content type stored and served for it. */
export const ALLOWED_DOCUMENT_TYPES = {
  "application/pdf": "pdf",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/tiff": "tif",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/csv": "csv",
} as const;

export type AllowedContentType = keyof typeof ALLOWED_DOCUMENT_TYPES;

export type SniffResult =
  | { ok: true; contentType: AllowedContentType; extension: string }
  | { ok: false; found: string | null };

/**
 * What the bytes are, whatever the client declared: binary formats by their signature (file-type reads
 * magic numbers, and for XLSX the zip's entries, so a Word file or a bare zip is not taken for a
 * spreadsheet), CSV by being delimited UTF-8 text. `found` names what was seen when it is not allowed.
 */
export async function sniffDocument(bytes: Uint8Array): Promise<SniffResult> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) {
    const contentType = detected.mime as string;
    if (contentType in ALLOWED_DOCUMENT_TYPES && contentType !== "text/csv") {
      const type = contentType as AllowedContentType;
      return { ok: true, contentType: type, extension: ALLOWED_DOCUMENT_TYPES[type] };
    }
    return { ok: false, found: contentType };
  }
  if (looksLikeCsv(bytes)) return { ok: true, contentType: "text/csv", extension: "csv" };
  return { ok: false, found: null };
}

const SAMPLE_LINES = 50;

/**
 * Delimited text: valid UTF-8 without control characters (tab, CR and LF aside), not markup (a first
 * character `<` would be HTML or XML, which a browser might render), and a first line with at least two
 * fields under one delimiter (comma, semicolon or tab) that the sampled lines balance their quotes
 * under. One-column "CSV" is refused: it cannot be told from any text file.
 */
export function looksLikeCsv(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) return false;
  const trimmed = text.trimStart();
  if (trimmed.startsWith("<") || trimmed.startsWith("{") || trimmed.startsWith("[")) return false;
  const lines = text.split(/\r\n|\n|\r/).slice(0, SAMPLE_LINES);
  const header = lines[0] ?? "";
  const delimiter = [",", ";", "\t"].find((d) => fieldCount(header, d) >= 2);
  if (!delimiter) return false;
  // A quoted field may hold a line break, so quotes are balanced over the sample as a whole, except
  // that the last sampled line may be cut inside a quoted field.
  const quotes = lines.slice(0, -1).join("\n").split('"').length - 1;
  return quotes % 2 === 0 || lines.length === SAMPLE_LINES;
}

function fieldCount(line: string, delimiter: string): number {
  let count = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) count++;
  }
  return count;
}
