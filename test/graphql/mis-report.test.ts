/**
 * The MIS report (issue 22 item 5) over shipments seeded through the real document store, with every
 * figure worked out by hand below from the seeded ETAs; its CSV and XLSX exports read back.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { type SeededShipment, seedShipment } from "../support/shipment-seed";

const clock = new ManualClock("2026-11-20T00:00:00Z");
let app: TestApp;
let org: OrgWithKey;
let other: OrgWithKey;

/*
 * Org's shipments, oldest first (SHP-1 ... SHP-9), the delay being arrival (ATA, else current ETA)
 * minus the first estimated ETA:
 *   SHP-1 MAEU delivered   first 11-01 00:00, arrived 11-03 12:00   +2.5 d   delayed
 *   SHP-2 MAEU in transit  first 12-01 00:00, now 12-01 12:00       +0.5 d   on_time
 *   SHP-3 MSCU B/L delivered first 10-10, then 10-14, arrived 10-16 06:00  +6.25 d delayed
 *   SHP-4 MSCU in transit  first 12-10, now 12-07                    -3 d     early
 *   SHP-5 MSCU in transit  first 12-05, unchanged                    0 d      on_time (customer Acme Imports)
 *   SHP-6 HLCU booking cancelled (first 11-28, now 12-02)            unknown (cancelled)
 *   SHP-7 HLCU never found by the carrier (status UNKNOWN)           unknown
 *   SHP-8 MAEU first seen already arrived 11-15 (IN_TRANSIT, ata)    unknown (no first ETA)
 *   SHP-9 MAEU +5 d, untracked                                       not in the report
 */
const SEEDS: SeededShipment[] = [
  {
    reference: "MAEU1000001",
    scac: "MAEU",
    status: "DELIVERED",
    answers: [{ eta: "2026-11-01T00:00:00.000Z" }, { eta: "2026-11-03T12:00:00.000Z", actual: true }],
    atd: "2026-10-01T08:00:00.000Z",
    createdAt: "2026-10-01T00:00:00.000Z",
  },
  {
    reference: "MAEU1000002",
    scac: "MAEU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-12-01T00:00:00.000Z" }, { eta: "2026-12-01T12:00:00.000Z" }],
    customer: "@Risk Trading",
    createdAt: "2026-10-02T00:00:00.000Z",
  },
  {
    reference: "MEDUAB123456",
    referenceType: "bl",
    scac: "MSCU",
    status: "DELIVERED",
    answers: [
      { eta: "2026-10-10T00:00:00.000Z" },
      { eta: "2026-10-14T00:00:00.000Z" },
      { eta: "2026-10-16T06:00:00.000Z", actual: true },
    ],
    atd: "2026-09-12T10:30:00.000Z",
    pod: { locode: "DEHAM", name: "Hamburg", country: "Germany" },
    createdAt: "2026-10-03T00:00:00.000Z",
  },
  {
    reference: "MSCU1000004",
    scac: "MSCU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-12-10T00:00:00.000Z" }, { eta: "2026-12-07T00:00:00.000Z" }],
    createdAt: "2026-10-04T00:00:00.000Z",
  },
  {
    reference: "MSCU1000005",
    scac: "MSCU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-12-05T00:00:00.000Z" }],
    customer: "Acme Imports",
    createdAt: "2026-10-05T00:00:00.000Z",
  },
  {
    reference: "HLCUBK0006",
    referenceType: "booking",
    scac: "HLCU",
    status: "CANCELLED",
    answers: [{ eta: "2026-11-28T00:00:00.000Z" }, { eta: "2026-12-02T00:00:00.000Z" }],
    createdAt: "2026-10-06T00:00:00.000Z",
  },
  {
    reference: "HLXU1000007",
    scac: "HLCU",
    status: "UNKNOWN",
    answers: [],
    createdAt: "2026-10-07T00:00:00.000Z",
  },
  {
    reference: "MAEU1000008",
    scac: "MAEU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-11-15T00:00:00.000Z", actual: true }],
    createdAt: "2026-10-08T00:00:00.000Z",
  },
  {
    reference: "MAEU1000009",
    scac: "MAEU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-11-10T00:00:00.000Z" }, { eta: "2026-11-15T00:00:00.000Z" }],
    createdAt: "2026-10-09T00:00:00.000Z",
    deleted: true,
  },
];

