import type { Request, Response } from "express";
import { exitOnSignal, JSON_CONTENT_TYPE, readBaselineConfig } from "./config";
import { bareExpressApp } from "./express-app";

/** The declared framework's ceiling: one Express route per scenario answering the service's answer bytes. */
const { config, routes } = readBaselineConfig();
const app = bareExpressApp();
app.get("/readyz", (_req, res) => {
  res.json({ status: "ready" });
});
for (const route of routes) {
  const { body } = route;
  const handle = (_req: Request, res: Response) => {
    res.set("Content-Type", JSON_CONTENT_TYPE).send(body);
  };
  if (route.method === "GET") app.get(route.route, handle);
  else app.post(route.route, handle);
}

const server = app.listen(config.port, config.host);
exitOnSignal(() => {
  server.closeAllConnections();
  server.close();
});
