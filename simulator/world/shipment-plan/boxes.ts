/**
 * Boxes: container numbers and size-types.
 */
import type { Carrier } from "../../../reference-data/carriers";
import { containerPrefixesOf } from "../carrier-profiles";
import { type SeededRandom, unitHash } from "../hash";
import { containerNumber, ISO_SIZE_TYPES, isIssuableSerial } from "../iso6346";
import type { PlannedContainer } from "./model";

/** A box's size and type are physical, so they follow its number, not the shipment. */
export function sizeTypeOf(equipmentReference: string): string {
  let threshold = unitHash("size-type", equipmentReference);
  for (const [code, share] of ISO_SIZE_TYPES) {
    threshold -= share;
    if (threshold < 0) return code;
  }
  return ISO_SIZE_TYPES[0]?.[0] ?? "45G1";
}

export interface BoxSpec {
  /** Boxes already decided (a queried box, a group's members). */
  fixed: readonly string[];
  /** Whether to add boxes drawn from the carrier's prefixes (for references not issued by the world). */
  generate: boolean;
}

export function planContainers(rng: SeededRandom, carrier: Carrier, boxes: BoxSpec): PlannedContainer[] {
  const references = [...boxes.fixed];
  if (boxes.generate) {
    const extra = rng.weighted([
      [0, 0.45],
      [1, 0.25],
      [2, 0.15],
      [3, 0.1],
      [4, 0.05],
    ] as const);
    const wanted = boxes.fixed.length === 0 ? extra + 1 : extra;
    const prefixes = containerPrefixesOf(carrier);
    const fallbackPrefixes = prefixes.length > 0 ? prefixes.slice(0, 3) : ["TGHU", "TCNU", "SEGU"];
    while (references.length < boxes.fixed.length + wanted) {
      const prefix = rng.pick(fallbackPrefixes);
      const serial = rng.int(0, 999_999);
      if (!isIssuableSerial(prefix, serial)) continue;
      const reference = containerNumber(prefix, serial);
      if (!references.includes(reference)) references.push(reference);
    }
  }
  const sealPrefix = carrier.scac.replace(/\d/g, "").slice(0, 2).padEnd(2, "X");
  return references.map((equipmentReference) => ({
    equipmentReference,
    isoEquipmentCode: sizeTypeOf(equipmentReference),
    sealNumber: `${sealPrefix}${rng.int(1_000_000, 9_999_999)}`,
  }));
}
