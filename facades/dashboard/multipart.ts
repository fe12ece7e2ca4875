import { Readable } from "node:stream";
import type { Request } from "express";

/** A little above the core's default document cap (20 MiB): the core checks the real limit in words. */
export const MULTIPART_MAX_BYTES = 25 * 1024 * 1024;

export type MultipartOutcome =
  | { ok: true; fields: Record<string, string>; files: Record<string, File> }
  | { ok: false; reason: "too_large" | "malformed" };

/**
 * Reads a browser's multipart/form-data body (the documents upload form) with the platform's own
 * parser, refusing a body above the cap: at once when its declared length is over, else while it is
 * read, by the bytes that arrive. A body sent chunked has no length up front, so only the count can
 * refuse it (refusing any body without a length turned every small chunked upload into a 413).
 * Fields become strings, file parts `File`s, which the persisted upload operation takes as its
 * `File` variable.
 */
export async function readMultipart(req: Request, maxBytes = MULTIPART_MAX_BYTES): Promise<MultipartOutcome> {
  const length = req.get("content-length");
  if (length !== undefined && Number(length) > maxBytes) return { ok: false, reason: "too_large" };
  let seen = 0;
  let over = false;
  const source = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
  const limited = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          over = true;
          controller.error(new Error("body too large"));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  try {
    const form = await new Response(limited, {
      headers: { "content-type": req.get("content-type") ?? "" },
    }).formData();
    const fields: Record<string, string> = {};
    const files: Record<string, File> = {};
    for (const [key, value] of form) {
      if (typeof value === "string") fields[key] = value;
      else files[key] = value;
    }
    return { ok: true, fields, files };
  } catch {
    return { ok: false, reason: over ? "too_large" : "malformed" };
  }
}

const filesByRequest = new WeakMap<Request, Record<string, File>>();

/** Parses a signed-in person's multipart body into `req.body` (fields) and its files (`filesOf`). */
export async function parseMultipartInto(req: Request): Promise<MultipartOutcome> {
  const outcome = await readMultipart(req);
  if (outcome.ok) {
    req.body = outcome.fields;
    filesByRequest.set(req, outcome.files);
  }
  return outcome;
}

/** The file parts of a multipart request parsed by `parseMultipartInto`. */
export function filesOf(req: Request): Record<string, File> {
  return filesByRequest.get(req) ?? {};
}
