import type { DisruptionFilter, DisruptionRecord } from "../../../domain/disruptions/disruptions.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { DisruptionRef } from "./disruption";

export const DisruptionPageRef = builder
  .objectRef<{ filter: DisruptionFilter; total: number; items: DisruptionRecord[] }>("DisruptionPage")
  .implement({
    description: "A page of disruptions, most severe first, then the most recently updated.",
    fields: (t) => ({
      total: t.exposeInt("total", { description: "Every disruption the filters match, over all pages." }),
      page: t.int({ resolve: (p) => p.filter.page }),
      pageSize: t.int({ resolve: (p) => p.filter.pageSize }),
      items: t.field({ type: [DisruptionRef], extensions: LIST_SIZE(100), resolve: (p) => p.items }),
    }),
  });
