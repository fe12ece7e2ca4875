import type { Exchange } from "./http";

const clip = (s: string | undefined, n: number) =>
  s === undefined ? "(none)" : JSON.stringify(s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

export function describeExchange(ex: Exchange): string {
  return [
    `    ${ex.method} ${clip(ex.path, 300)}`,
    `    headers ${clip(JSON.stringify(ex.headers), 200)}`,
    `    body ${clip(ex.body, 200)}`,
    `    -> ${ex.status} ${clip(ex.text, 200)}`,
  ].join("\n");
}

/**
 * Violations of one fuzz run, grouped by problem and operation so that one cause reads as one line
 * with a count and the first request that showed it (enough to replay it by hand).
 */
export class Findings {
  private readonly groups = new Map<string, { count: number; example: Exchange }>();
  requests = 0;
  refusals = 0;

  constructor(
    readonly label: string,
    readonly seed: number,
  ) {}

  add(operation: string, ex: Exchange, problems: readonly string[]): void {
    for (const problem of problems) {
      const key = `${problem} | ${operation}`;
      const group = this.groups.get(key);
      if (group) group.count++;
      else this.groups.set(key, { count: 1, example: ex });
    }
  }

  get distinct(): number {
    return this.groups.size;
  }

  /** The whole report, or "" when nothing was found. */
  report(): string {
    if (this.groups.size === 0) return "";
    const lines = [
      `${this.label}: ${this.groups.size} distinct violation(s) in ${this.requests} requests, ${this.refusals} refused (fast-check seed ${this.seed}; rerun with the same seed to replay)`,
    ];
    for (const [key, { count, example }] of [...this.groups].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${key}  x${count}`, describeExchange(example));
    }
    return lines.join("\n");
  }
}
