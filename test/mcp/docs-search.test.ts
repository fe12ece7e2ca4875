import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  graphqlSections,
  headingAnchor,
  loadProjectDocs,
  markdownSections,
  openApiSections,
} from "../../src/domain/docs-search/doc-sources";
import { DocsIndex, excerpt, tokenize } from "../../src/domain/docs-search/docs-index";

describe("sources", () => {
  it("splits Markdown by heading, titled by the heading path, ignoring headings inside code", () => {
    const sections = markdownSections(
      "docs/guide.md",
      "# Guide\nIntro.\n\n## Rate limits\nFixed **windows** of one `minute`.\n```sh\n# not a heading\n```\n### Headers\nX-RateLimit-Limit | x\n",
    );
    expect(sections.map((s) => [s.title, s.anchor])).toEqual([
      ["Guide", "guide"],
      ["Guide › Rate limits", "rate-limits"],
      ["Guide › Rate limits › Headers", "headers"],
    ]);
    expect(sections[1]!.text).toContain("Fixed windows of one minute.");
    expect(sections[1]!.text).toContain("# not a heading");
    expect(headingAnchor("API keys and authentication")).toBe("api-keys-and-authentication");
  });

  it("turns the GraphQL schema into one section per root field and per type", () => {
    const sections = graphqlSections(
      "schema.graphql",
      '"""A shipment."""\ntype Shipment { """SHP id.""" name: String! }\ntype Query { """One shipment.""" shipment(id: String!): Shipment }',
    );
    expect(sections.map((s) => s.title)).toEqual(["GraphQL type Shipment", "GraphQL query shipment"]);
    expect(sections[0]!.text).toContain("name: String! — SHP id.");
    expect(sections[1]!.text).toContain("argument id: String!");
  });

  it("turns an OpenAPI document into one section per operation and webhook", () => {
    const sections = openApiSections("openapi.json", {
      openapi: "3.1.0",
      info: { title: "Quayside v1", description: "Container tracking." },
      paths: {
        "/container/{number}": {
          get: {
            operationId: "trackContainer",
            summary: "Track a container",
            parameters: [{ name: "sealine", in: "query", description: "SCAC" }],
            responses: { "404": { description: "Not found" } },
          },
        },
      },
      webhooks: { "shipment.updated": { post: { summary: "Status changed" } } },
    });
    expect(sections.map((s) => s.title)).toEqual([
      "Quayside v1",
      "GET /container/{number} — Track a container",
      "webhook POST shipment.updated — Status changed",
    ]);
    expect(sections[1]).toMatchObject({
      anchor: "trackContainer",
      text: expect.stringContaining("parameter sealine (query) — SCAC"),
    });
    expect(openApiSections("x", { swagger: "2.0" })).toEqual([]);
  });
});

describe("search", () => {
  it("tokenizes identifiers by their parts and ranks title matches first", () => {
    expect(tokenize("nextRefreshEligibleAt X-RateLimit-Limit shipments")).toEqual(
      expect.arrayContaining([
        "nextrefresheligibleat",
        "refresh",
        "eligible",
        "ratelimit",
        "limit",
        "shipment",
      ]),
    );
    const index = new DocsIndex([
      {
        kind: "guide",
        source: "a.md",
        title: "Webhooks",
        anchor: "webhooks",
        text: "Signed deliveries. Rate limits do not apply.",
      },
      {
        kind: "guide",
        source: "b.md",
        title: "Rate limits",
        anchor: "rate-limits",
        text: "Fixed one-minute windows per key.",
      },
      { kind: "guide", source: "c.md", title: "Ports", anchor: "ports", text: "UN/LOCODE search." },
    ]);
    const hits = index.search("rate limits", 5);
    expect(hits.map((h) => h.title)).toEqual(["Rate limits", "Webhooks"]);
    expect(index.search("the of", 5)).toEqual([]);
    expect(index.search("nothing-matches-this", 5)).toEqual([]);
  });

  it("cuts the excerpt around the words asked for", () => {
    const text = `${"filler words here ".repeat(40)}the refresh gap is twelve hours ${"more filler ".repeat(40)}`;
    const cut = excerpt(text, tokenize("refresh gap"));
    expect(cut).toContain("refresh gap is twelve hours");
    expect(cut.length).toBeLessThanOrEqual(322);
    expect(cut.startsWith("…")).toBe(true);
  });

  it("indexes this project's README, docs/ and schema, and finds what they say", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const index = new DocsIndex(await loadProjectDocs(root));
    const sources = index.sources().map((s) => s.source);
    expect(sources).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/decisions/README.md",
        "docs/decisions/authentication.md",
        "docs/mcp-changelog.md",
        "docs/configuration.md",
        "docs/deployment.md",
        "schema.graphql",
      ]),
    );
    expect(index.search("developer mode refusals", 3)[0]).toMatchObject({
      source: "docs/decisions/authentication.md",
    });
    expect(index.search("QUAYSIDE_MCP_ENABLED", 3).map((h) => h.source)).toContain("docs/configuration.md");
  });
});
