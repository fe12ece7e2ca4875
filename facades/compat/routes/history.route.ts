import type { Router } from "express";
import type { FacadeDeps } from "../../facade";
import { CompatHistoryDocument, CompatHistoryEntryDocument } from "../../generated/operations";
import { compatRoute } from "../call";
import { coreReferenceType, parseHistoryParams } from "../params";
import { renderHistoryDocument, renderHistoryList, successMessage } from "../render/tracking-answer";

/**
 * GET /history: the organisation's logged calls for a number, one entry per call answered with a
 * document. GET /history?id=: the exact stored document that call was answered with, reduced.
 * A number with no logged call, or an id that is not one of the organisation's calls about that
 * number, answers DONT_TRACKED.
 */
export function mountHistoryRoutes(router: Router, deps: FacadeDeps): void {
  router.get(
    "/history",
    compatRoute(deps, async (call) => {
      const { req } = call;
      const parsed = parseHistoryParams(req.query);
      if (!parsed.ok) return call.refuse(parsed.outcome, { detail: parsed.detail });
      const params = parsed.value;
      const variables = { reference: params.number, type: coreReferenceType(params.type) };

      if (params.id !== null) {
        const result = await deps.run(req, CompatHistoryEntryDocument, {
          ...variables,
          id: params.id,
        });
        if (!result.ok) return call.refuse(result.outcome, { detail: result.message });
        const entry = result.data.trackingLookup;
        // The id names the call; a sealine sent with it is not needed and not checked.
        if (!entry?.document) {
          return call.refuse("reference_not_tracked", {
            detail: `There is no logged call ${params.id} for ${params.number} on this account.`,
          });
        }
        const usage = await call.count();
        return call.answer(
          renderHistoryDocument(entry.document, {
            type: params.type,
            number: entry.reference,
            sealine: entry.carrierScac,
            sealineName: entry.carrier?.name ?? null,
            status: entry.document.status,
            updatedAt: entry.document.fetchedAt,
            usage,
          }),
          successMessage(entry.document),
        );
      }

      const result = await deps.run(req, CompatHistoryDocument, {
        ...variables,
        carrier: params.sealine ?? undefined,
      });
      if (!result.ok) {
        const invalidNumber = result.extensions.field === "reference";
        return call.refuse(invalidNumber ? "invalid_reference" : result.outcome, { detail: result.message });
      }
      const history = result.data.trackingHistory;
      if (!history || history.lookups.length === 0) {
        return call.refuse("reference_not_tracked", {
          detail: `${params.number} has no logged tracking call on this account${params.sealine ? ` with ${params.sealine}` : ""}.`,
        });
      }
      const usage = await call.count();
      const latest = history.latest;
      await call.answer(
        renderHistoryList(
          {
            type: params.type,
            number: history.reference,
            sealine: latest?.carrierScac ?? null,
            sealineName: latest?.carrier?.name ?? null,
            status: latest?.document?.status ?? null,
            updatedAt: latest?.document?.fetchedAt ?? null,
            usage,
          },
          history.lookups,
        ),
      );
    }),
  );
}
