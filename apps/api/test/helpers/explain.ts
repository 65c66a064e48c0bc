/**
 * The plan PostgreSQL runs a drizzle query with: `EXPLAIN (ANALYZE, BUFFERS)` text, one line per plan line
 * (`bench/api` prints the catalog page's).
 */
import { type SQLWrapper, sql } from 'drizzle-orm'
import type { Db } from '../../src/db/connection'

/** Runs `query` under `EXPLAIN (ANALYZE, BUFFERS)` and returns the plan text. */
export async function explainAnalyze(db: Db, query: SQLWrapper): Promise<string> {
  const result = (await db.execute(sql`explain (analyze, buffers) ${query.getSQL()}`)) as unknown as
    | Array<Record<string, string>>
    | { rows: Array<Record<string, string>> }
  const rows = Array.isArray(result) ? result : result.rows
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}
