import type { Request, Response } from "express";
import type { Principal } from "../../src/http/gate";
import { OUTCOMES } from "../../src/http/outcomes";
import type { BrowserSession, SessionGate } from "../../src/http/sessions";
import type { FacadeDeps, OperationResult } from "../facade";
import { DashViewerDocument } from "../generated/operations";
import { esc, notice } from "./html";
import { type LayoutPerson, layout } from "./layout";

/** What the dashboard gets from the composition root: a facade's deps plus the browser sessions. */
export interface DashboardDeps extends FacadeDeps {
  sessions: SessionGate;
}

/** A signed-in request: the person, their CSRF token and how to run operations as them. */
export interface Signed {
  deps: DashboardDeps;
  req: Request;
  res: Response;
  session: BrowserSession & { principal: Principal };
  person: LayoutPerson;
  /** What the core says this person may do to the organisation (pages offer only that). */
  rights: { manageOrganization: boolean };
  run: <T>(result: Promise<OperationResult<T>>) => Promise<T | null>;
  caller: { requestId: string; principal: Principal };
  /** Renders a page in the shell (status from the outcome table when a refusal is shown). */
  render(title: string, current: string, body: string, status?: number): void;
  /** The message of the last refused operation, if any, and its status from the outcome table. */
  lastError: string | null;
  lastStatus: number;
}

export function requestIdOf(req: Request): string {
  return (req as Request & { requestId?: string }).requestId ?? "dashboard";
}

/** Loads the person behind a signed-in session (through GraphQL, like any page). */
export async function signedContext(
  deps: DashboardDeps,
  req: Request,
  res: Response,
  session: BrowserSession & { principal: Principal },
): Promise<Signed> {
  const caller = { requestId: requestIdOf(req), principal: session.principal };
  const viewer = await deps.run(caller, DashViewerDocument);
  if (!viewer.ok) throw new Error(viewer.message);
  const { user, organization } = viewer.data.viewer;
  const person: LayoutPerson = {
    name: user.name,
    email: user.email,
    role: user.role,
    organizationName: organization.name,
    operator: organization.operator,
  };
  const signed: Signed = {
    deps,
    req,
    res,
    session,
    person,
    rights: { manageOrganization: organization.manageableByViewer },
    caller,
    lastError: null,
    lastStatus: 200,
    async run(result) {
      const r = await result;
      if (r.ok) return r.data;
      signed.lastError = r.message;
      signed.lastStatus = OUTCOMES[r.outcome].v1.status;
      return null;
    },
    render(title, current, body, status) {
      res.setHeader("Cache-Control", "no-store");
      res
        .status(status ?? 200)
        .type("html")
        .send(layout({ title, current, body, person, csrf: session.csrfToken }));
    },
  };
  return signed;
}

/** The refusal of the last operation as a notice, with the table's status for the page. */
export function refusal(signed: Signed): { html: string; status: number } {
  const status = signed.lastStatus;
  return { html: notice("error", signed.lastError ?? "That did not work."), status };
}

export function emptyState(text: string, action?: { href: string; label: string }): string {
  return `<div class="card"><p>${esc(text)}</p>${action ? `<p><a href="${esc(action.href)}">${esc(action.label)}</a></p>` : ""}</div>`;
}
