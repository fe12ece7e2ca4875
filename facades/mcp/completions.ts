import { McpCarrierSupportDocument, McpPortCompletionDocument } from "../generated/operations";
import { toolData } from "./data";
import type { ToolContext } from "./tool";
import { getRouteNews } from "./tools/get-route-news.tool";
import { listMyShipments } from "./tools/list-my-shipments.tool";

/**
 * Completions for resource template variables and prompt arguments, from the caller's own data: their
 * organisation's references (never another's), port codes and carriers. A completion is a hint while
 * typing: any refusal (a plan without disruptions, the database away) is an empty list, not an error.
 */
export type Completer = (value: string | undefined) => Promise<string[]>;

const MAX = 20;

async function quietly(work: () => Promise<string[]>): Promise<string[]> {
  try {
    return (await work()).slice(0, MAX);
  } catch {
    return [];
  }
}

interface ShipmentPage {
  shipments: { reference: string; referenceType: string }[];
}

/** References of the organisation's shipments containing what was typed, newest first. */
export const completeReference =
  (context: ToolContext, only?: "container"): Completer =>
  (value) =>
    quietly(async () => {
      const page = await toolData<ShipmentPage>(
        listMyShipments,
        {
          filter: (value ?? "").trim() ? { reference: (value ?? "").trim().slice(0, 100) } : undefined,
          pageSize: 50,
        },
        context,
      );
      return page.shipments.filter((s) => !only || s.referenceType === only).map((s) => s.reference);
    });

/** UN/LOCODEs of the ports best matching a code or a name (e.g. `NLR`, `rotter`). */
export const completePort =
  (context: ToolContext): Completer =>
  (value) =>
    quietly(async () => {
      const search = (value ?? "").trim();
      if (search.length < 2) return [];
      const result = await context.run(McpPortCompletionDocument, { search: search.slice(0, 100) });
      if (!result.ok) return [];
      return (result.data.ports?.items ?? []).map((p) => p.locode);
    });

/** SCACs of the carriers whose name or code matches. */
export const completeCarrier =
  (context: ToolContext): Completer =>
  (value) =>
    quietly(async () => {
      const search = (value ?? "").trim();
      if (!search) return [];
      const result = await context.run(McpCarrierSupportDocument, { search: search.slice(0, 100) });
      if (!result.ok) return [];
      return (result.data.carriers ?? []).map((c) => c.scac);
    });

/** Ids of the active disruptions (those touching the organisation's shipments first) starting with it. */
export const completeDisruption =
  (context: ToolContext): Completer =>
  (value) =>
    quietly(async () => {
      const prefix = (value ?? "").trim().toLowerCase();
      const ids = new Set<string>();
      for (const mine of [true, false]) {
        const news = await toolData<{ items: { id: string }[] }>(getRouteNews, { mine }, context);
        for (const item of news.items) if (item.id.toLowerCase().startsWith(prefix)) ids.add(item.id);
      }
      return [...ids];
    });
