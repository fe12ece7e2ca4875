import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPort } from "../../../src/domain/ports/port-directory";
import { ManualClock } from "../../../src/lib/clock";
import { buildRegistry, createCarrierTracker } from "../../../src/upstream/carriers/carrier-registry";
import { resolveCopPlace } from "../../../src/upstream/carriers/cosco-cop.adapter";
import {
  copLocalToRfc3339,
  copMoveCode,
  mapCopTracking,
} from "../../../src/upstream/carriers/cosco-cop.mapper";
import { parseCopAuthorization, signCopRequest } from "../../../src/upstream/carriers/cosco-cop.signing";
import { mapDcsaEvents } from "../../../src/upstream/carriers/dcsa-tnt.mapper";
import { json, startTestServer, type TestServer } from "./test-server";

const blAnswer = JSON.parse(
  readFileSync(new URL("../../fixtures/cosco-cop/bl-answer.json", import.meta.url), "utf8"),
);
const fetchedAt = new Date("2026-10-05T08:00:00Z");

describe("COP request signing (cop-cos/COP README_en.md, Hmac Auth)", () => {
  it("signs a GET exactly as the documented algorithm does (vector computed with openssl)", () => {
    // printf 'X-Coscon-Date: ...\nX-Coscon-Digest: SHA-256=<sha256 of nothing>\nX-Coscon-Content-Md5:
    // <md5 of nonce-1>\nGET /service/info/tracking/6103622780?numberType=bl HTTP/1.1'
    //   | openssl dgst -sha1 -hmac test-secret -binary | base64
    const headers = signCopRequest(
      { apiKey: "test-key", secretKey: "test-secret" },
      {
        method: "GET",
        pathAndQuery: "/service/info/tracking/6103622780?numberType=bl",
        date: new Date("2026-11-26T19:40:39Z"),
        nonce: "nonce-1",
      },
    );
    expect(headers).toEqual({
      "X-Coscon-Date": "Thu, 26 Nov 2026 19:40:39 GMT",
      "X-Coscon-Digest": "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
      "X-Coscon-Content-Md5": "32cd21a04443fe11c0ea1d2257067306",
      "X-Coscon-Hmac": "32cd21a04443fe11c0ea1d2257067306",
      "X-Coscon-Authorization":
        'hmac username="test-key",algorithm="hmac-sha1",headers="X-Coscon-Date X-Coscon-Digest X-Coscon-Content-Md5 request-line",signature="TR8Hyx994BPDsA4CfuJipJZLOqM="',
    });
    expect(parseCopAuthorization(headers["X-Coscon-Authorization"])?.username).toBe("test-key");
  });

  it("gives another signature for another secret, path or time", () => {
    const sign = (secretKey: string, pathAndQuery: string, at: string) =>
      parseCopAuthorization(
        signCopRequest(
          { apiKey: "k", secretKey },
          { method: "GET", pathAndQuery, date: new Date(at), nonce: "n" },
        )["X-Coscon-Authorization"],
      )?.signature;
    const base = sign("s", "/service/info/tracking/1?numberType=bl", "2026-01-01T00:00:00Z");
    expect(sign("t", "/service/info/tracking/1?numberType=bl", "2026-01-01T00:00:00Z")).not.toBe(base);
    expect(sign("s", "/service/info/tracking/2?numberType=bl", "2026-01-01T00:00:00Z")).not.toBe(base);
    expect(sign("s", "/service/info/tracking/1?numberType=bl", "2026-01-01T00:00:01Z")).not.toBe(base);
  });
});

