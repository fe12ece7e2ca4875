import DataLoader from "dataloader";
import type { LatestDocument } from "../../../domain/tracking/document-store";
import type { GraphQLContext } from "../../context";

const loaders = new WeakMap<GraphQLContext, DataLoader<string, LatestDocument | null>>();

/**
 * The newest stored document of each id, read once per request however many fields ask for it: a
 * shipment's summary, terminal record, D&D, final-destination ETA and document each need the same
 * one, and read it apiece before (four statements of the same row on one stored read).
 */
export function latestDocuments(ctx: GraphQLContext): DataLoader<string, LatestDocument | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((ids: readonly string[]) => ctx.services.documents.latestOfMany(ids));
    loaders.set(ctx, loader);
  }
  return loader;
}

/** `latestDocuments` for many ids at once, in order; a failed read fails the whole (as one statement would). */
export async function latestDocumentsOf(
  ctx: GraphQLContext,
  ids: readonly string[],
): Promise<(LatestDocument | null)[]> {
  const found = await latestDocuments(ctx).loadMany(ids);
  return found.map((d) => {
    if (d instanceof Error) throw d;
    return d;
  });
}