const FIGURES = `shipments active delivered delayed onTime early unknown assessed onTimePct avgDelayDays p90DelayDays`;
const REPORT = `query($filter: MisFilter, $limit: Int) {
  misReport(filter: $filter, limit: $limit) {
    generatedAt rowsTotal
    totals { ${FIGURES} }
    byCarrier { sealine sealineName ${FIGURES} }
    rows { shipmentId reference shipmentType sealine status origin destination atd firstEta eta ata delayDays delayStatus customer }
  }
}`;
const EXPORT = `query($format: MisExportFormat!, $filter: MisFilter, $limit: Int) {
  misReportExport(format: $format, filter: $filter, limit: $limit) { fileName contentType byteLength rows contentBase64 }
}`;

type Report = {
  generatedAt: string;
  rowsTotal: number;
  totals: Record<string, number | null>;
  byCarrier: Record<string, unknown>[];
  rows: Record<string, unknown>[];
};

async function report(key: string, filter: Record<string, unknown> = {}, limit?: number): Promise<Report> {
  const res = await graphql(app, key, REPORT, { filter, limit });
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.misReport as Report;
}

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization();
  other = await app.fixtures.organization();
  for (const seed of SEEDS) await seedShipment(app.services, clock, org, seed);
  await seedShipment(app.services, clock, other, {
    reference: "MAEU2000001",
    scac: "MAEU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-11-10T00:00:00.000Z" }, { eta: "2026-11-20T00:00:00.000Z" }],
    createdAt: "2026-10-01T00:00:00.000Z",
  });
  clock.set("2026-11-20T12:00:00Z");
}, 120_000);
afterAll(() => app?.stop());

