import { builder } from "../../builder";

export const CustomerFilterInput = builder.inputType("CustomerFilter", {
  fields: (t) => ({
    hasActiveShipments: t.boolean({
      required: false,
      description: "true: customers with at least one shipment still moving; false: customers with none.",
    }),
  }),
});
