import http from "node:http";
import { exitOnSignal, JSON_CONTENT_TYPE, readBaselineConfig, routeMatcher, SCENARIO_HEADER } from "./config";

/**
 * The machine's ceiling: bare node:http answering the service's own answer bytes, pre-serialised.
 * One map lookup by method and path picks the scenario's document; nothing else runs per request.
 */
const { config, routes } = readBaselineConfig();
const documents = new Map<string, Buffer>(routes.map((r) => [`${r.method} ${r.path}`, r.body]));
// Scenarios that share a method and path (both GraphQL scenarios) are told apart by their header.
const byScenario = new Map<string, Buffer>(routes.map((r) => [r.scenario, r.body]));
documents.set("GET /readyz", Buffer.from('{"status":"ready"}'));
// Scenarios whose requests vary (ids, queries) fall back to a pattern, tried only on a miss.
const patterns = routes
  .filter((r) => r.route !== r.path)
  .map((r) => ({ method: r.method, matches: routeMatcher(r.route), body: r.body }));

const server = http.createServer((req, res) => {
  // Drain a request body (POST /graphql) so the keep-alive connection stays usable.
  req.resume();
  const scenario = req.headers[SCENARIO_HEADER];
  const body =
    (typeof scenario === "string" ? byScenario.get(scenario) : undefined) ??
    documents.get(`${req.method} ${req.url}`) ??
    patterns.find((p) => p.method === req.method && p.matches(req.url ?? ""))?.body;
  if (!body) {
    res.writeHead(404, { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": 2 });
    res.end("{}");
    return;
  }
  res.writeHead(200, { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": body.length });
  res.end(body);
});

server.listen(config.port, config.host);
exitOnSignal(() => {
  server.closeAllConnections();
  server.close();
});