describe("MIS report", () => {
  it("totals the organisation's tracked shipments against their first ETA", async () => {
    const r = await report(org.key);
    expect(r.generatedAt).toBe("2026-11-20T12:00:00.000Z");
    expect(r.totals).toEqual({
      shipments: 8,
      active: 5, // SHP-2, 4, 5, 7, 8
      delivered: 2, // SHP-1, 3
      delayed: 2, // SHP-1, 3
      onTime: 2, // SHP-2, 5
      early: 1, // SHP-4
      unknown: 3, // SHP-6, 7, 8
      assessed: 5,
      onTimePct: 40, // 2 of 5
      avgDelayDays: 1.3, // (2.5 + 0.5 + 6.25 - 3 + 0) / 5 = 1.25
      p90DelayDays: 6.3, // nearest rank: ceil(0.9 x 5) = 5th of -3, 0, 0.5, 2.5, 6.25
    });
    expect(r.rowsTotal).toBe(8);
  });

  it("gives each carrier its own figures, most shipments first", async () => {
    const r = await report(org.key);
    expect(r.byCarrier.map((c) => c.sealine)).toEqual(["MAEU", "MSCU", "HLCU"]);
    expect(r.byCarrier[0]).toMatchObject({
      sealineName: expect.stringMatching(/Maersk/i),
      shipments: 3,
      delayed: 1,
      onTime: 1,
      unknown: 1,
      assessed: 2,
      onTimePct: 50,
      avgDelayDays: 1.5, // (2.5 + 0.5) / 2
      p90DelayDays: 2.5, // ceil(0.9 x 2) = 2nd of 0.5, 2.5
    });
    expect(r.byCarrier[1]).toMatchObject({
      shipments: 3,
      delayed: 1,
      early: 1,
      onTime: 1,
      assessed: 3,
      onTimePct: 33.3, // 1 of 3
      avgDelayDays: 1.1, // (6.25 - 3 + 0) / 3 = 1.083
      p90DelayDays: 6.3,
    });
    expect(r.byCarrier[2]).toMatchObject({
      shipments: 2,
      unknown: 2,
      assessed: 0,
      onTimePct: null,
      avgDelayDays: null,
      p90DelayDays: null,
    });
  });

  it("lists rows newest first with the first ETA, the arrival and the delay", async () => {
    const r = await report(org.key);
    expect(r.rows.map((row) => row.shipmentId)).toEqual([
      "SHP-8",
      "SHP-7",
      "SHP-6",
      "SHP-5",
      "SHP-4",
      "SHP-3",
      "SHP-2",
      "SHP-1",
    ]);
    expect(r.rows.find((row) => row.shipmentId === "SHP-3")).toEqual({
      shipmentId: "SHP-3",
      reference: "MEDUAB123456",
      shipmentType: "Bill of Lading",
      sealine: "MSCU",
      status: "DELIVERED",
      origin: "Shanghai, China",
      destination: "Hamburg, Germany",
      atd: "2026-09-12T10:30:00.000Z",
      firstEta: "2026-10-10T00:00:00.000Z",
      eta: "2026-10-16T06:00:00.000Z",
      ata: "2026-10-16T06:00:00.000Z",
      delayDays: 6.3,
      delayStatus: "delayed",
      customer: null,
    });
    expect(r.rows.find((row) => row.shipmentId === "SHP-4")).toMatchObject({
      firstEta: "2026-12-10T00:00:00.000Z",
      eta: "2026-12-07T00:00:00.000Z",
      ata: null,
      atd: null,
      delayDays: -3,
      delayStatus: "early",
    });
    expect(r.rows.find((row) => row.shipmentId === "SHP-8")).toMatchObject({
      firstEta: null,
      ata: "2026-11-15T00:00:00.000Z",
      delayDays: null,
      delayStatus: "unknown",
    });
    expect(r.rows.find((row) => row.shipmentId === "SHP-7")).toMatchObject({
      firstEta: null,
      eta: null,
      origin: null,
      delayStatus: "unknown",
    });
  });

  it("filters by status, delay status, shipment type, sealine and q, and limits the rows only", async () => {
    const ids = async (filter: Record<string, unknown>) =>
      (await report(org.key, filter)).rows.map((row) => row.shipmentId).sort();
    expect(await ids({ status: "IN_TRANSIT" })).toEqual(["SHP-2", "SHP-4", "SHP-5", "SHP-8"]);
    expect(await ids({ delayStatus: "delayed" })).toEqual(["SHP-1", "SHP-3"]);
    expect(await ids({ delayStatus: "unknown" })).toEqual(["SHP-6", "SHP-7", "SHP-8"]);
    expect(await ids({ shipmentType: "Bill of Lading" })).toEqual(["SHP-3", "SHP-6"]);
    expect(await ids({ shipmentType: "Container", sealine: "mscu" })).toEqual(["SHP-4", "SHP-5"]);
    expect(await ids({ q: "acme" })).toEqual(["SHP-5"]);
    expect(await ids({ q: "meduab-123" })).toEqual(["SHP-3"]);
    expect(await ids({ q: "SHP-4" })).toEqual(["SHP-4"]);
    expect(await ids({ q: "hamburg" })).toEqual(["SHP-3"]);

    const delayed = await report(org.key, { sealine: "MSCU", status: "IN_TRANSIT" });
    expect(delayed.totals).toMatchObject({ shipments: 2, early: 1, onTime: 1, assessed: 2, onTimePct: 50 });

    const limited = await report(org.key, {}, 2);
    expect(limited.rows.map((row) => row.shipmentId)).toEqual(["SHP-8", "SHP-7"]);
    expect(limited.rowsTotal).toBe(8);
    expect(limited.totals.shipments).toBe(8);
  });

  it("shows another organisation only its own shipments", async () => {
    const r = await report(other.key);
    expect(r.totals).toMatchObject({ shipments: 1, delayed: 1, assessed: 1, avgDelayDays: 10 });
    expect(r.rows.map((row) => row.reference)).toEqual(["MAEU2000001"]);
    expect((await report(other.key, { q: "MAEU1000001" })).totals.shipments).toBe(0);
  });

  it("refuses bad filters with a clear error, never a 500", async () => {
    for (const [variables, message] of [
      [{ filter: { sealine: "MAERSK" } }, /sealine is a 4-character SCAC/],
      [{ filter: { shipmentType: "Pallet" } }, /shipmentType is Container or Bill of Lading/],
      [{ filter: { delayStatus: "late" } }, /DelayStatus/],
      [{ limit: 0 }, /limit is at least 1/],
      [{ limit: 501 }, /limit is at most 500/],
    ] as const) {
      const res = await graphql(app, org.key, REPORT, variables);
      expect(res.status).toBeLessThan(500);
      expect(res.body.errors?.[0]?.message).toMatch(message);
    }
    expect((await graphql(app, undefined, REPORT)).body.errors?.[0]?.extensions?.code).toBe(
      "UNAUTHENTICATED",
    );
  });
});

