/**
 * Issue 35, second pass: what the pipeline learnt from development items about events the first
 * pass lacked. Names the press gives ports (terminals, older names, the world's other container
 * ports), the likeliest of a catalogue's namesakes, ends said in other words and not mistaken, items
 * read in the context of the event they belong to, and an end report long after the last news. The
 * items are written for these tests (not taken from either corpus).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isResolution } from "../../../src/domain/disruptions/classify";
import { extractEntities } from "../../../src/domain/disruptions/entities";
import { normaliseItem } from "../../../src/domain/disruptions/normalise";
import { sweepSilentEvents } from "../../../src/domain/disruptions/pipeline";
import { PRESS_PORT_NAMES } from "../../../src/domain/disruptions/port-press-names";
import { findPortEntry } from "../../../src/domain/ports/port-directory";
import { DAY, eventOf, type NewsRow, replayItems } from "./replay-items";

const ports = (title: string, summary = "") => extractEntities(title, summary).entities.ports;

describe("the names the press gives ports", () => {
  it("reads terminals, districts and authorities as their port", () => {
    expect(ports("Euromax and ECT Delta terminals halt work")).toEqual(["NLRTM"]);
    expect(ports("Pier 400 and TraPac close gates after power cut")).toEqual(["USLAX"]);
    expect(ports("Burchardkai idle as HHLA systems fail")).toEqual(["DEHAM"]);
    expect(ports("Deltaport and Centerm shut by lockout")).toEqual(["CAVAN"]);
    expect(ports("Explosion at Shahid Rajaee port")).toEqual(["IRBND"]);
    expect(ports("Garden City Terminal gates reopen")).toEqual(["USSAV"]);
  });

  it("reads older and other names of a port (UN/LOCODE's own: Madras, Bombay, Chilung)", () => {
    expect(ports("Chattogram port congestion worsens")).toEqual(["BDCGP"]);
    expect(ports("Dockers strike at Madras and Bombay")).toEqual(["INBOM", "INMAA"]);
    expect(ports("Keelung and Taichung close as typhoon nears")).toEqual(["TWKEL", "TWTXG"]);
  });

  it("knows container ports beyond the first list, with their countries when the catalogue lacks them", () => {
    expect(ports("Beirut port devastated by explosion")).toEqual(["LBBEY"]);
    expect(ports("Chornomorsk and Pivdennyi reopen for grain ships")).toEqual(["UAILK", "UAYUZ"]);
    expect(ports("Ships queue off Lazaro Cardenas and Manzanillo")).toContain("MXLZC");
  });

  it("takes the likeliest of a catalogue's namesakes: the Port of Southampton is England's, not Bermuda's", () => {
    expect(ports("Strike at the Port of Southampton halts car exports")).toEqual(["GBSOU"]);
  });

  it("reads a football club's city as a port only with a cue", () => {
    expect(ports("Liverpool beat Southampton at Anfield")).toEqual([]);
    expect(ports("Liverpool dockers walk out over pay")).toEqual(["GBLIV"]);
    expect(ports("Newark airport flights delayed by storms")).toEqual([]);
  });

  it("takes a cue after a list of names: 'Tampa and Manatee ports'", () => {
    expect(ports("Milton closes Tampa and Manatee ports")).toEqual(["USTPA"]);
  });

  const unlocode = path.resolve("../shared/data/unlocode/countries");
  it.skipIf(!existsSync(unlocode))(
    "names only real UN/LOCODE ports where the embedded catalogue lacks the code",
    () => {
      const portCodes = new Set<string>();
      for (const file of readdirSync(unlocode)) {
        for (const line of readFileSync(path.join(unlocode, file), "latin1").split("\n")) {
          const cells = line.split(",");
          // country, location, ..., function (7th column) with a 1 first: a port.
          if (cells[0]?.length === 2 && cells[1]?.length === 3 && line.includes(",1"))
            portCodes.add(`${cells[0]}${cells[1]}`);
        }
      }
      const outside = PRESS_PORT_NAMES.filter((p) => !findPortEntry(p.locode));
      expect(outside.length).toBeGreaterThan(0);
      for (const p of outside) {
        expect(p.country, p.name).toBe(p.locode.slice(0, 2));
        expect(portCodes.has(p.locode), `${p.name} ${p.locode}`).toBe(true);
      }
    },
  );
});

function item(title: string, summary = ""): ReturnType<typeof normaliseItem> {
  return normaliseItem({
    sourceId: "t",
    publisher: "P",
    guid: null,
    link: "https://news.example/x",
    title,
    summary,
    publishedAt: new Date("2025-01-01T00:00:00Z"),
  });
}

describe("ends of disruptions, said in other words and not mistaken", () => {
  it("reads 'strike over as unions accept' as an end and 'strike over wages' as a strike", () => {
    expect(isResolution(item("Transnet strike over as unions accept wage offer"))).toBe(true);
    expect(isResolution(item("Port workers strike over wages, halting terminals"))).toBe(false);
  });

  it("does not read a partial restart as an end", () => {
    expect(isResolution(item("Yantian restores some berths but congestion persists"))).toBe(false);
    expect(isResolution(item("Port partially reopens after the storm"))).toBe(false);
    expect(isResolution(item("CMA CGM restores its booking systems"))).toBe(true);
    expect(isResolution(item("Seized tanker released, leaves Bandar Abbas"))).toBe(true);
  });
});

type Row = NewsRow;
const run = (rows: readonly Row[], start = Date.parse("2025-05-05T08:00:00Z")) => replayItems(rows, start);

describe("items read in the context of their event", () => {
  it("publishes an explosion at a port, and the cargo diverted away from it, as one port disruption", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Explosion wrecks quays at the port of Aqaba",
        summary: "Operations were halted and ships in the harbour were damaged.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "Lines divert Aqaba cargo to Jeddah after the blast",
        summary: "Carriers will discharge boxes for Jordan elsewhere while the terminal is inspected.",
      },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["created", "joined"]);
    const first = outcomes[0]!;
    expect("event" in first && first.event.category).toBe("port_disruption");
    expect("facts" in first && first.facts.severity).toBe(3);
  });

  it("reads a carrier's ransomware outage as its operations, and its end a week later closes it", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Box Trade Daily",
        title: "Hapag-Lloyd hit by ransomware, booking systems offline",
        summary: "The carrier's websites are down; customers are told to book through portals.",
      },
      {
        day: 2,
        publisher: "Harbour Wire",
        title: "Hapag-Lloyd bookings delayed as systems stay down after cyberattack",
        summary: "Shippers report slow confirmations from the German line.",
      },
      {
        day: 7,
        publisher: "Quay Ledger",
        title: "Hapag-Lloyd restores its booking systems a week after the attack",
        summary: "The line says its e-business services are back.",
      },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["created", "joined", "joined"]);
    expect(new Set(outcomes.map(eventOf)).size).toBe(1);
    const last = outcomes[2]!;
    expect("event" in last && last.event.category).toBe("carrier_ops");
    expect("event" in last && last.event.status).toBe("resolved");
    expect("event" in last && last.event.resolvedBy).toBe("report");
  });

  it("closes a seizure at its release two months on, not earlier by silence", () => {
    const { state, outcomes } = run([
      {
        day: 0,
        publisher: "Harbour Wire",
        title: "Iran seizes tanker in the Strait of Hormuz",
        summary: "Guard boats boarded the ship and took it to Bandar Abbas.",
      },
      {
        day: 1,
        publisher: "Gulf Shipping Post",
        title: "Owners told to avoid Hormuz after tanker seizure",
        summary: "Flag states raised the threat level for ships in Gulf waters.",
      },
      {
        day: 60,
        publisher: "Box Trade Daily",
        title: "Seized tanker released, leaves Bandar Abbas",
        summary: "The ship sailed two months after its seizure in the Strait of Hormuz.",
      },
    ]);
    expect(new Set(outcomes.map(eventOf)).size).toBe(1);
    const [event] = sweepSilentEvents(state.events, new Date(Date.parse("2025-05-05T08:00:00Z") + 120 * DAY));
    expect(state.events).toHaveLength(1);
    expect(event!.resolvedBy).toBe("report");
    expect(event!.resolvedAt?.toISOString()).toBe(
      new Date(Date.parse("2025-05-05T08:00:00Z") + 60 * DAY).toISOString(),
    );
  });
});

describe("a storm is one event wherever it lands", () => {
  it("joins reports of one named storm at different ports, and keeps another storm apart", () => {
    const { outcomes } = run([
      {
        day: 0,
        publisher: "Gulf Shipping Post",
        title: "Houston and Galveston close to ships as Hurricane Delia strengthens",
        summary: "The Coast Guard set port condition Zulu; terminals stop work on Wednesday.",
      },
      {
        day: 1,
        publisher: "Harbour Wire",
        title: "Delia makes landfall as Lake Charles and Port Arthur shut",
        summary: "The storm came ashore overnight; Gulf ports from Texas to Louisiana are closed.",
      },
      {
        day: 1,
        publisher: "Quay Ledger",
        title: "Typhoon Kerr shuts Kaohsiung and Keelung",
        summary: "Container terminals halted operations as the storm crossed Taiwan.",
      },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["created", "joined", "created"]);
    expect(eventOf(outcomes[1]!)).toBe(eventOf(outcomes[0]!));
    expect(eventOf(outcomes[2]!)).not.toBe(eventOf(outcomes[0]!));
  });
});
