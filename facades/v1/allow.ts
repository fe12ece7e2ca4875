import { SANDBOX_ONLY_ROUTES, V1_ROUTES } from "./contract/routes";

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

const META_PATHS = ["/openapi.json", "/postman.json"];

function table(routes: readonly { method: string; path: string }[]): PathMethods[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === "get") methods.add("HEAD");
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}/?$`),
    methods: new Set([...methods, "OPTIONS"]),
  }));
}

const LIVE = table([...Object.values(V1_ROUTES), ...META_PATHS.map((path) => ({ method: "get", path }))]);
const SANDBOX = table([...Object.values(V1_ROUTES), ...Object.values(SANDBOX_ONLY_ROUTES)]);

/**
 * The verbs a v1 path answers (under `/api/v1`, or under `/api/v1/sandbox` with `sandbox`), from the
 * contract, for an `OPTIONS` answer's `Allow`; undefined when the contract has no such path.
 */
export function v1AllowedMethods(path: string, options: { sandbox: boolean }): string[] | undefined {
  const match = (options.sandbox ? SANDBOX : LIVE).find((entry) => entry.pattern.test(path));
  return match ? [...match.methods] : undefined;
}
