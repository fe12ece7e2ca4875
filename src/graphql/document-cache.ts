import type { DocumentNode } from "graphql";
import type { CacheLookups } from "../observability/metrics";

/**
 * Parsed, validated and admitted client documents, by their text. Bounded twice: only small documents
 * enter (a parsed document with locations takes about 60 times its text in memory: ~240 KiB for a
 * 4 KiB query), and the texts held add up to at most `maxTotalBytes`; the least recently used leave
 * first. Only documents that were admitted for execution are offered, so a refused one never stays.
 */
export class DocumentCache {
  private readonly entries = new Map<string, { document: DocumentNode; bytes: number }>();
  private totalBytes = 0;

  constructor(
    readonly maxDocumentBytes: number,
    readonly maxTotalBytes: number,
    private readonly lookups?: CacheLookups,
  ) {}

  get(source: string): DocumentNode | undefined {
    const entry = this.entries.get(source);
    if (!entry) {
      this.lookups?.miss();
      return undefined;
    }
    this.lookups?.hit();
    // Map keeps insertion order: re-inserting marks the entry most recently used.
    this.entries.delete(source);
    this.entries.set(source, entry);
    return entry.document;
  }

  offer(source: string, document: DocumentNode): void {
    const bytes = Buffer.byteLength(source, "utf8");
    if (bytes > this.maxDocumentBytes || this.entries.has(source)) return;
    this.entries.set(source, { document, bytes });
    this.totalBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.totalBytes <= this.maxTotalBytes) break;
      this.entries.delete(oldest);
      this.totalBytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }
}