/** RFC 4180 as csv-stringify writes it: quoted fields, doubled quotes, CRLF or LF line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe("MIS exports", () => {
  async function exported(format: "CSV" | "XLSX", filter: Record<string, unknown> = {}, limit?: number) {
    const res = await graphql(app, org.key, EXPORT, { format, filter, limit });
    expect(res.body.errors).toBeUndefined();
    const file = res.body.data!.misReportExport as {
      fileName: string;
      contentType: string;
      byteLength: number;
      rows: number;
      contentBase64: string;
    };
    const content = Buffer.from(file.contentBase64, "base64");
    expect(content.length).toBe(file.byteLength);
    return { ...file, content };
  }

  it("writes the rows as CSV, with formula-like text made inert", async () => {
    const file = await exported("CSV");
    expect(file.fileName).toBe("quayside-mis-2026-11-20T1200Z.csv");
    expect(file.contentType).toBe("text/csv; charset=utf-8");
    const text = file.content.toString("utf8");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, ...lines] = parseCsv(text.slice(1));
    expect(header).toEqual([
      "shipment_id",
      "reference",
      "shipment_type",
      "sealine",
      "status",
      "origin",
      "destination",
      "atd",
      "first_eta",
      "eta",
      "ata",
      "delay_days",
      "delay_status",
      "customer",
    ]);
    expect(lines).toHaveLength(8);
    const byId = new Map(
      lines.map((line) => [line[0], Object.fromEntries(header!.map((h, i) => [h, line[i]]))]),
    );
    expect(byId.get("SHP-3")).toMatchObject({
      shipment_type: "Bill of Lading",
      origin: "Shanghai, China",
      first_eta: "2026-10-10T00:00:00.000Z",
      delay_days: "6.3",
      delay_status: "delayed",
    });
    expect(byId.get("SHP-4")).toMatchObject({ delay_days: "-3", delay_status: "early" });
    expect(byId.get("SHP-2")!.customer).toBe("'@Risk Trading");
    expect(byId.get("SHP-5")!.customer).toBe("Acme Imports");
    expect(file.rows).toBe(8);

    const delayed = await exported("CSV", { delayStatus: "delayed" });
    expect(
      parseCsv(delayed.content.toString("utf8").slice(1))
        .slice(1)
        .map((l) => l[0]),
    ).toEqual(["SHP-3", "SHP-1"]);
  });

  it("writes an XLSX workbook whose Summary, Carriers and Shipments sheets read back", async () => {
    const file = await exported("XLSX", {}, 3);
    expect(file.fileName).toBe("quayside-mis-2026-11-20T1200Z.xlsx");
    expect(file.contentType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.content as never);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Summary", "Carriers", "Shipments"]);

    const summary = new Map<string, unknown>();
    workbook.getWorksheet("Summary")!.eachRow((row, n) => {
      if (n > 1) summary.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(Object.fromEntries(summary)).toMatchObject({
      // A date cell, not text: a spreadsheet sorts and filters it as a date (issue 43).
      generated_at: new Date("2026-11-20T12:00:00.000Z"),
      shipments: 8,
      delayed: 2,
      on_time: 2,
      on_time_pct: 40,
      avg_delay_days: 1.3,
      p90_delay_days: 6.3,
    });

    const carriers = workbook.getWorksheet("Carriers")!;
    expect(carriers.getRow(1).getCell(1).value).toBe("sealine");
    expect([2, 3, 4].map((n) => carriers.getRow(n).getCell(1).value)).toEqual(["MAEU", "MSCU", "HLCU"]);
    expect(carriers.getRow(3).getCell(10).value).toBe(33.3); // on_time_pct of MSCU

    const shipments = workbook.getWorksheet("Shipments")!;
    expect(shipments.rowCount).toBe(4); // header + limit 3
    expect(file.rows).toBe(3);
    expect(shipments.getRow(2).values).toEqual([
      undefined,
      "SHP-8",
      "MAEU1000008",
      "Container",
      "MAEU",
      "IN_TRANSIT",
      "Shanghai, China",
      "Rotterdam, Netherlands",
      undefined,
      undefined,
      new Date("2026-11-15T00:00:00.000Z"),
      new Date("2026-11-15T00:00:00.000Z"),
      undefined,
      "unknown",
    ]);
    // Date cells carry a date format, so they show as dates, not serial numbers.
    expect(shipments.getRow(2).getCell(10).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(shipments.getRow(2).getCell(10).type).toBe(ExcelJS.ValueType.Date);
  });

  it("exports only the caller's organisation", async () => {
    const res = await graphql(app, other.key, EXPORT, { format: "CSV" });
    const text = Buffer.from(
      (res.body.data!.misReportExport as { contentBase64: string }).contentBase64,
      "base64",
    )
      .toString("utf8")
      .slice(1);
    expect(
      parseCsv(text)
        .slice(1)
        .map((l) => l[1]),
    ).toEqual(["MAEU2000001"]);
  });
});
