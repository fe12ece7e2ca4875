import express, { type Express } from "express";

/**
 * Express 5 configured as the service configures it where that changes the cost of a request:
 * no X-Powered-By, no ETag (hashing every body), JSON body parsing. Nothing else: no logging,
 * metrics, request ids or rate limits, which are the service's own costs.
 */
export function bareExpressApp(): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(express.json({ type: ["application/json", "application/*+json"] }));
  return app;
}
