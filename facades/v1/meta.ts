import { Router } from "express";
import { buildOpenApiDocument } from "./openapi";

type Document = ReturnType<typeof buildOpenApiDocument>;

/**
 * `/api/v1/openapi.json` and `/api/v1/postman.json` (spec v1 section 9): public, generated once per
 * process from the route contract, with this deployment's address as the server.
 */
export function createMetaRouter(baseUrl: string): Router {
  const serverUrl = `${baseUrl}/api/v1`;
  let document: Document | undefined;
  let collection: Promise<unknown> | undefined;
  const openApi = () => {
    document ??= buildOpenApiDocument({ serverUrl });
    return document;
  };

  const router = Router();
  router.get("/openapi.json", (_req, res) => {
    res.json(openApi());
  });
  router.get("/postman.json", async (_req, res, next) => {
    try {
      collection ??= postmanCollection(openApi());
      res.json(await collection);
    } catch (error) {
      collection = undefined;
      next(error);
    }
  });
  return router;
}

/**
 * The collection, one folder per tag. Requests take the `baseUrl` variable from the document's
 * server and the Bearer key from a `bearerToken` variable (the Sandbox folder needs none).
 */
export async function postmanCollection(document: Document): Promise<unknown> {
  // Loaded on the first request for the collection: the converter and its dependencies are a large
  // part of the module graph, and nothing at start-up needs them.
  const { default: Converter } = await import("openapi-to-postmanv2");
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: "json", data: structuredClone(document) },
      { folderStrategy: "Tags", requestParametersResolution: "Example", includeAuthInfoInExample: false },
      (error, result) => {
        if (error) return reject(new Error(error.message));
        if (!result) return reject(new Error("the OpenAPI document did not convert"));
        if (!result.result || !result.output?.[0]) {
          return reject(new Error(`the OpenAPI document did not convert: ${result.reason ?? "no output"}`));
        }
        const data = result.output[0].data as {
          variable?: { key: string; value: string; type?: string }[];
          item?: { name: string; auth?: unknown }[];
        };
        // The key goes in `bearerToken` (the converter's name for it); the sandbox needs none.
        data.variable = [
          ...(data.variable ?? []).filter((v) => v.key !== "bearerToken"),
          { key: "bearerToken", value: "", type: "string" },
        ];
        const sandbox = data.item?.find((folder) => folder.name === "Sandbox");
        if (sandbox) sandbox.auth = { type: "noauth" };
        resolve(data);
      },
    );
  });
}
