import type { StoppageRaise } from "../../../domain/congestion/reported-stoppages";
import type { DisruptionCategory } from "../../../domain/disruptions/categories";
import { builder } from "../../builder";
import { DisruptionCategoryEnum } from "../disruptions/disruption-category";

export const CongestionStoppageRef = builder.objectRef<StoppageRaise>("CongestionStoppage").implement({
  description:
    "A published disruption (a closure or strike the news reports at the port) that raised a congestion reading above its queue's own score, as it was when the reading was computed. Its id is the Disruption's.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "The disruption's id (Query.disruption)." }),
    headline: t.exposeString("headline", { description: "The disruption's headline." }),
    category: t.field({
      type: DisruptionCategoryEnum,
      resolve: (s) => s.category as DisruptionCategory,
    }),
    severity: t.exposeInt("severity", {
      description: "1 info to 4 critical: 4 holds the port at critical (90) at least, 3 at high (75).",
    }),
  }),
});
