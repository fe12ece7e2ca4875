import type { SharedShipmentView } from "../../../domain/sharing/share-view";
import { builder } from "../../builder";

export const SharedMilestoneRef = builder
  .objectRef<SharedShipmentView["milestones"][number]>("SharedMilestone")
  .implement({
    fields: (t) => ({
      date: t.exposeString("date", { nullable: true }),
      description: t.exposeString("description"),
      place: t.exposeString("place"),
      actual: t.exposeBoolean("actual"),
    }),
  });
