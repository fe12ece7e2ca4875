import type { EtaRevision } from "./model";

const HOUR_MS = 3_600_000;

export interface EtaRevisionWithChange extends EtaRevision {
  /**
   * Whole hours the arrival moved against the revision before it (positive later, negative earlier);
   * 0 for the first, which moved nothing.
   */
  changeHours: number;
}

/** The ETA history, oldest first, each revision with how far it moved the arrival. */
export function etaRevisions(history: readonly EtaRevision[]): EtaRevisionWithChange[] {
  return history.map((revision, i) => ({
    ...revision,
    changeHours:
      i === 0 ? 0 : Math.round((Date.parse(revision.eta) - Date.parse(history[i - 1]!.eta)) / HOUR_MS),
  }));
}
