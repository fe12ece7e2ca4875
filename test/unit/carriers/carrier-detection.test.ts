import { describe, expect, it } from "vitest";
import {
  type CarrierCandidate,
  carrierAvailability,
  DEFAULT_POPULARITY_LIMIT,
  detectCarriers,
  explainCarrierDetection,
  typeAskedOf,
} from "../../../src/domain/carriers/carrier-detection";
import {
  CARRIERS,
  findCarrierByScac,
  withCarrierStatus,
  withConnections,
} from "../../../src/domain/carriers/carrier-directory";
import { computeCheckDigit } from "../../../src/domain/references/container-number";
import {
  type ParsedReference,
  parseReference,
  type ReferenceType,
} from "../../../src/domain/references/reference";

function ref(input: string, hint?: ReferenceType): ParsedReference {
  const result = parseReference(input, hint);
  if (!result.ok) throw new Error(`test reference ${input} is invalid: ${result.message}`);
  return result.value;
}

const summary = (candidates: CarrierCandidate[]) =>
  candidates.map((candidate) => `${candidate.scac}:${candidate.source}:${candidate.confidence}`);
const scacs = (candidates: CarrierCandidate[]) => candidates.map((candidate) => candidate.scac);

// The five largest lines, the default last-resort guesses.
const TOP_FIVE = ["MSCU", "MAEU", "CMDU", "COSU", "HLCU"];

describe("containers: owner prefix (bic)", () => {
  it("names the box's operator first, then the most popular other carriers", () => {
    expect(summary(detectCarriers(ref("HLXU8034420")))).toEqual([
      "HLCU:bic:medium",
      "MSCU:prefix-popularity:low",
      "MAEU:prefix-popularity:low",
      "CMDU:prefix-popularity:low",
      "COSU:prefix-popularity:low",
      "ONEY:prefix-popularity:low",
    ]);
  });

  it.each([
    ["MSKU1234565", "MAEU"],
    ["MSCU1234566", "MSCU"],
    ["OOLU1234567", "OOLU"],
    ["CSNU1234560", "COSU"],
    ["APLU1234564", "APLU"],
    ["CSQU3054383", "HLCU"],
  ])("%s is a %s box", (number, scac) => {
    const [first] = detectCarriers(ref(number));
    expect(first).toMatchObject({ scac, source: "bic", confidence: "medium" });
    expect(first?.name).toBe(findCarrierByScac(scac)?.name);
  });

  it.each(["TEXU3070079", "TGHU1234567", "CAIU1234561", "SEGU1234569", "CBHU1234561", "TCNU1234565"])(
    "gives a leased box (%s) without history no candidate at all: any line may be operating it",
    (number) => {
      expect(detectCarriers(ref(number))).toEqual([]);
    },
  );

  it("asks the carrier that answered for a leased box before, and no one else", () => {
    expect(summary(detectCarriers(ref("TGHU1234567"), { history: ["MSCU"] }))).toEqual(["MSCU:history:high"]);
  });

  it("gives a box of an unknown owner only the popular carriers", () => {
    expect(summary(detectCarriers(ref("ABCU1234560"))).every((line) => line.endsWith(":low"))).toBe(true);
  });

  it("ignores a leasing prefix even in a custom directory that claims it", () => {
    const claimed = CARRIERS.map((entry) =>
      entry.scac === "ZIMU" ? { ...entry, ownerPrefixes: [...entry.ownerPrefixes, "TEXU"] } : entry,
    );
    expect(detectCarriers(ref("TEXU3070079"), { directory: claimed })).toEqual([]);
  });
});

