import { describeEquipment } from "../references/iso-size-type";
import type { EquipmentClass } from "./model";

/**
 * The tariff class of a box from its ISO code or shorthand, read off the readable description (the
 * ISO decoder already knows lengths, heights and type groups). `Dry Bulk` is special equipment, as
 * carriers' tariffs list it apart; an unknown type is `any`, which only an `any` row covers.
 */
export function equipmentClassOf(isoCode: string | null, sizeType: string | null): EquipmentClass {
  const description = describeEquipment(isoCode ?? sizeType).description;
  if (!description) return "any";
  const size = description.startsWith("20'") ? "20" : /^4[05]'/.test(description) ? "40" : null;
  if (/Reefer/.test(description)) return size ? (`reefer${size}` as EquipmentClass) : "reefer";
  if (/ Dry( \(side openings\))?$/.test(description)) {
    if (size === "40" && /High Cube/.test(description)) return "hc40";
    return size ? (`dry${size}` as EquipmentClass) : "dry";
  }
  return size ? (`special${size}` as EquipmentClass) : "special";
}
