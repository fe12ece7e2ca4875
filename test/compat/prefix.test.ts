import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { refusalEnvelope, successEnvelope } from "./compat-schema";

/**
 * The compat surface under a prefix of the operator's choosing (`QUAYSIDE_COMPAT_PREFIX`): one of its
 * own (answered by compat's direct lane) and one under `/api` (beside the v1 API and partner inbound,
 * where Express's full walk decides), each answering compat in its envelope and leaving the other
 * surfaces as they are.
 */
describe.each([
  { prefix: "/searates/v3", lane: "compat's own lane" },
  { prefix: "/api/compat", lane: "the full walk" },
])("compat under $prefix ($lane)", ({ prefix }) => {
  let app: TestApp;
  let org: OrgWithKey;
  beforeAll(async () => {
    app = await startTestApp({ env: { QUAYSIDE_COMPAT_PREFIX: prefix } });
    org = await app.fixtures.organization({ plan: "professional" });
  });
  afterAll(() => app?.stop());

  it("answers its operations, its unknown paths and its verbs in the envelope", async () => {
    const sealines = await fetch(`${app.url}${prefix}/info/sealines?api_key=${org.key}`);
    expect(sealines.status).toBe(200);
    expect(successEnvelope.parse(await sealines.json()).message).toBe("OK");

    for (const path of [`${prefix}/no-such-operation`, prefix, `${prefix}/`]) {
      const unknown = await fetch(`${app.url}${path}?api_key=${org.key}`);
      expect(unknown.status).toBe(200);
      expect(refusalEnvelope.parse(await unknown.json()).message).toBe("WRONG_PARAMETERS");
    }
    const posted = await fetch(`${app.url}${prefix}/tracking?api_key=${org.key}&number=MSCU1234565`, {
      method: "POST",
    });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET");
    expect(refusalEnvelope.parse(await posted.json()).message).toBe("WRONG_PARAMETERS");

    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toContain(`route="${prefix}/info/sealines"`);
  });

  it("leaves v1 and the default compat path as they are", async () => {
    const carriers = await fetch(`${app.url}/api/v1/carriers`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(carriers.status).toBe(200);
    const oldPath = await fetch(`${app.url}/compat/info/sealines?api_key=${org.key}`);
    expect(oldPath.status).toBe(404);
    expect(await oldPath.json()).toMatchObject({ success: false });
  });
});
