import { createRequire } from "node:module";
import express, { type Request, type Response, Router } from "express";
import type { Principal } from "../../src/http/gate";
import { OUTCOMES } from "../../src/http/outcomes";
import { type BrowserSession, CSRF_HEADER, sameToken } from "../../src/http/sessions";
import { handler } from "../facade";
import {
  DashAcceptInvitationDocument,
  DashChangePasswordDocument,
  DashInvitationPreviewDocument,
} from "../generated/operations";
import { APP_CSS, APP_JS } from "./assets";
import { type DashboardDeps, requestIdOf, type Signed, signedContext } from "./context";
import { csrfField, esc, notice } from "./html";
import { layout } from "./layout";
import { parseMultipartInto } from "./multipart";
import { mountAccountPages } from "./pages/account";
import { mountDndTermsPages } from "./pages/dnd-terms";
import { mountDocumentPages } from "./pages/documents";
import { mountKeyPages } from "./pages/keys";
import { mountMorePages } from "./pages/more";
import { mountNotificationPages } from "./pages/notifications";
import { mountOverview } from "./pages/overview";
import { mountPartnerPages } from "./pages/partners";
import { mountQuoteQueuePages } from "./pages/quote-queue";
import { mountQuotePages } from "./pages/quotes";
import { mountReportPages } from "./pages/reports";
import { mountShipmentPages } from "./pages/shipments";
import { mountSupportQueuePages } from "./pages/support-queue";
import { mountTeamPages } from "./pages/team";
import { mountTicketPages } from "./pages/tickets";
import { mountWebhookPages } from "./pages/webhooks";

export type { DashboardDeps };

const require = createRequire(import.meta.url);
const HTMX_PATH = require.resolve("htmx.org/dist/htmx.min.js");

/** A signed-in page handler. */
export type SignedHandler = (signed: Signed) => Promise<void>;

/**
 * The dashboard at /dashboard: server-rendered pages that read and write only through persisted
 * GraphQL operations, run as the signed-in person (docs/decisions/dashboard.md). Every POST carries
 * the session's CSRF token; pages are never cached and never framed.
 */
