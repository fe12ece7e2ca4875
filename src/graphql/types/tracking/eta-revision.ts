import type { etaRevisions } from "../../../domain/tracking/eta-revisions";
import { builder } from "../../builder";

export const EtaRevisionRef = builder
  .objectRef<ReturnType<typeof etaRevisions>[number]>("EtaRevision")
  .implement({
    fields: (t) => ({
      eta: t.field({ type: "DateTime", resolve: (r) => new Date(r.eta) }),
      localDateTime: t.exposeString("localDateTime"),
      recordedAt: t.field({ type: "DateTime", resolve: (r) => new Date(r.recordedAt) }),
      actual: t.exposeBoolean("actual"),
      changeHours: t.exposeInt("changeHours", {
        description:
          "Whole hours this revision moved the arrival against the one before (positive later, negative earlier); 0 for the first.",
      }),
    }),
  });
