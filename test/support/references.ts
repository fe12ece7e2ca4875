import { computeCheckDigit } from "../../src/domain/references/container-number";

/** A valid ISO 6346 number for an owner prefix and serial. */
export function containerNumber(prefix: string, serial: number): string {
  const first10 = `${prefix}${String(serial).padStart(6, "0")}`;
  return `${first10}${computeCheckDigit(first10)}`;
}

interface DcsaEvent {
  documentReferences?: { documentReferenceType: string; documentReferenceValue: string }[];
}

async function eventsFor(
  simulatorUrl: string,
  scac: string,
  filter: string,
  value: string,
): Promise<DcsaEvent[]> {
  const res = await fetch(
    `${simulatorUrl}/${scac}/v2/events?${filter}=${encodeURIComponent(value)}&limit=1000`,
  );
  return (await res.json()) as DcsaEvent[];
}

/**
 * Container numbers of a carrier's own prefix that its simulated API knows (or does not know), found
 * by asking the simulator, so tests do not depend on how its world hashes references.
 */
export async function simulatedContainers(
  simulatorUrl: string,
  scac: string,
  prefix: string,
  wanted: { known?: number; unknown?: number; start?: number },
): Promise<{ known: string[]; unknown: string[] }> {
  const known: string[] = [];
  const unknown: string[] = [];
  for (let serial = wanted.start ?? 100_000; serial < (wanted.start ?? 100_000) + 20_000; serial += 7) {
    if (known.length >= (wanted.known ?? 0) && unknown.length >= (wanted.unknown ?? 0)) break;
    const number = containerNumber(prefix, serial);
    const events = await eventsFor(simulatorUrl, scac, "equipmentReference", number);
    (events.length > 0 ? known : unknown).push(number);
  }
  return { known: known.slice(0, wanted.known ?? 0), unknown: unknown.slice(0, wanted.unknown ?? 0) };
}

/** The bill of lading a known container travels on, per the simulator's own events. */
export async function billOfLadingOf(simulatorUrl: string, scac: string, container: string): Promise<string> {
  const events = await eventsFor(simulatorUrl, scac, "equipmentReference", container);
  for (const e of events) {
    const ref = e.documentReferences?.find((d) => d.documentReferenceType === "TRD");
    if (ref) return ref.documentReferenceValue;
  }
  throw new Error(`no transport document reference in the events of ${container}`);
}

/** The containers on a bill of lading, per the simulator's own events, in first-seen order. */
export async function boxesOnBillOfLading(simulatorUrl: string, scac: string, bl: string): Promise<string[]> {
  const events = (await eventsFor(simulatorUrl, scac, "transportDocumentReference", bl)) as {
    equipmentReference?: string;
  }[];
  return [...new Set(events.flatMap((e) => (e.equipmentReference ? [e.equipmentReference] : [])))];
}

/**
 * A bill of lading of a carrier's own prefix with at least `boxes` containers on it, for claims that
 * only mean something when there is more than one.
 */
export async function billOfLadingWithBoxes(
  simulatorUrl: string,
  scac: string,
  prefix: string,
  boxes: number,
): Promise<{ billOfLading: string; containers: string[] }> {
  const { known } = await simulatedContainers(simulatorUrl, scac, prefix, { known: 40, start: 300_000 });
  for (const container of known) {
    const billOfLading = await billOfLadingOf(simulatorUrl, scac, container);
    const containers = await boxesOnBillOfLading(simulatorUrl, scac, billOfLading);
    if (containers.length >= boxes) return { billOfLading, containers };
  }
  throw new Error(`no ${scac} bill of lading with ${boxes} containers among ${known.length} known boxes`);
}
