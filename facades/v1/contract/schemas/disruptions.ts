/**
 * Disruptions (spec v1 sections 2.12 and 4.1 rule 10; field names: docs/decisions/disruptions.md).
 */
import { z } from "zod";
import type { DisruptionCategory, DisruptionMatchType } from "../../../generated/operations";
import { dateTime, nullable, sandboxMode } from "./common";
import { everyValueOf } from "./core-values";

export const DISRUPTION_CATEGORIES = everyValueOf<DisruptionCategory>()([
  "port_disruption",
  "chokepoint",
  "carrier_ops",
  "tariff_trade",
  "regulatory",
  "weather",
  "security_geopolitical",
  "container_market",
  "labor",
]);

export const MATCH_TYPES = everyValueOf<DisruptionMatchType>()([
  "pol",
  "pod",
  "transship",
  "carrier",
  "lane_interest",
  "country",
]);

const DisruptionSource = z
  .object({
    publisher: z.string(),
    headline: z.string().meta({ description: "The report's own headline (a citation, never its text)." }),
    link: nullable(z.string()),
    published_at: dateTime,
  })
  .meta({ id: "DisruptionSource" });

export const Disruption = z
  .object({
    id: z.string().meta({ example: "3f2c8a5e-6d0b-4f57-9a1e-0c8d2b6f4a10" }),
    severity: z.number().int().min(1).max(4).meta({ description: "1 info, 2 moderate, 3 high, 4 critical." }),
    category: z.enum(DISRUPTION_CATEGORIES),
    status: z.enum(["active", "resolved"]),
    headline: z.string().meta({ description: "Written by the service from the event's facts." }),
    summary: z.string().meta({ description: "Written by the service from the event's facts." }),
    entities: z.object({
      ports: z.array(z.string()).meta({ description: "UN/LOCODEs." }),
      carriers: z.array(z.string()).meta({ description: "SCACs." }),
      countries: z.array(z.string()).meta({ description: "ISO 3166 alpha-2 codes." }),
      chokepoints: z.array(z.string()).meta({ description: "Chokepoint ids, e.g. suez_canal." }),
    }),
    sources: z.array(DisruptionSource).max(4).meta({ description: "Up to four; distinct publishers first." }),
    first_seen: dateTime,
    last_updated: dateTime,
    resolved_at: nullable(dateTime),
    affected: z
      .object({
        count: z.number().int().meta({ description: "The caller's active shipments it touches." }),
        references: z.array(z.string()).max(5).meta({ description: "Up to five of their references." }),
      })
      .optional()
      .meta({ description: "On plans that include it; the key is absent (not zero) otherwise." }),
  })
  .meta({ id: "Disruption", description: "Spec v1 section 2.12." });

export const DisruptionPage = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    data: z.array(Disruption),
  })
  .meta({ id: "DisruptionList" });

export const DisruptionAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: Disruption })
  .meta({ id: "DisruptionDetail" });

export const ShipmentDisruptionsAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    shipment_id: z.string(),
    reference: z.string(),
    data: z
      .array(
        Disruption.extend({
          match_types: z.array(z.enum(MATCH_TYPES)).min(1),
        }),
      )
      .max(10),
  })
  .meta({ id: "ShipmentDisruptionList" });
