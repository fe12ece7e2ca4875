import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>> };

/**
 * Checks real answers against the served OpenAPI 3.1 document: the status must be documented for
 * the operation, the body must validate against its schema (JSON Schema 2020-12, as OpenAPI 3.1
 * says), and the documented required headers must be there.
 */
export function openApiChecker(document: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document as object, "openapi");
  const pointer = (...parts: string[]) =>
    `openapi#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
  const seen = new Set<string>();

  return {
    /** Operations checked so far, as "METHOD path". */
    seen,
    async check(method: string, pathTemplate: string, res: Response): Promise<string[]> {
      const operation = document.paths[pathTemplate]?.[method.toLowerCase()];
      if (!operation) return [`${method} ${pathTemplate} is not in the document`];
      seen.add(`${method.toUpperCase()} ${pathTemplate}`);
      const status = String(res.status);
      const response = operation.responses[status];
      if (!response)
        return [`${method} ${pathTemplate} answered ${status}, which the document does not list`];
      const problems: string[] = [];
      for (const header of Object.keys(response.headers ?? {})) {
        if (response.headers[header].required && res.headers.get(header) === null) {
          problems.push(`${status} lacks the header ${header}`);
        }
      }
      const body = await res.json();
      const validate = ajv.getSchema(
        pointer(
          "paths",
          pathTemplate,
          method.toLowerCase(),
          "responses",
          status,
          "content",
          "application/json",
          "schema",
        ),
      );
      if (!validate) return [...problems, `no schema for ${method} ${pathTemplate} ${status}`];
      if (!validate(body)) {
        problems.push(
          ...(validate.errors ?? []).map(
            (e) => `${status} body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
          ),
        );
      }
      return problems;
    },
    /** Problems of a body against one named schema of the document (`components/schemas/<name>`). */
    matches(component: string, body: unknown): string[] {
      const validate = ajv.getSchema(pointer("components", "schemas", component));
      if (!validate) return [`the document has no component ${component}`];
      if (validate(body)) return [];
      return (validate.errors ?? []).map(
        (e) => `${component}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
      );
    },
  };
}
