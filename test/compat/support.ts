import type { TrackingDocument } from "../../src/domain/tracking/model";
import type { TestApp } from "../support/app";
import { containerNumber } from "../support/references";

export const SIMULATOR_ENV = {
  QUAYSIDE_SIMULATOR: "embedded",
  QUAYSIDE_SIMULATOR_PORT: "0",
  QUAYSIDE_CARRIER_ATTEMPTS: "1",
  QUAYSIDE_CARRIER_TIMEOUT_MS: "3000",
};

export interface CompatAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** GET `{compat}/{path}` with the key as `api_key` (the contract's own transport). */
export async function compatGet(
  app: { url: string },
  key: string | null,
  path: string,
  params: Record<string, string | undefined> = {},
): Promise<CompatAnswer> {
  const query = new URLSearchParams();
  if (key !== null) query.set("api_key", key);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  const res = await fetch(`${app.url}/compat${path}?${query}`);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

let serial = 900_000;

/** A valid container number the simulator was never asked about. */
export function freshContainer(prefix = "MSCU"): string {
  serial += 13;
  return containerNumber(prefix, serial);
}

/** The stored content of a reference the app already fetched for the organisation. */
export async function storedContent(
  app: TestApp,
  organizationId: string,
  scac: string,
  reference: string,
): Promise<TrackingDocument> {
  const document = await app.services.documents.find(organizationId, scac, "container", reference);
  const stored = document && (await app.services.documents.latest(document));
  if (!stored) throw new Error(`nothing stored for ${scac} ${reference}`);
  return structuredClone(stored.content);
}

/**
 * Puts a document into the organisation's store as if the carrier had just answered it, so the compat
 * API serves it (fresh) to that organisation without asking the carrier. `shape` edits a copy of a real
 * stored document.
 */
export async function seedDocument(
  app: TestApp,
  organizationId: string,
  base: TrackingDocument,
  number: string,
  shape: (doc: TrackingDocument) => void = () => undefined,
  scac = "MSCU",
): Promise<TrackingDocument> {
  const doc = structuredClone(base);
  doc.reference = number;
  doc.referenceType = "container";
  for (const c of doc.containers) c.number = number;
  doc.containers = doc.containers.slice(0, 1);
  shape(doc);
  await app.services.documents.record(
    { organizationId: organizationId, carrierScac: scac, referenceType: "container", referenceKey: number },
    doc,
  );
  return doc;
}
