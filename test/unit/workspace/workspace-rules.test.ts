/** The workspace's pure rules: sniffing, file names, ticket statuses, quote expiry and sameness. */
import { describe, expect, it } from "vitest";
import { looksLikeCsv, sniffDocument } from "../../../src/domain/workspace/document-sniff";
import { sanitiseFileName } from "../../../src/domain/workspace/file-name";
import { quoteRequestNumberOf, ticketNumberOf } from "../../../src/domain/workspace/numbers";
import {
  calendarDay,
  effectiveQuoteStatus,
  quoteFingerprint,
} from "../../../src/domain/workspace/quote-requests.service";
import { operatorTransition, statusAfterCustomerReply } from "../../../src/domain/workspace/tickets.service";
import { pdfBytes, pngBytes, xlsxBytes, zipBytes } from "../../support/workspace";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("sniffing", () => {
  it("knows each allowed type by its bytes", async () => {
    const jpeg = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0);
    const tiff = bytes(0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect(await sniffDocument(pdfBytes())).toEqual({
      ok: true,
      contentType: "application/pdf",
      extension: "pdf",
    });
    expect(await sniffDocument(pngBytes())).toMatchObject({ ok: true, contentType: "image/png" });
    expect(await sniffDocument(jpeg)).toMatchObject({
      ok: true,
      contentType: "image/jpeg",
      extension: "jpg",
    });
    expect(await sniffDocument(tiff)).toMatchObject({
      ok: true,
      contentType: "image/tiff",
      extension: "tif",
    });
    expect(await sniffDocument(xlsxBytes())).toMatchObject({ ok: true, extension: "xlsx" });
    expect(await sniffDocument(new TextEncoder().encode("a;b\n1;2\n"))).toMatchObject({
      contentType: "text/csv",
    });
  });

  it("names what it refuses: a zip that is no workbook, a GIF, an executable", async () => {
    expect(await sniffDocument(zipBytes({ "readme.txt": "hello" }))).toEqual({
      ok: false,
      found: "application/zip",
    });
    expect(await sniffDocument(new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))).toEqual({
      ok: false,
      found: "image/gif",
    });
    expect((await sniffDocument(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0))).ok).toBe(
      false,
    );
  });

  it("takes delimited UTF-8 text for CSV, and refuses markup, binary and one column", () => {
    const text = (t: string) => new TextEncoder().encode(t);
    expect(looksLikeCsv(text('\uFEFFname,"note, with comma"\nA,"multi\nline"\n'))).toBe(true);
    expect(looksLikeCsv(text("a\tb\n1\t2"))).toBe(true);
    expect(looksLikeCsv(text("<html>,<body>\n"))).toBe(false);
    expect(looksLikeCsv(text('{"a":1,"b":2}'))).toBe(false);
    expect(looksLikeCsv(text("only,\u0000nul"))).toBe(false);
    expect(looksLikeCsv(bytes(0x61, 0x2c, 0xff, 0xfe))).toBe(false);
    expect(looksLikeCsv(text("one column\nno delimiter\n"))).toBe(false);
    expect(looksLikeCsv(text('a,"unclosed\nb,c\n'))).toBe(false);
  });
});

describe("file names", () => {
  it("keeps the last segment, drops control and override characters, and ends with the true extension", () => {
    expect(sanitiseFileName("..\\..\\windows\\bl.pdf", "pdf")).toBe("bl.pdf");
    expect(sanitiseFileName("in\u202Egnp.exe", "pdf")).toBe("ingnp.exe.pdf");
    expect(sanitiseFileName('a<b>:"c"|?*.PDF', "pdf")).toBe("a_b___c____.pdf");
    expect(sanitiseFileName("photo.JPEG", "jpg")).toBe("photo.jpeg");
    expect(sanitiseFileName("...", "csv")).toBe("document.csv");
    expect(sanitiseFileName(`${"x".repeat(300)}.pdf`, "pdf")).toHaveLength(200);
    expect(sanitiseFileName(`${"y".repeat(300)}`, "png")).toMatch(/^y{196}\.png$/);
  });
});

describe("numbers", () => {
  it("read TCK and RFQ numbers as people write them", () => {
    expect(ticketNumberOf("tck - 12")).toBe(12n);
    expect(ticketNumberOf("RFQ-12")).toBeNull();
    expect(quoteRequestNumberOf("rfq12")).toBe(12n);
    expect(ticketNumberOf(`TCK-${"9".repeat(19)}`)).toBeNull();
  });
});

describe("ticket statuses", () => {
  it("reopen on the customer's reply, except a new or closed ticket", () => {
    expect(statusAfterCustomerReply("NEW")).toBe("NEW");
    for (const s of ["OPEN", "PENDING", "ON_HOLD", "SOLVED"] as const)
      expect(statusAfterCustomerReply(s)).toBe("OPEN");
    expect(statusAfterCustomerReply("CLOSED")).toBe("closed");
  });
  it("let the operator close only solved tickets and never go back to new", () => {
    expect(operatorTransition("OPEN", "CLOSED")).toMatch(/solved/);
    expect(operatorTransition("SOLVED", "CLOSED")).toBeNull();
    expect(operatorTransition("PENDING", "NEW")).toMatch(/new again/);
    expect(operatorTransition("NEW", "NEW")).toBeNull();
    expect(operatorTransition("CLOSED", "OPEN")).toMatch(/closed/);
  });
});

describe("quote requests", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  it("expire when the quote's validity has ended, at that instant", () => {
    const quoted = { status: "QUOTED" as const, quoteValidUntil: now };
    expect(effectiveQuoteStatus(quoted, new Date(now.getTime() - 1))).toBe("QUOTED");
    expect(effectiveQuoteStatus(quoted, now)).toBe("EXPIRED");
    expect(effectiveQuoteStatus({ status: "BOOKED", quoteValidUntil: now }, now)).toBe("BOOKED");
  });
  it("are the same request whatever the case and spacing of their words", () => {
    const base = {
      origin: "CNSHA",
      destination: "NLRTM",
      containerType: "40HC",
      quantity: 2,
      readyDate: now,
      commodity: "Flat-pack furniture",
    };
    const same = quoteFingerprint("org", base);
    expect(quoteFingerprint("org", { ...base, origin: "cnsha", commodity: "  flat-pack   FURNITURE " })).toBe(
      same,
    );
    expect(quoteFingerprint("org", { ...base, quantity: 3 })).not.toBe(same);
    expect(quoteFingerprint("other", base)).not.toBe(same);
  });
  it("read ready dates as calendar days only", () => {
    expect(calendarDay("2026-12-31")?.toISOString()).toBe("2026-12-31T00:00:00.000Z");
    expect(calendarDay("2026-02-29")).toBeNull();
    expect(calendarDay("31/12/2026")).toBeNull();
  });
});
