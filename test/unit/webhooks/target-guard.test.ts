import type { LookupAddress } from "node:dns";
import http from "node:http";
import { describe, expect, it, vi } from "vitest";
import {
  checkTarget,
  classifyAddress,
  guardedLookup,
  type Lookup,
  MAX_TARGET_LENGTH,
  REFUSED_RANGE_KINDS,
  RESOLVE_TIMEOUT_MS,
  resolveTarget,
} from "../../../src/domain/webhooks/target-guard";
import { startReceiver } from "../../support/receiver";

const strict = { allowPrivate: false };
const accepted = "accepted" as const;

/**
 * Each row: a webhook URL as a user would type it, and what the guard answers in production mode
 * (QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS=false): accepted, or the reason it is refused.
 */
const TARGETS: readonly [url: string, expected: typeof accepted | RegExp][] = [
  // IPv4 spelled every way WHATWG URL parsing (the sender's parser) turns into 127.0.0.1
  ["https://127.0.0.1/hooks", /^127\.0\.0\.1 is a loopback address$/],
  ["https://2130706433/", /^127\.0\.0\.1 is a loopback/],
  ["https://0x7f.1/", /^127\.0\.0\.1 is a loopback/],
  ["https://127.1/", /^127\.0\.0\.1 is a loopback/],
  ["https://0177.0.0.1/", /^127\.0\.0\.1 is a loopback/],
  ["https://0x7f000001/", /^127\.0\.0\.1 is a loopback/],
  ["https://017700000001/", /^127\.0\.0\.1 is a loopback/],
  ["https://127.0.0.1./", /^127\.0\.0\.1 is a loopback/],
  ["https://%31%32%37.0.0.1/", /^127\.0\.0\.1 is a loopback/],
  ["https://127\u30020\u30020\u30021/", /^127\.0\.0\.1 is a loopback/],
  ["https://127.255.255.254:8443/", /is a loopback/],
  // every other IPv4 range that is not the public internet
  ["https://0/", /^0\.0\.0\.0 is a this-network address/],
  ["https://0.1.2.3/", /this-network/],
  ["https://10.1.2.3/", /^10\.1\.2\.3 is a private address$/],
  ["https://172.16.0.1/", /private/],
  ["https://172.31.255.255/", /private/],
  ["https://192.168.1.10/", /private/],
  ["https://100.64.0.1/", /carrier-grade NAT/],
  ["https://100.100.100.200/latest/meta-data", /carrier-grade NAT/],
  ["https://169.254.169.254/latest/meta-data", /link-local .*metadata/],
  ["https://0xa9fea9fe/", /^169\.254\.169\.254 is a link-local/],
  ["https://192.0.0.192/", /IETF protocol/],
  ["https://192.0.2.1/", /documentation/],
  ["https://198.51.100.7/", /documentation/],
  ["https://203.0.113.9/", /documentation/],
  ["https://198.18.0.1/", /benchmarking/],
  ["https://192.88.99.1/", /6to4 relay/],
  ["https://224.0.0.1/", /multicast/],
  ["https://240.0.0.1/", /reserved/],
  ["https://255.255.255.255/", /broadcast/],
  // IPv6 loopback, unspecified and the ranges that never leave a site
  ["https://[::1]/", /^::1 is a loopback address$/],
  ["https://[::1]:8443/hooks", /loopback/],
  ["https://[0:0:0:0:0:0:0:1]/", /^::1 is a loopback/],
  ["https://[::]/", /unspecified/],
  ["https://[fc00::1]/", /unique-local/],
  ["https://[fd00::1]/", /unique-local/],
  ["https://[fd00:ec2::254]/latest/meta-data", /unique-local/],
  ["https://[fe80::1]/", /link-local/],
  ["https://[febf::1]/", /link-local/],
  ["https://[fec0::1]/", /^fec0::1 is a deprecated site-local address$/],
  ["https://[ff02::1]/", /multicast/],
  ["https://[ff05::1:3]/", /multicast/],
  ["https://[100::1]/", /discard-only/],
  ["https://[2001:db8::1]/", /documentation/],
  ["https://[3fff::1]/", /documentation/],
  ["https://[2001:2::1]/", /IETF protocol/],
  ["https://[2001:10::1]/", /IETF protocol/],
  ["https://[5f00::1]/", /outside global unicast/],
  ["https://[4000::1]/", /outside global unicast/],
  // IPv6 forms that carry an IPv4 address: judged by the IPv4 address they reach
  ["https://[::127.0.0.1]/", /^::7f00:1 is a deprecated IPv4-compatible address$/],
  ["https://[::8.8.8.8]/", /IPv4-compatible/],
  [
    "https://[::ffff:127.0.0.1]/",
    /^::ffff:7f00:1 is an IPv4-mapped address embedding 127\.0\.0\.1, a loopback/,
  ],
  ["https://[::ffff:7f00:1]/", /IPv4-mapped address embedding 127\.0\.0\.1/],
  ["https://[::ffff:169.254.169.254]/", /IPv4-mapped address embedding 169\.254\.169\.254, a link-local/],
  ["https://[::ffff:10.0.0.1]/", /IPv4-mapped address embedding 10\.0\.0\.1, a private/],
  ["https://[::ffff:0:7f00:1]/", /^::ffff:0:7f00:1 is an IPv4-translated address embedding 127\.0\.0\.1/],
  ["https://[::ffff:0:a00:1]/", /IPv4-translated address embedding 10\.0\.0\.1/],
  ["https://[2002:7f00:1::]/", /^2002:7f00:1:: is a 6to4 address embedding 127\.0\.0\.1, a loopback/],
  ["https://[2002:a9fe:a9fe::1]/", /6to4 address embedding 169\.254\.169\.254/],
  ["https://[2002:c0a8:101::1]/", /6to4 address embedding 192\.168\.1\.1/],
  // Teredo: client 127.0.0.1 (last 32 bits inverted), then server 10.0.0.1 (bits 32-64)
  ["https://[2001:0:808:808::80ff:fffe]/", /Teredo address \(client\) embedding 127\.0\.0\.1/],
  ["https://[2001:0:a00:1::f7f7:f7f7]/", /Teredo address \(server\) embedding 10\.0\.0\.1/],
  ["https://[64:ff9b::127.0.0.1]/", /^64:ff9b::7f00:1 is a NAT64 address embedding 127\.0\.0\.1/],
  ["https://[64:ff9b::a9fe:a9fe]/", /NAT64 address embedding 169\.254\.169\.254/],
  ["https://[64:ff9b:1::808:808]/", /local-use NAT64/],
  ["https://[64:ff9b:1:ffff::1]/", /local-use NAT64/],
  // zone ids are not URLs at all
  ["https://[fe80::1%25eth0]/", /not a valid URL/],
  ["https://[fe80::1%eth0]/", /not a valid URL/],
  // names that mean this machine whatever a resolver says (RFC 6761), in any case, with a trailing dot
  ["https://localhost/hooks", /^localhost names this machine$/],
  ["https://LOCALHOST/", /^localhost names this machine$/],
  ["https://localhost./", /^localhost\. names this machine$/],
  ["https://api.localhost/", /^api\.localhost names this machine$/],
  ["https://a.b.LocalHost.:9000/", /^a\.b\.localhost\. names this machine$/],
  // userinfo: the address decides; a public host with credentials is refused for the credentials
  ["https://example.com@127.0.0.1/", /^127\.0\.0\.1 is a loopback/],
  ["https://example.com:443@[::1]/", /^::1 is a loopback/],
  ["https://user:pass@example.com/hooks", /^the URL must not carry credentials$/],
  ["https://127.0.0.1@example.com/", /^the URL must not carry credentials$/],
  // scheme and shape
  ["http://example.com/hooks", /^the URL must use https$/],
  ["http://127.0.0.1:8080/hooks", /^127\.0\.0\.1 is a loopback/],
  ["ftp://example.com/", /^the URL must use https$/],
  ["file:///etc/passwd", /^the URL must use https$/],
  ["gopher://127.0.0.1:6379/_INFO", /^the URL must use https$/],
  ["not a url", /^not a valid URL$/],
  ["https://256.0.0.1/", /^not a valid URL$/],
  ["https://[::1/", /^not a valid URL$/],
  [`https://example.com/${"a".repeat(MAX_TARGET_LENGTH)}`, /longer than 2048 characters/],
  // public addresses and names stay usable
  ["https://8.8.8.8/", accepted],
  ["https://1.1.1.1:8443/hooks", accepted],
  ["https://93.184.215.14/", accepted],
  ["https://172.32.0.1/", accepted],
  ["https://100.128.0.1/", accepted],
  ["https://[2606:4700::1111]/", accepted],
  ["https://[2001:4860:4860::8888]/", accepted],
  ["https://[::ffff:8.8.8.8]/", accepted],
  ["https://[64:ff9b::8.8.8.8]/", accepted],
  ["https://[2002:808:808::1]/", accepted],
  ["https://[2001:0:808:808::f7f7:f7f7]/", accepted],
  ["https://example.com/hooks", accepted],
  ["https://EXAMPLE.com./hooks?x=1", accepted],
  ["https://localhost.example.com/", accepted],
  ["https://example.com\\@127.0.0.1/", accepted], // WHATWG reads `\` as `/`: the host is example.com
];

