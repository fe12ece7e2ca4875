import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AppConfig } from "../config";
import type { FeedSourceConfig } from "../domain/disruptions/feed-source";

export const DEFAULT_FEEDS_FILE = new URL("../../config/disruption-feeds.json", import.meta.url);

/** The publishers whose voices the simulator's feed server writes in (simulator/feeds). */
export const SIMULATOR_PUBLISHERS: readonly {
  slug: string;
  publisher: string;
  kind: FeedSourceConfig["kind"];
}[] = [
  { slug: "harbour-wire", publisher: "Harbour Wire", kind: "news" },
  { slug: "box-trade-daily", publisher: "Box Trade Daily", kind: "news" },
  { slug: "quay-ledger", publisher: "Quay Ledger", kind: "news" },
  { slug: "storm-watch", publisher: "Storm Watch Agency", kind: "gdacs" },
  // An aggregator: each item names its own publisher (`<source>`), the running stories of the world.
  { slug: "shipping-digest", publisher: "Shipping News Digest", kind: "news" },
];

const sourceSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  publisher: z.string().min(1),
  url: z.string().url(),
  kind: z.enum(["news", "gdacs", "nhc", "advisory"]).default("news"),
  authoritative: z.boolean().default(false),
});
const fileSchema = z.object({ sources: z.array(sourceSchema) });

function readFeedsFile(path: string | URL): FeedSourceConfig[] {
  const parsed = fileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success)
    throw new Error(`The disruption feeds file ${String(path)} is not valid: ${parsed.error.message}`);
  return parsed.data.sources;
}

/**
 * The sources ingestion reads: `off` none; `simulator` (and `auto` while the simulator is embedded,
 * as under `npm start`) the simulator's feed server; `real` (and `auto` without the simulator) the
 * real feeds of config/disruption-feeds.json; anything else is the path of such a file.
 */
export function disruptionFeedSources(
  config: AppConfig,
  simulatorUrl: string | undefined,
): FeedSourceConfig[] {
  const choice = config.disruptionFeeds.sources;
  if (choice === "off") return [];
  const simulated = choice === "simulator" || (choice === "auto" && simulatorUrl !== undefined);
  if (simulated) {
    if (!simulatorUrl) return [];
    return SIMULATOR_PUBLISHERS.map((p) => ({
      id: `simulator-${p.slug}`,
      publisher: p.publisher,
      url: `${simulatorUrl}/feeds/${p.slug}.xml`,
      kind: p.kind,
      authoritative: p.kind !== "news",
    }));
  }
  if (choice === "auto" || choice === "real") return readFeedsFile(DEFAULT_FEEDS_FILE);
  return readFeedsFile(choice);
}
