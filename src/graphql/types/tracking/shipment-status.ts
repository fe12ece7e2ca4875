import { builder } from "../../builder";

export const ShipmentStatusEnum = builder.enumType("ShipmentStatus", {
  description: "The journey's status: PLANNED, IN_TRANSIT, DELIVERED, CANCELLED, or UNKNOWN.",
  values: ["PLANNED", "IN_TRANSIT", "DELIVERED", "CANCELLED", "UNKNOWN"] as const,
});