describe("webhook target guard", () => {
  // A count of the rows would only measure this table; what matters is that no kind of range the
  // guard refuses goes without a URL that reaches it.
  it("has a row refused for every kind of non-public range the guard knows", () => {
    const reasons = TARGETS.map(([url]) => checkTarget(url, strict)).flatMap((v) => (v.ok ? [] : [v.reason]));
    const untried = REFUSED_RANGE_KINDS.filter(
      (kind) => !reasons.some((reason) => reason.endsWith(` ${kind}`)),
    );
    expect(untried).toEqual([]);
  });

  it.each(TARGETS)("%s -> %s", (url, expected) => {
    const verdict = checkTarget(url, strict);
    if (expected === accepted) {
      expect(verdict).toMatchObject({ ok: true });
    } else {
      expect(verdict.ok).toBe(false);
      expect(verdict.ok ? "" : verdict.reason).toMatch(expected);
    }
  });

  it("allows any address and plain http when private targets are allowed, and still refuses other schemes", () => {
    const dev = { allowPrivate: true };
    expect(checkTarget("http://127.0.0.1:8080/hooks", dev)).toMatchObject({
      ok: true,
      host: { kind: "address", address: "127.0.0.1" },
    });
    expect(checkTarget("https://[::ffff:0:7f00:1]/", dev)).toMatchObject({ ok: true });
    expect(checkTarget("https://localhost/", dev)).toMatchObject({ ok: true, host: { kind: "name" } });
    expect(checkTarget("ftp://127.0.0.1/", dev)).toMatchObject({ ok: false });
    expect(checkTarget("https://u:p@127.0.0.1/", dev)).toMatchObject({ ok: false });
  });

  it("judges what a resolver answers, including the forms no URL would show", () => {
    expect(classifyAddress("127.0.0.1")).toEqual({
      public: false,
      reason: "127.0.0.1 is a loopback address",
    });
    expect(classifyAddress("::ffff:127.0.0.1").public).toBe(false);
    expect(classifyAddress("0:0:0:0:0:ffff:7f00:0001").public).toBe(false);
    expect(classifyAddress("FE80::1").public).toBe(false);
    expect(classifyAddress("fe80::1%eth0")).toEqual({
      public: false,
      reason: "fe80::1%eth0 carries an IPv6 zone id",
    });
    expect(classifyAddress("0177.0.0.1")).toEqual({
      public: false,
      reason: "0177.0.0.1 is not an IP address",
    });
    expect(classifyAddress("1::2::3").public).toBe(false);
    expect(classifyAddress("1:2:3:4:5:6:7:8:9").public).toBe(false);
    expect(classifyAddress("8.8.8.8")).toEqual({ public: true });
    expect(classifyAddress("2606:4700:4700::1111")).toEqual({ public: true });
  });
});

