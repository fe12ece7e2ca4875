import { builder } from "../../builder";

export const CustomerLimitReachedRef = builder
  .objectRef<{ limit: number }>("CustomerLimitReached")
  .implement({
    description: "The organisation holds every customer its plan allows; the new name was not added.",
    fields: (t) => ({ limit: t.exposeInt("limit") }),
  });
