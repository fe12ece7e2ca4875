/**
 * Issue 35, tenth pass: general rules the development corpus still missed. Items are written for these
 * tests in the corpus's style (invented ships and publishers).
 */
import { describe, expect, it } from "vitest";
import { extractEntities } from "../../../src/domain/disruptions/entities";

const ports = (title: string) => extractEntities(title, "").entities.ports;

describe("a port's name before a port word", () => {
  it("names the port when possessive (docks, harbour, piers) or before terminal, docks, piers or port", () => {
    // San Juan is in the port catalogue but not the press list: only "Port of San Juan" found it.
    expect(ports("Relief cargo piles up at San Juan's docks")).toEqual(["PRSJU"]);
    expect(ports("Empty boxes stack up on San Juan\u2019s piers")).toEqual(["PRSJU"]);
    expect(ports("Carrier says cargo is moving out of its San Juan terminal")).toEqual(["PRSJU"]);
    expect(ports("San Juan port reopens with restrictions for relief cargo")).toEqual(["PRSJU"]);
  });

  it("reads the longest tail of capitalised words that is a port, and nothing for other names", () => {
    expect(ports("Coastline Freight San Juan terminal reopens")).toEqual(["PRSJU"]);
    expect(ports("Tall ship San Juan Star opens to visitors at the waterfront")).toEqual([]);
    expect(ports("Northwind Apparel's docks are a brand of deck shoes")).toEqual([]);
  });
});