export function createDashboardRouter(deps: DashboardDeps): Router {
  const router = Router();
  router.use("/dashboard", (_req, res, next) => {
    res.setHeader(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    );
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "same-origin");
    next();
  });

  router.get("/dashboard/assets/app.css", (_req, res) => {
    res.type("text/css").setHeader("Cache-Control", "public, max-age=300").send(APP_CSS);
  });
  router.get("/dashboard/assets/app.js", (_req, res) => {
    res.type("text/javascript").setHeader("Cache-Control", "public, max-age=300").send(APP_JS);
  });
  router.get("/dashboard/assets/htmx.min.js", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.type("text/javascript").sendFile(HTMX_PATH);
  });

  router.use("/dashboard", express.urlencoded({ extended: false, limit: "200kb", parameterLimit: 200 }));

  // Every state-changing request needs the session's CSRF token (form field or header); a visitor's
  // is the double-submit cookie's, so browsing the dashboard signed out stores nothing.
  const sessionOf = new WeakMap<Request, BrowserSession>();
  router.use("/dashboard", (req, res, next) => {
    deps.sessions.readOrVisit(req, res).then(async (session) => {
      sessionOf.set(req, session);
      if (req.method === "GET" || req.method === "HEAD") return next();
      // The documents upload form: read (within a cap) only for a signed-in person, so the token
      // travels as a form field like everywhere else.
      if (session.principal && req.is("multipart/form-data")) {
        const parsed = await parseMultipartInto(req);
        if (!parsed.ok) {
          const wire = OUTCOMES[parsed.reason === "too_large" ? "body_too_large" : "bad_request"];
          return void res
            .status(wire.v1.status)
            .type("html")
            .send(
              layout({
                title: "Upload refused",
                body: `${notice("error", parsed.reason === "too_large" ? "The file is too large to upload." : "The upload could not be read. Choose the file again.")}<p><a href="/dashboard/documents">Back to documents</a></p>`,
              }),
            );
        }
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      const token = typeof body._csrf === "string" ? body._csrf : req.get(CSRF_HEADER);
      if (sameToken(token, session.csrfToken)) return next();
      const wire = OUTCOMES.csrf_token_invalid;
      res
        .status(wire.v1.status)
        .type("html")
        .send(
          layout({
            title: "Request refused",
            body: `${notice("error", wire.sentence)}<p><a href="/dashboard">Back to the dashboard</a></p>`,
          }),
        );
    }, next);
  });

  const signedIn =
    (fn: SignedHandler) =>
    (req: Request, res: Response): Promise<void> => {
      const session = sessionOf.get(req);
      if (!session?.principal) {
        const next = req.method === "GET" ? req.originalUrl : "/dashboard";
        res.redirect(303, `/dashboard/sign-in?next=${encodeURIComponent(next)}`);
        return Promise.resolve();
      }
      return signedContext(deps, req, res, session as BrowserSession & { principal: Principal }).then(fn);
    };
  const get = (path: string, fn: SignedHandler) => router.get(path, handler(signedIn(fn)));
  const post = (path: string, fn: SignedHandler) => router.post(path, handler(signedIn(fn)));

  // Sign-in, sign-out, invitations: the only pages without a person.
  router.get(
    "/dashboard/sign-in",
    handler(async (req, res) => {
      const session = sessionOf.get(req)!;
      if (session.principal) return void res.redirect(303, safeNext(req.query.next));
      res.setHeader("Cache-Control", "no-store");
      res.type("html").send(signInPage(session.csrfToken, safeNext(req.query.next)));
    }),
  );
  router.post(
    "/dashboard/sign-in",
    handler(async (req, res) => {
      const body = req.body as Record<string, unknown>;
      const email = typeof body.email === "string" ? body.email : "";
      const password = typeof body.password === "string" ? body.password : "";
      const next = safeNext(body.next);
      const outcome = await deps.sessions.signIn(req, res, email, password);
      if (outcome.ok) return void res.redirect(303, next);
      // The failed attempt keeps the visitor's token for the next try.
      const session = sessionOf.get(req)!;
      const wire = outcome.refusal === "throttled" ? OUTCOMES.auth_throttled : OUTCOMES.invalid_key;
      if (outcome.refusal === "throttled") res.setHeader("Retry-After", String(outcome.retryAfterSeconds));
      const message =
        outcome.refusal === "throttled"
          ? `Too many failed sign-ins ${outcome.throttle === "account" ? "to this account" : "from this address"}. Try again in ${minutes(outcome.retryAfterSeconds)}.`
          : "That e-mail address and password do not match an account.";
      res
        .status(wire.v1.status)
        .type("html")
        .send(signInPage(session.csrfToken, next, message, email));
    }),
  );
  router.post(
    "/dashboard/sign-out",
    handler(async (req, res) => {
      await deps.sessions.signOut(req, res);
      res.redirect(303, "/dashboard/sign-in");
    }),
  );
  router.get(
    "/dashboard/invitations/:token",
    handler(async (req, res) => {
      const session = sessionOf.get(req)!;
      const token = String(req.params.token);
      const preview = await deps.run(
        { requestId: requestIdOf(req), principal: null },
        DashInvitationPreviewDocument,
        {
          token,
        },
      );
      const invitation = preview.ok ? preview.data.invitationByToken : null;
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Referrer-Policy", "no-referrer");
      if (!invitation) {
        return void res
          .status(OUTCOMES.not_found.v1.status)
          .type("html")
          .send(
            layout({
              title: "Invitation not valid",
              body: notice("error", "This invitation was used, withdrawn or has expired. Ask for a new one."),
            }),
          );
      }
      res.type("html").send(acceptPage(session.csrfToken, token, invitation));
    }),
  );
  router.post(
    "/dashboard/invitations/:token",
    handler(async (req, res) => {
      const session = sessionOf.get(req)!;
      const token = String(req.params.token);
      const body = req.body as Record<string, unknown>;
      const name = typeof body.name === "string" ? body.name : "";
      const password = typeof body.password === "string" ? body.password : "";
      const caller = { requestId: requestIdOf(req), principal: null };
      const accepted = await deps.run(caller, DashAcceptInvitationDocument, { token, name, password });
      if (!accepted.ok) {
        const preview = await deps.run(caller, DashInvitationPreviewDocument, { token });
        const invitation = preview.ok ? preview.data.invitationByToken : null;
        const status = OUTCOMES[accepted.outcome].v1.status;
        if (!invitation) {
          return void res
            .status(status)
            .type("html")
            .send(layout({ title: "Invitation not valid", body: notice("error", accepted.message) }));
        }
        return void res
          .status(status)
          .type("html")
          .send(acceptPage(session.csrfToken, token, invitation, accepted.message));
      }
      const signed = await deps.sessions.signIn(req, res, accepted.data.acceptInvitation, password);
      res.redirect(303, signed.ok ? "/dashboard" : "/dashboard/sign-in");
    }),
  );

  mountOverview(get);
  mountShipmentPages(get, post);
  mountKeyPages(get, post);
  mountPartnerPages(get, post);
  mountWebhookPages(get, post);
  mountTeamPages(get, post);
  mountMorePages(get);
  mountNotificationPages(get, post);
  mountTicketPages(get, post);
  mountSupportQueuePages(get, post);
  mountQuoteQueuePages(get, post);
  mountQuotePages(get, post);
  mountReportPages(get);
  mountDocumentPages(get, post);
  mountDndTermsPages(get, post);
  mountAccountPages(get, post, deps, DashChangePasswordDocument);

  router.use("/dashboard", (req, res) => {
    res
      .status(OUTCOMES.route_not_found.v1.status)
      .type("html")
      .send(
        layout({
          title: "Page not found",
          body: `${notice("error", `There is no page at ${req.originalUrl.split("?")[0]}.`)}<p><a href="/dashboard">Go to the overview</a></p>`,
        }),
      );
  });
  return router;
}

