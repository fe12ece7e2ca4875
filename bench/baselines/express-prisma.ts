import type { Request, Response } from "express";
import { openDatabase } from "../../src/db/database";
import { exitOnSignal, groupByRoute, JSON_CONTENT_TYPE, readBaselineConfig, SCENARIO_HEADER } from "./config";
import { bareExpressApp } from "./express-app";
import { PRISMA_WORK, prismaWorkContext } from "./prisma-work";

/**
 * The cost of our core, isolated: a bare Express route doing the scenario's database work (for now
 * the service's own API-key lookup, plus what the scenario reads) through the same database module,
 * driver adapter and pool as the service, then answering the service's answer bytes.
 */
const { config, routes } = readBaselineConfig();
if (!config.database) throw new Error("express-prisma needs a database in its configuration");
const db = await openDatabase(config.database);
const context = prismaWorkContext(db, config.env);

const app = bareExpressApp();
app.get("/readyz", async (_req, res) => {
  await db.sql.query("SELECT 1");
  res.json({ status: "ready" });
});
for (const [key, pick] of groupByRoute(routes)) {
  const [method, path] = key.split(" ") as [string, string];
  const handle = async (req: Request, res: Response) => {
    const route = pick(req.originalUrl, req.get(SCENARIO_HEADER));
    const { body } = route;
    const work = PRISMA_WORK[route.prismaWork];
    const rawKey = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "")?.[1];
    const request = {
      params: req.params as Record<string, string>,
      query: req.query as Record<string, unknown>,
    };
    if (!rawKey || !(await work(context, rawKey, request))) {
      res.status(401).json({ error: "invalid_key" });
      return;
    }
    res.set("Content-Type", JSON_CONTENT_TYPE).send(body);
  };
  if (method === "GET") app.get(path, handle);
  else app.post(path, handle);
}

const server = app.listen(config.port, config.host);
exitOnSignal(async () => {
  server.closeAllConnections();
  server.close();
  await db.close();
});