describe("bills of lading and bookings: B/L prefix", () => {
  it.each([
    ["MEDUFR030802", "MSCU"],
    ["MAEU221876618", "MAEU"],
    ["CMDUSHZ5223740", "CMDU"],
    ["COSU6345849250", "COSU"],
    ["OOLU2706578920", "OOLU"],
    ["HLCUSEL251063157", "HLCU"],
    ["ONEYAARD05774700", "ONEY"],
    ["EGLV446041558743", "EGLV"],
    ["ZIMULEH9024455", "ZIMU"],
    ["ANLCSHZ5223740", "ANNU"],
    ["PABV1234567", "PCIU"],
  ])("%s is quoted with %s's prefix", (number, scac) => {
    expect(detectCarriers(ref(number))[0]).toMatchObject({ scac, source: "bl-prefix", confidence: "medium" });
  });

  it("matches the prefix whatever the case, spaces or hyphens of the input", () => {
    expect(detectCarriers(ref("medu-fr030802"))[0]?.scac).toBe("MSCU");
  });

  it("uses the prefix for a booking too", () => {
    expect(detectCarriers(ref("MEDU1234567", "booking"))[0]).toMatchObject({
      scac: "MSCU",
      source: "bl-prefix",
    });
  });

  it("needs a number after the prefix", () => {
    expect(detectCarriers(ref("MEDU", "bl")).some((candidate) => candidate.source === "bl-prefix")).toBe(
      false,
    );
  });

  it("has no evidence for an unprefixed number, such as a 10-digit COSCO, OOCL or Matson B/L", () => {
    expect(scacs(detectCarriers(ref("6345849250")))).toEqual(TOP_FIVE);
  });

  it("does not read a container's owner prefix from a bill of lading", () => {
    // MSKU is a Maersk owner prefix, not a B/L prefix.
    expect(
      detectCarriers(ref("MSKUBL12345")).some((candidate) => candidate.source !== "prefix-popularity"),
    ).toBe(false);
  });

  it("ranks the document's prefix above the container's owner in a combined value", () => {
    expect(summary(detectCarriers(ref("MEDUFR030802/HLXU8034420"))).slice(0, 2)).toEqual([
      "MSCU:bl-prefix:medium",
      "HLCU:bic:medium",
    ]);
  });

  it("lists a carrier once when document and container point to it", () => {
    const candidates = detectCarriers(ref("MEDUFR030802/MSCU1234566"));
    expect(summary(candidates)[0]).toBe("MSCU:bl-prefix:medium");
    expect(scacs(candidates).filter((scac) => scac === "MSCU")).toHaveLength(1);
  });
});

describe("tracking history", () => {
  it("comes first with high confidence", () => {
    expect(summary(detectCarriers(ref("MSCU1234566"), { history: ["HLCU"] })).slice(0, 2)).toEqual([
      "HLCU:history:high",
      "MSCU:bic:medium",
    ]);
  });

  it("lifts a carrier that also matches by prefix to high, listing it once", () => {
    const candidates = detectCarriers(ref("MSCU1234566"), { history: ["MSCU"] });
    expect(summary(candidates)[0]).toBe("MSCU:history:high");
    expect(scacs(candidates).filter((scac) => scac === "MSCU")).toHaveLength(1);
  });

  it("keeps the order of the history, ignoring case, alternative SCACs and repeats", () => {
    const candidates = detectCarriers(ref("ABCU1234560"), { history: ["zimu", "MEDU", "ZIMU", "mscu"] });
    expect(summary(candidates).slice(0, 3)).toEqual([
      "ZIMU:history:high",
      "MSCU:history:high",
      "MAEU:prefix-popularity:low",
    ]);
  });

  it("skips SCACs that are not in the directory", () => {
    expect(detectCarriers(ref("ABCU1234560"), { history: ["XXXX"] })[0]?.source).toBe("prefix-popularity");
  });

  it("can lead to a carrier no prefix would suggest", () => {
    expect(detectCarriers(ref("6345849250"), { history: ["MATS"] })[0]).toMatchObject({
      scac: "MATS",
      name: "Matson",
      confidence: "high",
    });
  });
});

describe("the low-confidence tier", () => {
  it(`adds at most ${DEFAULT_POPULARITY_LIMIT} popular carriers, skipping those already listed`, () => {
    const candidates = detectCarriers(ref("MSCU1234566"), { history: ["MAEU"] });
    const low = candidates.filter((candidate) => candidate.confidence === "low");
    expect(low).toHaveLength(DEFAULT_POPULARITY_LIMIT);
    expect(scacs(low)).toEqual(["CMDU", "COSU", "HLCU", "ONEY", "EGLV"]);
  });

  it("can be capped differently, or switched off", () => {
    expect(detectCarriers(ref("ABCU1234560"), { popularityLimit: 2 })).toHaveLength(2);
    expect(detectCarriers(ref("ABCU1234560"), { popularityLimit: 0 })).toEqual([]);
    expect(summary(detectCarriers(ref("HLXU8034420"), { popularityLimit: 0 }))).toEqual(["HLCU:bic:medium"]);
  });
});

