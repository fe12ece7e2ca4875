import express, { type Request, type Response, Router } from "express";
import { type FacadeDeps, handler } from "../facade";
import { UnsubscribeDocument, UnsubscribeLinkDocument } from "../generated/operations";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE =
  "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2733;background:#f4f6f8}" +
  "main{max-width:560px;margin:40px auto;padding:24px;background:#fff;border-radius:8px;box-shadow:0 1px 2px #0001}" +
  "button{font:inherit;background:#0b5cad;color:#fff;border:0;border-radius:4px;padding:8px 16px;cursor:pointer}" +
  ".muted{color:#5b6b7c}";

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const GONE = page(
  "This link does not work",
  "<p>The unsubscribe link is not complete or not genuine. Copy the whole link from the mail, or sign in to Quayside and change your notification preferences.</p>",
);

function headers(res: Response) {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Robots-Tag", "noindex");
  res.setHeader(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  res.setHeader("X-Frame-Options", "DENY");
}

/**
 * `/unsubscribe/{token}`: the link in every mail's footer and `List-Unsubscribe` header (RFC 8058). No
 * sign-in: the signed token is the capability, and it can only switch mail off. GET only shows what
 * the link does and a button (mail scanners open links; opening must change nothing); POST does it,
 * whether from that button or a mailbox provider's one-click `List-Unsubscribe=One-Click`.
 */
export function createUnsubscribeRouter(deps: FacadeDeps): Router {
  const router = Router();
  const token = (req: Request) => String(req.params.token);
  router.get(
    "/unsubscribe/:token",
    handler(async (req, res) => {
      headers(res);
      const result = await deps.run(req, UnsubscribeLinkDocument, { token: token(req) });
      const link = result.ok ? result.data.unsubscribeLink : null;
      if (!link) return void res.status(404).type("html").send(GONE);
      res
        .type("html")
        .send(
          page(
            "Stop these e-mails?",
            `<p>Stop ${escapeHtml(link.description)} to ${escapeHtml(link.emailMasked)}.</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form><p class="muted">You can switch it on again in your notification preferences.</p>`,
          ),
        );
    }),
  );
  router.post(
    "/unsubscribe/:token",
    express.urlencoded({ extended: false, limit: "1kb" }),
    handler(async (req, res) => {
      headers(res);
      const result = await deps.run(req, UnsubscribeDocument, { token: token(req) });
      const done = result.ok ? result.data.unsubscribe : null;
      if (!done) return void res.status(404).type("html").send(GONE);
      res
        .type("html")
        .send(
          page(
            "You are unsubscribed",
            `<p>${escapeHtml(done.emailMasked)} no longer receives ${escapeHtml(done.description)}.</p><p class="muted">You can switch it on again in your notification preferences.</p>`,
          ),
        );
    }),
  );
  return router;
}