const answering =
  (...answers: string[][]): Lookup =>
  (_hostname, _options, callback) => {
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    callback(
      null,
      next.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };

function connectLookup(hostname: string, lookup?: Lookup, all = false) {
  return new Promise<{ error: (Error & { code?: string }) | null; address: unknown }>((resolve) =>
    guardedLookup(strict, lookup)(hostname, { all }, (error, address) => resolve({ error, address })),
  );
}

describe("names, resolved", () => {
  it("refuses at creation a name the system resolver answers with loopback", async () => {
    // As if the name rule did not exist: what the resolver says is refused on its own.
    const passed = {
      ok: true,
      url: new URL("https://localhost/hooks"),
      host: { kind: "name", name: "localhost" },
    } as const;
    expect(await resolveTarget(passed, strict)).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^localhost resolves to a non-public address: (127\.0\.0\.1|::1) is a loopback address$/,
      ),
    });
  });

  it("refuses at creation a name any of whose addresses is private, and one that does not resolve", async () => {
    const target = checkTarget("https://hooks.example.com/in", strict);
    if (!target.ok) throw new Error("unreachable");
    expect(await resolveTarget(target, strict, answering(["93.184.215.14", "10.0.0.7"]))).toEqual({
      ok: false,
      reason: "hooks.example.com resolves to a non-public address: 10.0.0.7 is a private address",
    });
    expect(await resolveTarget(target, strict, answering(["2002:7f00:1::"]))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/6to4 address embedding 127\.0\.0\.1/),
    });
    expect(await resolveTarget(target, strict, answering([]))).toEqual({
      ok: false,
      reason: "hooks.example.com does not resolve",
    });
    expect(await resolveTarget(target, strict, answering(["93.184.215.14"]))).toBe(target);
  });

  it("refuses at creation a name whose resolver does not answer within 3 s, without waiting longer", async () => {
    const target = checkTarget("https://hooks.example.com/in", strict);
    if (!target.ok) throw new Error("unreachable");
    vi.useFakeTimers();
    try {
      const silent: Lookup = () => undefined;
      const verdict = resolveTarget(target, strict, silent);
      await vi.advanceTimersByTimeAsync(RESOLVE_TIMEOUT_MS);
      expect(await verdict).toEqual({ ok: false, reason: "hooks.example.com did not resolve within 3 s" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses at connect time through the system resolver: localhost and any name under it", async () => {
    const direct = await connectLookup("localhost");
    expect(direct.error?.code).toBe("EBLOCKEDADDRESS");
    expect(direct.error?.message).toMatch(
      /^blocked: localhost resolves to a non-public address: (127\.0\.0\.1|::1) is a loopback address$/,
    );
    const sub = await connectLookup("hooks.localhost");
    expect(sub.error?.message).toBe("blocked: hooks.localhost names this machine");
    const answeredPublic = await connectLookup("hooks.localhost", answering(["93.184.215.14"]));
    expect(answeredPublic.error?.message).toBe("blocked: hooks.localhost names this machine");
  });

  it("stops a real request before it connects: the receiver sees no connection", async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const error = await new Promise<Error & { code?: string }>((resolve, reject) => {
        const request = http.request(
          `http://localhost:${port}/hooks`,
          { method: "POST", lookup: guardedLookup(strict) },
          () => reject(new Error("answered")),
        );
        request.on("error", resolve);
        request.end("{}");
      });
      expect(error.code).toBe("EBLOCKEDADDRESS");
      expect(receiver.connections()).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("refuses at connect time a name that answered public at creation and private now (DNS rebinding)", async () => {
    const rebinding = answering(["93.184.215.14"], ["127.0.0.1"]);
    const target = checkTarget("https://rebind.example.net/", strict);
    if (!target.ok) throw new Error("unreachable");
    expect((await resolveTarget(target, strict, rebinding)).ok).toBe(true);
    const connect = await connectLookup("rebind.example.net", rebinding);
    expect(connect.error?.message).toBe(
      "blocked: rebind.example.net resolves to a non-public address: 127.0.0.1 is a loopback address",
    );
  });

  it("hands a public answer to the socket in the form it asked for", async () => {
    const one = await connectLookup("hooks.example.com", answering(["93.184.215.14", "2606:4700::1111"]));
    expect(one).toEqual({ error: null, address: "93.184.215.14" });
    const all = await connectLookup(
      "hooks.example.com",
      answering(["93.184.215.14", "2606:4700::1111"]),
      true,
    );
    expect(all.address).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2606:4700::1111", family: 6 },
    ]);
  });
});