/** A wait in whole minutes, as a person reads it. */
function minutes(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds / 60));
  return whole === 1 ? "1 minute" : `${whole} minutes`;
}

/** Only a path inside the dashboard: never an open redirect. */
function safeNext(value: unknown): string {
  return typeof value === "string" && /^\/dashboard(\/[\w\-./?=&%]*)?$/.test(value) && !value.startsWith("//")
    ? value
    : "/dashboard";
}

function signInPage(csrf: string, next: string, error?: string, email = ""): string {
  return layout({
    title: "Sign in",
    body: `<div class="auth card">
${error ? notice("error", error) : ""}
<form method="post" action="/dashboard/sign-in">
${csrfField(csrf)}<input type="hidden" name="next" value="${esc(next)}">
<label for="email">E-mail address</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}" size="32">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required size="32">
<p><button type="submit">Sign in</button></p>
</form>
<p class="muted">No account? Ask an owner of your organisation for an invitation, or an operator to run <code>quayside users create … --password</code>.</p>
</div>`,
  });
}

function acceptPage(
  csrf: string,
  token: string,
  invitation: { email: string; organizationName: string; role: string },
  error?: string,
): string {
  return layout({
    title: `Join ${invitation.organizationName}`,
    body: `<div class="auth card">
${error ? notice("error", error) : ""}
<p>You were invited as <strong>${esc(invitation.role)}</strong> with the address <strong>${esc(invitation.email)}</strong>.</p>
<form method="post" action="/dashboard/invitations/${esc(token)}">
${csrfField(csrf)}
<label for="name">Your name</label><input id="name" name="name" autocomplete="name" required size="32">
<label for="password">Choose a password (at least 10 characters)</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required size="32">
<p><button type="submit">Join and sign in</button></p>
</form></div>`,
  });
}
