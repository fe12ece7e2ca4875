import type { Request, Response } from "express";
import { exitOnSignal, groupByRoute, JSON_CONTENT_TYPE, readBaselineConfig, SCENARIO_HEADER } from "./config";
import { bareExpressApp } from "./express-app";

/** The declared framework's ceiling: one Express route per scenario answering the service's answer bytes. */
const { config, routes } = readBaselineConfig();
const app = bareExpressApp();
app.get("/readyz", (_req, res) => {
  res.json({ status: "ready" });
});
for (const [key, pick] of groupByRoute(routes)) {
  const [method, route] = key.split(" ") as [string, string];
  const handle = (req: Request, res: Response) => {
    res.set("Content-Type", JSON_CONTENT_TYPE).send(pick(req.originalUrl, req.get(SCENARIO_HEADER)).body);
  };
  if (method === "GET") app.get(route, handle);
  else app.post(route, handle);
}

const server = app.listen(config.port, config.host);
exitOnSignal(() => {
  server.closeAllConnections();
  server.close();
});
