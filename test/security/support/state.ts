import type { TestApp } from "../../support/app";

/** Columns that change on any authenticated request by design, not because a refusal wrote something. */
const VOLATILE_COLUMNS = new Set(["last_used_at"]);

const tableLists = new WeakMap<TestApp, Promise<string[]>>();

function tablesOf(app: TestApp): Promise<string[]> {
  let tables = tableLists.get(app);
  if (!tables) {
    tables = app.services.db.sql
      .query<{ table_name: string }>(
        `SELECT DISTINCT table_name FROM information_schema.columns
         WHERE column_name = 'organization_id' AND table_schema = current_schema() ORDER BY table_name`,
      )
      .then((r) => r.rows.map((row) => row.table_name));
    tableLists.set(app, tables);
  }
  return tables;
}

/**
 * Everything stored for one organisation, table by table, read from the database in one query: every
 * table with an `organization_id` column (found at run time, so a table added later is covered
 * without a change here) and the organisation's own row. `ignore` names tables a surface changes on
 * refusals by contract (compat counts every admitted call in `api_call_counts`).
 */
export async function organizationState(
  app: TestApp,
  organizationId: string,
  ignore: readonly string[] = [],
): Promise<Record<string, string>> {
  // What the service holds in memory before its next batched write is stored state too.
  await app.services.apiCalls.flush();
  await app.services.lookupLog.flush();
  const tables = (await tablesOf(app)).filter((t) => !ignore.includes(t));
  const selects = [
    `SELECT 'organizations' AS t, row_to_json(x)::text AS r FROM "organizations" x WHERE x.id = $1`,
    ...tables.map(
      (t) => `SELECT '${t}' AS t, row_to_json(x)::text AS r FROM "${t}" x WHERE x.organization_id = $1`,
    ),
  ];
  const { rows } = await app.services.db.sql.query<{ t: string; r: string }>(selects.join(" UNION ALL "), [
    organizationId,
  ]);
  const state: Record<string, string[]> = Object.fromEntries(
    ["organizations", ...tables].map((t) => [t, []]),
  );
  for (const { t, r } of rows) {
    const row = JSON.parse(r) as Record<string, unknown>;
    for (const column of VOLATILE_COLUMNS) delete row[column];
    state[t]!.push(JSON.stringify(row));
  }
  return Object.fromEntries(Object.entries(state).map(([t, list]) => [t, list.sort().join("\n")]));
}

/** Tables whose rows differ between two snapshots. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
