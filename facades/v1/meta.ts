import { Router } from "express";
import { buildOpenApiDocument } from "./openapi";
import { postmanCollection } from "./postman";

type Document = ReturnType<typeof buildOpenApiDocument>;

const OPENAPI_PATH = "/openapi.json";
const POSTMAN_PATH = "/postman.json";

/**
 * Whether the meta router could serve `url` (below /api/v1, query included), matched as Express
 * matches its routes: in any case, with or without a trailing slash.
 */
export function isMetaPath(url: string): boolean {
  const query = url.indexOf("?");
  const path = (query === -1 ? url : url.slice(0, query)).toLowerCase();
  const bare = path.endsWith("/") ? path.slice(0, -1) : path;
  return bare === OPENAPI_PATH || bare === POSTMAN_PATH;
}

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
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApi());
  });
  router.get(POSTMAN_PATH, async (_req, res, next) => {
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
