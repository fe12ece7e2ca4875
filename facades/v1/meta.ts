import { Router } from "express";
import { buildOpenApiDocument } from "./openapi";
import { postmanCollection } from "./postman";

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
