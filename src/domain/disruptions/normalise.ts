/**
 * Normalisation of one feed item: the first step of the pipeline, pure. Text is NFKD-folded (so
 * "Hamburg Süd" and "Hamburg Sud" read alike and ligatures split), whitespace collapsed, and the link
 * made canonical so the same article reached through a newsletter or a social post is one item.
 */

/** One item as a feed delivered it, before the pipeline. `summary` is read, never stored. */
export interface FeedItem {
  /** The configured source the item came from. */
  sourceId: string;
  /** Who published it ("gCaptain", "GDACS"): sources of an event are counted by publisher. */
  publisher: string;
  guid: string | null;
  link: string | null;
  title: string;
  /** The feed's description or first paragraph: classification input only, never served. */
  summary: string;
  publishedAt: Date;
  /** A category the source implies (GDACS and NHC are weather, UKMTO security). */
  categoryPrior?: "weather" | "security_geopolitical" | null;
  /** GDACS alert level, when the source has one. */
  alertLevel?: "green" | "orange" | "red" | null;
  /** Sources whose word carries more weight when an event keeps four sources (agencies, carriers). */
  authoritative?: boolean;
}

export interface NormalisedItem extends FeedItem {
  title: string;
  summary: string;
  /** Canonical link (null when the item had none or it was not an http(s) URL). */
  canonicalLink: string | null;
  /** Folded lower-case title and summary, for matching words. */
  foldedTitle: string;
  foldedSummary: string;
  /** The identity de-duplication compares first: guid, else canonical link, else publisher + title. */
  identity: string;
}

const TRACKING_PARAMS =
  /^(utm_.*|fbclid|gclid|mc_cid|mc_eid|ref|ref_src|cmpid|itm_.*|_hsenc|_hsmi|mkt_tok)$/i;

/** Collapses every run of whitespace (including non-breaking and zero-width spaces) into one space. */
export function collapseWhitespace(text: string): string {
  return text
    .replace(/[\u200b-\u200d\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** NFKD, marks removed, lower case, whitespace collapsed, typographic quotes and dashes made plain. */
export function foldForMatching(text: string): string {
  return collapseWhitespace(
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
      .replace(/[\u201c\u201d\u201f\u2033]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, "-")
      .toLowerCase(),
  );
}

/** Strips markup a feed left in a summary; entities are already decoded by the feed parser. */
export function stripMarkup(text: string): string {
  return text.replace(/<[^>]*>/g, " ");
}

/**
 * The canonical form of a link: https and http kept as sent, host lower case without `www.`,
 * tracking parameters and the fragment removed, remaining parameters sorted, no trailing slash.
 */
export function canonicalUrl(link: string | null): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const kept = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING_PARAMS.test(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const query = kept.length ? `?${new URLSearchParams(kept).toString()}` : "";
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const port = url.port ? `:${url.port}` : "";
  const path = url.pathname.replace(/\/+$/, "") || "";
  return `${url.protocol}//${host}${port}${path}${query}`;
}

export function normaliseItem(item: FeedItem): NormalisedItem {
  const title = collapseWhitespace(stripMarkup(item.title).normalize("NFKC"));
  const summary = collapseWhitespace(stripMarkup(item.summary).normalize("NFKC"));
  const canonicalLink = canonicalUrl(item.link);
  const guid = item.guid?.trim() || null;
  const identity = guid
    ? `guid:${item.sourceId}:${guid}`
    : canonicalLink
      ? `url:${canonicalLink}`
      : `title:${foldForMatching(item.publisher)}:${foldForMatching(title)}`;
  return {
    ...item,
    guid,
    title,
    summary,
    canonicalLink,
    foldedTitle: foldForMatching(title),
    foldedSummary: foldForMatching(summary),
    identity,
  };
}

/** Dice coefficient over character bigrams of two folded strings (1 = the same, 0 = nothing shared). */
export function diceSimilarity(a: string, b: string): number {
  const x = a.replace(/\s+/g, " ");
  const y = b.replace(/\s+/g, " ");
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) {
    const bigram = x.slice(i, i + 2);
    counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const bigram = y.slice(i, i + 2);
    const left = counts.get(bigram) ?? 0;
    if (left > 0) {
      counts.set(bigram, left - 1);
      shared++;
    }
  }
  return (2 * shared) / (x.length - 1 + (y.length - 1));
}

/** Threshold above which two titles of one publisher are the same story re-issued (a corrected title). */
export const DUPLICATE_TITLE_DICE = 0.9;

/**
 * Whether `item` repeats one already seen: the same identity, the same canonical link, or the same
 * publisher with a nearly identical title.
 */
export function isDuplicate(
  item: NormalisedItem,
  seen: readonly Pick<NormalisedItem, "identity" | "canonicalLink" | "publisher" | "foldedTitle">[],
): boolean {
  return seen.some(
    (other) =>
      other.identity === item.identity ||
      (item.canonicalLink !== null && other.canonicalLink === item.canonicalLink) ||
      (other.publisher === item.publisher &&
        diceSimilarity(other.foldedTitle, item.foldedTitle) >= DUPLICATE_TITLE_DICE),
  );
}
