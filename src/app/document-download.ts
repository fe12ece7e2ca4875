import type { Express, RequestHandler, Response } from "express";
import { type AdmissionGate, guard } from "../http/gate";
import type { OutcomeCode } from "../http/outcomes";
import type { Services } from "./services";

export const DOCUMENT_DOWNLOAD_PATH = "/api/workspace/documents/:id/download";

/**
 * `Content-Disposition: attachment` with the stored (sanitised) name: an ASCII fallback for old clients
 * and the exact name in RFC 5987 `filename*`.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7E]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * A workspace document's bytes, for the organisation that uploaded it only: the same key (or a
 * signed-in dashboard session), developer mode and minute window as every API, and another
 * organisation's id (or a deleted document) is 404.
 * Always an attachment, never rendered: the browser is told not to sniff and, should it open the file
 * anyway, to run nothing in it.
 */
export function mountDocumentDownload(
  app: Express,
  services: Services,
  {
    admission,
    refuse,
    sessionRead = (_req, _res, next) => next(),
  }: {
    admission: AdmissionGate;
    refuse: (res: Response, outcome: OutcomeCode, message?: string) => void;
    /** A dashboard session (the browser's download link) stands in for a key. */
    sessionRead?: RequestHandler;
  },
): void {
  app.get(
    DOCUMENT_DOWNLOAD_PATH,
    (req, _res, next) => {
      req.metricsRoute = DOCUMENT_DOWNLOAD_PATH;
      next();
    },
    sessionRead,
    guard(admission, { allowQueryKey: false }, (res, refusal) => refuse(res, refusal.outcome)),
    async (req, res, next) => {
      try {
        // The guard admits only a caller with a principal; refused as a missing key should that change.
        const principal = req.principal;
        if (!principal) return refuse(res, "missing_key");
        const id = String(req.params.id);
        const opened = await services.workspaceDocuments.open(principal.organization.id, id);
        if (!opened) return refuse(res, "not_found", "Your organisation has no document with this id.");
        const { document, bytes } = opened;
        res.setHeader("Content-Type", document.contentType);
        res.setHeader("Content-Length", String(bytes.length));
        res.setHeader("Content-Disposition", attachmentDisposition(document.fileName));
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
        res.setHeader("Cache-Control", "private, no-store");
        res.setHeader("ETag", `"${document.sha256}"`);
        res.status(200).end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } catch (error) {
        next(error);
      }
    },
  );
}
