import { builder } from "../../builder";

export const PlanCodeEnum = builder.enumType("PlanCode", {
  description: "A plan; custom is agreed per organisation.",
  values: ["free", "starter", "professional", "business", "custom"] as const,
});
