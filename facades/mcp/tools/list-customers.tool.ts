import { z } from "zod";
import { McpCustomersDocument } from "../../generated/operations";
import { answer, defineTool, refusalOf } from "../tool";

const ACCESS = ["on", "plan_required", "feature_disabled"] as const;

const output = z.object({
  total: z.number().int().describe("Customers matching the search and filter"),
  customersFeature: z
    .enum(ACCESS)
    .describe("on; plan_required (the plan has no customers); feature_disabled (switched off)"),
  customerLimit: z.number().int().describe("Customers the plan allows"),
  customers: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        createdAt: z.string().describe("ISO 8601 instant in UTC"),
        shipments: z.number().int().describe("Tracked shipments naming this customer"),
        activeShipments: z.number().int().describe("Of those, shipments still moving"),
      }),
    )
    .describe("In name order, at most `limit`"),
});

export const listCustomers = defineTool({
  name: "list_customers",
  title: "List customers",
  description:
    "Lists your organisation's customers (the names shipments are tagged with), with how many shipments each has and how many are still moving. Search by part of the name; filter to customers with or without shipments in transit.",
  input: z.object({
    search: z
      .string()
      .trim()
      .max(200)
      .optional()
      .describe("Part of the customer's name, any case, e.g. acme"),
    filter: z
      .object({
        hasActiveShipments: z
          .boolean()
          .optional()
          .describe("true: customers with a shipment still moving; false: customers with none"),
      })
      .optional()
      .describe("Which customers"),
    limit: z.number().int().min(1).max(100).optional().describe("Customers to answer, 1 to 100 (default 50)"),
  }),
  output,
  async call({ search, filter, limit }, context) {
    const result = await context.run(McpCustomersDocument, {
      search: search || null,
      filter: filter ?? null,
      limit: limit ?? 50,
    });
    if (!result.ok) return refusalOf(result);
    const list = result.data.customers!;
    return answer({
      total: list.total,
      customersFeature: list.access,
      customerLimit: list.limit,
      customers: list.items.map((c) => ({
        id: c.id,
        name: c.name,
        createdAt: c.createdAt,
        shipments: c.shipmentCount,
        activeShipments: c.activeShipmentCount,
      })),
    });
  },
});
