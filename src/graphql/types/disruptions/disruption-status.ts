import { builder } from "../../builder";

export const DisruptionStatusEnum = builder.enumType("DisruptionStatus", {
  description:
    "`active` until an item reports the end (reopened, strike ends, lifted) or no news arrives for the category's window (3 days for weather, labour and ports; 21 for chokepoints and security).",
  values: ["active", "resolved"] as const,
});
