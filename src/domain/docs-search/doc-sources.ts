import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import {
  type DefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  Kind,
  parse,
  print,
  type TypeNode,
} from "graphql";
import { type DocSection, DocsIndex } from "./docs-index";

/** Longest text one section holds; longer sections are split at paragraph ends. */
const SECTION_CHARS = 1_400;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function plainMarkdown(text: string): string {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/`/g, "")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, "")
    .replace(/\s*\|\s*/g, " | ")
    .trim();
}

/** Splits long text at blank lines (else line ends) into pieces of at most SECTION_CHARS. */
function chunks(text: string): string[] {
  if (text.length <= SECTION_CHARS) return [text];
  const out: string[] = [];
  let current = "";
  for (const block of text.split(/\n(?=\s*\n)|\n(?=[-*] |\| )/)) {
    if (current && current.length + block.length > SECTION_CHARS) {
      out.push(current.trim());
      current = "";
    }
    current += `${block}\n`;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Pure: a Markdown file as sections, one per heading (long ones split), titled by the heading path. */
export function markdownSections(source: string, markdown: string): DocSection[] {
  const sections: DocSection[] = [];
  const trail: string[] = [];
  let anchor = "";
  let body: string[] = [];
  let fenced = false;
  const flush = () => {
    const text = plainMarkdown(body.join("\n"));
    body = [];
    if (!text) return;
    const title = trail.filter(Boolean).join(" › ") || source;
    for (const piece of chunks(text)) sections.push({ kind: "guide", source, title, anchor, text: piece });
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      trail.length = level - 1;
      trail[level - 1] = plainMarkdown(heading[2]!);
      anchor = headingAnchor(trail[level - 1]!);
      continue;
    }
    body.push(line);
  }
  flush();
  return sections;
}

function typeText(type: TypeNode): string {
  return print(type);
}

function argumentsText(args: readonly InputValueDefinitionNode[] | undefined): string {
  if (!args || args.length === 0) return "";
  return args
    .map(
      (a) =>
        `  argument ${a.name.value}: ${typeText(a.type)}${a.description ? ` — ${a.description.value}` : ""}`,
    )
    .join("\n");
}

function fieldLine(field: FieldDefinitionNode | InputValueDefinitionNode): string {
  const description = field.description ? ` — ${field.description.value.replace(/\s+/g, " ")}` : "";
  return `${field.name.value}: ${typeText(field.type)}${description}`;
}

/**
 * Pure: the printed GraphQL schema as sections: one per root field (a query or mutation with its
 * arguments) and one per other type with its fields.
 */
export function graphqlSections(source: string, sdl: string): DocSection[] {
  const sections: DocSection[] = [];
  for (const definition of parse(sdl).definitions as readonly DefinitionNode[]) {
    if (
      definition.kind !== Kind.OBJECT_TYPE_DEFINITION &&
      definition.kind !== Kind.INPUT_OBJECT_TYPE_DEFINITION &&
      definition.kind !== Kind.ENUM_TYPE_DEFINITION &&
      definition.kind !== Kind.UNION_TYPE_DEFINITION
    ) {
      continue;
    }
    const name = definition.name.value;
    const description = definition.description?.value ?? "";
    if (definition.kind === Kind.OBJECT_TYPE_DEFINITION && (name === "Query" || name === "Mutation")) {
      const operation = name === "Query" ? "query" : "mutation";
      for (const field of definition.fields ?? []) {
        sections.push({
          kind: "graphql",
          source,
          title: `GraphQL ${operation} ${field.name.value}`,
          anchor: `${name}.${field.name.value}`,
          text: [fieldLine(field), argumentsText(field.arguments)].filter(Boolean).join("\n"),
        });
      }
      continue;
    }
    let members = "";
    if (
      definition.kind === Kind.OBJECT_TYPE_DEFINITION ||
      definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION
    ) {
      members = (definition.fields ?? []).map((f) => fieldLine(f)).join("\n");
    } else if (definition.kind === Kind.ENUM_TYPE_DEFINITION) {
      members = (definition.values ?? [])
        .map((v) => `${v.name.value}${v.description ? ` — ${v.description.value}` : ""}`)
        .join("\n");
    } else {
      members = `one of ${(definition.types ?? []).map((t) => t.name.value).join(", ")}`;
    }
    sections.push({
      kind: "graphql",
      source,
      title: `GraphQL type ${name}`,
      anchor: name,
      text: [description, members].filter(Boolean).join("\n"),
    });
  }
  return sections;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

function operationText(operation: Json): string {
  const lines = [str(operation.summary), str(operation.description)];
  for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
    if (!isObject(parameter)) continue;
    lines.push(
      `parameter ${str(parameter.name)} (${str(parameter.in)}${parameter.required ? ", required" : ""})${
        parameter.description ? ` — ${str(parameter.description)}` : ""
      }`,
    );
  }
  if (isObject(operation.responses)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (isObject(response)) lines.push(`response ${status} — ${str(response.description)}`);
    }
  }
  return lines.filter(Boolean).join("\n");
}

/** Pure: an OpenAPI 3.x document as sections: its description, one per operation, one per webhook. */
export function openApiSections(source: string, document: unknown): DocSection[] {
  if (!isObject(document) || typeof document.openapi !== "string") return [];
  const sections: DocSection[] = [];
  const info = isObject(document.info) ? document.info : {};
  if (info.description) {
    sections.push({
      kind: "openapi",
      source,
      title: str(info.title) || "OpenAPI",
      anchor: "info",
      text: str(info.description),
    });
  }
  const groups: [string, unknown][] = [
    ["", document.paths],
    ["webhook ", document.webhooks],
  ];
  for (const [prefix, group] of groups) {
    if (!isObject(group)) continue;
    for (const [route, item] of Object.entries(group)) {
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const title = `${prefix}${method.toUpperCase()} ${route}${operation.summary ? ` — ${str(operation.summary)}` : ""}`;
        sections.push({
          kind: "openapi",
          source,
          title,
          anchor: str(operation.operationId) || `${method} ${route}`,
          text: operationText(operation) || title,
        });
      }
    }
  }
  return sections;
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await markdownFiles(full)));
    else if (entry.name.endsWith(".md")) files.push(full);
  }
  return files;
}

/** The REST API's OpenAPI document, as the composition root hands it over (the v1 facade builds it). */
export type OpenApiSource = () => unknown;

/** The OpenAPI document, when there is one: `docs/openapi.json`, else the one `generated` builds. */
export async function loadOpenApiDocument(root: string, generated?: OpenApiSource): Promise<unknown> {
  const file = path.join(root, "docs", "openapi.json");
  if (existsSync(file)) return JSON.parse(await readFile(file, "utf8"));
  return generated ? await generated() : null;
}

/** Every API documentation source of the project at `root`: README, `docs/**.md` but `docs/help`, the schema, OpenAPI. */
export async function loadProjectDocs(root: string, openApi?: OpenApiSource): Promise<DocSection[]> {
  const sections: DocSection[] = [];
  // The help articles (docs/help) have their own index (`src/domain/help`, MCP `search_help`): this
  // search stays on the API documentation.
  const help = path.join(root, "docs", "help") + path.sep;
  const guides = [
    path.join(root, "README.md"),
    ...(await markdownFiles(path.join(root, "docs"))).filter((file) => !file.startsWith(help)),
  ];
  for (const file of guides) {
    if (!existsSync(file)) continue;
    sections.push(
      ...markdownSections(path.relative(root, file).split(path.sep).join("/"), await readFile(file, "utf8")),
    );
  }
  const schemaFile = path.join(root, "schema.graphql");
  if (existsSync(schemaFile))
    sections.push(...graphqlSections("schema.graphql", await readFile(schemaFile, "utf8")));
  sections.push(
    ...openApiSections("openapi.json", await loadOpenApiDocument(root, openApi).catch(() => null)),
  );
  return sections;
}

const built = new Map<string, Promise<DocsIndex>>();

/** The index of a project's documentation, built once per process (the files do not change at run time). */
export function projectDocsIndex(root: string, openApi?: OpenApiSource): Promise<DocsIndex> {
  let index = built.get(root);
  if (!index) {
    index = loadProjectDocs(root, openApi).then((sections) => new DocsIndex(sections));
    index.catch(() => built.delete(root));
    built.set(root, index);
  }
  return index;
}
