import { type LocationRole, locationRoles } from "../../../domain/tracking/location-roles";
import type { TrackedLocation, TrackedVessel, TrackingDocument } from "../../../domain/tracking/model";
import { type VoyageLeg, voyageLegs } from "../../../domain/tracking/voyage-legs";
import type { CarrierDocument, DocumentVersion } from "../../../generated/prisma/client";

/**
 * How the tracking types reach their document: a stored document with its store facts, the parts
 * of one document that carry the document along (so a location can know its role, an event its
 * vessel), and the facts derived from a whole document, computed once per document object.
 */

/** A stored carrier document as GraphQL serves it: the canonical content plus store facts. */
export interface StoredDocumentView {
  document: CarrierDocument;
  version: Pick<DocumentVersion, "id" | "version" | "fetchedAt">;
  content: TrackingDocument;
}

/** A part of a document (a location, an event ...) with the document it belongs to. */
export interface InDocument<T> {
  item: T;
  doc: TrackingDocument;
}

export const inDocument =
  (doc: TrackingDocument) =>
  <T>(item: T): InDocument<T> => ({ item, doc });

export const locationIn = (doc: TrackingDocument, key: string | null): InDocument<TrackedLocation> | null => {
  const location = key === null ? undefined : doc.locations.find((l) => l.key === key);
  return location ? { item: location, doc } : null;
};

export const vesselIn = (doc: TrackingDocument, key: string | null): InDocument<TrackedVessel> | null => {
  const vessel = key === null ? undefined : doc.vessels.find((v) => v.key === key);
  return vessel ? { item: vessel, doc } : null;
};

/**
 * Facts derived from a whole document, computed once per document object: the content is loaded
 * fresh for every request, so the cache lives as long as the request's objects and no longer.
 */
export function perDocument<T>(compute: (doc: TrackingDocument) => T): (doc: TrackingDocument) => T {
  const cache = new WeakMap<TrackingDocument, T>();
  return (doc) => {
    if (!cache.has(doc)) cache.set(doc, compute(doc));
    return cache.get(doc)!;
  };
}

export const rolesOf: (doc: TrackingDocument) => Map<string, LocationRole> = perDocument(locationRoles);
export const legsOf: (doc: TrackingDocument) => VoyageLeg[] = perDocument(voyageLegs);