describe("COP cargo tracking -> tracking document", () => {
  const toDocument = (raw: unknown) => {
    const cop = mapCopTracking(raw, { referenceType: "bl", fetchedAt, resolvePlace: resolveCopPlace });
    if (cop.kind !== "found") throw new Error(`expected found, got ${cop.kind}`);
    const mapped = mapDcsaEvents(cop.events, {
      reference: "6201234567",
      referenceType: "bl",
      carrierScac: "COSU",
      fetchedAt,
      locationLookup: findPort,
    });
    if (!mapped.ok) throw new Error(mapped.detail);
    return mapped.document;
  };

  it("reads COSCO's status words as DCSA codes and leaves unknown ones out", () => {
    expect(copMoveCode("Empty Equipment Despatched")).toEqual({ code: "GTOT", empty: "EMPTY" });
    expect(copMoveCode("Gate-In at First POL")).toEqual({ code: "GTIN", empty: "LADEN" });
    expect(copMoveCode("Loaded at T/S POL")).toEqual({ code: "LOAD", empty: "LADEN" });
    expect(copMoveCode("Discharged at Last POD")).toEqual({ code: "DISC", empty: "LADEN" });
    expect(copMoveCode("Gate-out from Final Hub")).toEqual({ code: "GTOT", empty: "LADEN" });
    expect(copMoveCode("Empty Equipment Returned")).toEqual({ code: "GTIN", empty: "EMPTY" });
    expect(copMoveCode("Cargo Received")).toBeUndefined();
  });

  it("gives COP's wall-clock times the offset of the place's zone", () => {
    expect(copLocalToRfc3339("2026-10-03 09:40", "Asia/Shanghai")).toBe("2026-10-03T09:40:00+08:00");
    expect(copLocalToRfc3339("2026-07-01 12:00", "Europe/Amsterdam")).toBe("2026-07-01T12:00:00+02:00");
    expect(copLocalToRfc3339("2026-11-08 06:00", "Europe/Amsterdam")).toBe("2026-11-08T06:00:00+01:00");
    expect(copLocalToRfc3339("yesterday", "Asia/Shanghai")).toBeUndefined();
  });

  it("maps a B/L answer: the leg's vessel and voyage, places by UN/LOCODE, each box's move", () => {
    const document = toDocument(blAnswer);
    expect(document.carrierScac).toBe("COSU");
    expect(document.status).toBe("IN_TRANSIT");
    expect(document.locations.map((l) => l.unLocode).sort()).toEqual(["CNSHA", "NLRTM"]);
    expect(document.vessels.map((v) => v.name)).toEqual(["COSCO SHIPPING ARIES"]);
    expect(document.containers.map((c) => c.number).sort()).toEqual(["CBHU9024685", "CSNU6123450"]);
    const loaded = document.containers.find((c) => c.number === "CSNU6123450");
    const load = loaded?.events.find((e) => e.eventCode === "LOAD");
    expect(load).toMatchObject({
      actual: true,
      localDateTime: "2026-10-03 09:40:00",
      utcOffset: "+08:00",
      voyage: "045W",
      locationKey: "CNSHA",
    });
    const arrival = loaded?.events.find((e) => e.eventCode === "ARRI");
    expect(arrival).toMatchObject({
      actual: false,
      localDateTime: "2026-11-08 06:00:00",
      locationKey: "NLRTM",
    });
    expect(document.route.pod.locationKey).toBe("NLRTM");
    expect(document.route.pol.locationKey).toBe("CNSHA");
  });

  it("answers not found for COP's documented 'none' answer and malformed for an error code", () => {
    const context = { referenceType: "bl" as const, fetchedAt, resolvePlace: resolveCopPlace };
    expect(
      mapCopTracking(
        { code: 0, message: "success", data: { type: "none", numberType: "none", content: null } },
        context,
      ),
    ).toEqual({ kind: "not-found" });
    expect(mapCopTracking({ code: 5400, message: "参数异常", data: null }, context)).toMatchObject({
      kind: "malformed",
    });
    expect(mapCopTracking([1, 2], context)).toMatchObject({ kind: "malformed" });
    const nowhere = structuredClone(blAnswer);
    nowhere.data.content.actualShipment = [];
    for (const group of nowhere.data.content.containerStatus) {
      for (const box of group.containers) box.location = "Somewhere,Atlantis,,Nowhere";
    }
    expect(mapCopTracking(nowhere, context)).toMatchObject({
      kind: "malformed",
      reason: expect.stringContaining('no UN/LOCODE for COP place "Somewhere,Atlantis,,Nowhere"'),
    });
  });
});