describe("carriers that cannot be asked", () => {
  const underMaintenance = withCarrierStatus({ MSCU: "maintenance" });

  it("leaves a carrier under maintenance out of every tier", () => {
    const candidates = detectCarriers(ref("MSCU1234566"), { directory: underMaintenance, history: ["MSCU"] });
    expect(scacs(candidates)).not.toContain("MSCU");
    expect(scacs(candidates)).toEqual(["MAEU", "CMDU", "COSU", "HLCU", "ONEY"]);
  });

  it("says the matching carrier is under maintenance, and through which evidence", () => {
    expect(explainCarrierDetection(ref("MSCU1234566"), { directory: underMaintenance }).excluded).toEqual([
      { scac: "MSCU", name: "MSC Mediterranean Shipping Company", source: "bic", reason: "maintenance" },
    ]);
    expect(
      explainCarrierDetection(ref("TEXU3070079"), { directory: underMaintenance, history: ["MSCU"] })
        .excluded,
    ).toEqual([expect.objectContaining({ scac: "MSCU", source: "history", reason: "maintenance" })]);
  });

  it("does not report carriers that were only a guess", () => {
    expect(explainCarrierDetection(ref("ABCU1234560"), { directory: underMaintenance }).excluded).toEqual([]);
  });

  it("leaves a disabled carrier out too, with its own reason", () => {
    const disabled = withCarrierStatus({ HLCU: "disabled" });
    const detection = explainCarrierDetection(ref("HLCUSEL251063157"), { directory: disabled });
    expect(scacs(detection.candidates)).not.toContain("HLCU");
    expect(detection.excluded).toEqual([expect.objectContaining({ scac: "HLCU", reason: "disabled" })]);
  });

  it("does not offer HMM a bare container or B/L, but does a booking with its container", () => {
    const container = explainCarrierDetection(ref("HDMU1234561"));
    expect(scacs(container.candidates)).not.toContain("HDMU");
    expect(container.excluded).toEqual([
      expect.objectContaining({ scac: "HDMU", reason: "unsupported_type" }),
    ]);

    const bl = explainCarrierDetection(ref("HDMUXMNM78424800"));
    expect(bl.excluded).toEqual([expect.objectContaining({ scac: "HDMU", source: "bl-prefix" })]);

    const combined = detectCarriers(ref("HDMU12345678/HDMU1234561", "booking"));
    expect(summary(combined)[0]).toBe("HDMU:bl-prefix:medium");

    // Typed as a bill of lading (compat's BK goes that way, and auto-detection reads it so), a combined
    // value is still HMM's booking and box: the only way to name HMM's pair.
    const typedAsBl = ref("SELM10000000/HDMU1234561");
    expect(typedAsBl.type).toBe("bl");
    expect(scacs(detectCarriers(typedAsBl))).toContain("HDMU");
    const hmm = CARRIERS.find((c) => c.scac === "HDMU")!;
    expect(typeAskedOf(hmm, typedAsBl)).toBe("booking");
    expect(typeAskedOf(CARRIERS.find((c) => c.scac === "MSCU")!, typedAsBl)).toBe("bl");
  });

  it("does not offer a carrier the deployment has no connection to, unless the operator set its status", () => {
    const directory = withConnections(withCarrierStatus({ ZIMU: "maintenance" }), (scac) => scac === "MSCU");
    const status = (scac: string) => directory.find((c) => c.scac === scac)!.status;
    expect(status("MSCU")).toBe("active");
    expect(status("WHLC")).toBe("not_connected");
    expect(status("ZIMU")).toBe("maintenance");
    const detection = explainCarrierDetection(ref(`WHLU123456${computeCheckDigit("WHLU123456")}`), {
      directory,
    });
    // Its own box is not sent there; only the connected line's low guess remains.
    expect(scacs(detection.candidates)).toEqual(["MSCU"]);
    expect(detection.excluded).toEqual([expect.objectContaining({ scac: "WHLC", reason: "not_connected" })]);
  });

  it("carrierAvailability explains a named carrier", () => {
    const msc = findCarrierByScac("MSCU", underMaintenance)!;
    const hmm = findCarrierByScac("HDMU")!;
    expect(carrierAvailability(msc, "container")).toEqual({ available: false, reason: "maintenance" });
    expect(carrierAvailability(findCarrierByScac("MSCU")!, "container")).toEqual({ available: true });
    expect(carrierAvailability(hmm, "bl")).toEqual({ available: false, reason: "unsupported_type" });
    expect(carrierAvailability(hmm, "booking")).toEqual({ available: true });
  });
});

describe("general guarantees", () => {
  const references = [
    ref("MSCU1234566"),
    ref("TEXU3070079"),
    ref("MEDUFR030802/HLXU8034420"),
    ref("6345849250"),
    ref("ONEYAARD05774700", "booking"),
  ];

  it("lists each SCAC once, in tier order", () => {
    const order = { history: 0, "bl-prefix": 1, bic: 1, "prefix-popularity": 2 } as const;
    for (const reference of references) {
      const candidates = detectCarriers(reference, { history: ["MAEU", "HLCU"] });
      expect(new Set(scacs(candidates)).size).toBe(candidates.length);
      const tiers = candidates.map((candidate) => order[candidate.source]);
      expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    }
  });

  it("is pure: same answer twice, inputs untouched", () => {
    const history = Object.freeze(["ZIMU"]);
    const first = detectCarriers(references[0]!, { history });
    expect(detectCarriers(references[0]!, { history })).toEqual(first);
    expect(history).toEqual(["ZIMU"]);
  });
});