describe("COSU through the cosco-cop adapter over HTTP", () => {
  let server: TestServer;
  const secrets = { apiKey: "cop-key", secretKey: "cop-secret" };
  beforeAll(async () => {
    server = await startTestServer();
    // A COP endpoint that checks the signature the way its gateway documents it.
    server.handle((req, res) => {
      const auth = parseCopAuthorization(String(req.headers["x-coscon-authorization"] ?? ""));
      const text = [
        `X-Coscon-Date: ${req.headers["x-coscon-date"]}`,
        `X-Coscon-Digest: SHA-256=${createHash("sha256").update(req.body).digest("base64")}`,
        `X-Coscon-Content-Md5: ${req.headers["x-coscon-content-md5"]}`,
        `${req.method} ${req.path}?${req.query.toString()} HTTP/1.1`,
      ].join("\n");
      const expected = createHmac("sha1", secrets.secretKey).update(text).digest("base64");
      if (auth?.username !== secrets.apiKey || auth.signature !== expected) {
        json(res, 401, { code: 401, message: "HMAC signature cannot be verified" });
        return;
      }
      if (req.path === "/service/info/tracking/6201234567" && req.query.get("numberType") === "bl") {
        json(res, 200, blAnswer);
        return;
      }
      json(res, 200, {
        code: 0,
        message: "success",
        data: { type: "none", numberType: "none", content: null },
      });
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const trackerWith = (secretKey: string) =>
    createCarrierTracker(
      buildRegistry(
        {
          carriers: {
            COSU: {
              name: "COSCO Shipping Lines",
              adapter: "cosco-cop",
              baseUrl: `${server.url}/service`,
              auth: { kind: "cop-hmac", apiKeyEnv: "COP_KEY", secretKeyEnv: "COP_SECRET" },
              rateLimit: { perDay: 1000 },
            },
          },
        },
        { env: { COP_KEY: secrets.apiKey, COP_SECRET: secretKey } },
      ),
      { clock: new ManualClock(fetchedAt) },
    );

  it("tracks a B/L with a signed request and maps the answer", async () => {
    const answer = await trackerWith(secrets.secretKey).track({
      scac: "COSU",
      reference: "6201234567",
      referenceType: "bl",
    });
    expect(answer.kind).toBe("found");
    if (answer.kind !== "found") return;
    expect(answer.document.containers.map((c) => c.number).sort()).toEqual(["CBHU9024685", "CSNU6123450"]);
  });

  it("answers not found for a number COP does not know", async () => {
    const answer = await trackerWith(secrets.secretKey).track({
      scac: "COSU",
      reference: "6209999999",
      referenceType: "booking",
    });
    expect(answer).toEqual({ kind: "not-found" });
    expect(server.requests.at(-1)?.query.get("numberType")).toBe("bkg");
  });

  it("is refused as unauthorized with a wrong secret", async () => {
    const answer = await trackerWith("not-the-secret").track({
      scac: "COSU",
      reference: "6201234567",
      referenceType: "bl",
    });
    expect(answer).toMatchObject({ kind: "unauthorized" });
  });
});

describe("the registry's cosco-cop entries", () => {
  const entry = {
    name: "COSCO Shipping Lines",
    adapter: "cosco-cop" as const,
    baseUrl: "https://api.lines.coscoshipping.com/service",
    auth: { kind: "cop-hmac" as const, apiKeyEnv: "COP_KEY", secretKeyEnv: "COP_SECRET" },
  };

  it("is connected in live mode only with both keys set", () => {
    expect(buildRegistry({ carriers: { COSU: entry } }, { env: {} }).connected("COSU")).toBe(false);
    const live = buildRegistry({ carriers: { COSU: entry } }, { env: { COP_KEY: "k", COP_SECRET: "s" } });
    expect(live.connected("COSU")).toBe(true);
    expect(live.get("COSU")?.adapter).toBe("cosco-cop");
  });

  it("is asked in DCSA at the simulator in embedded mode", () => {
    const embedded = buildRegistry({ carriers: { COSU: entry } }, { env: {}, simulatorUrl: "http://sim" });
    expect(embedded.get("COSU")).toMatchObject({ adapter: "dcsa-tnt-2.2", baseUrl: "http://sim/COSU" });
  });
});
