/**
 * CSP violation reports, stored bounded: after each insert the rows older than the newest
 * {@link CSP_REPORTS_KEPT} are deleted, so a flood cannot grow the table without end.
 */
import { sql } from 'drizzle-orm'
import type { Db } from './index'
import { cspReports } from './schema'

/** How many reports the table keeps. */
export const CSP_REPORTS_KEPT = 10_000

/** One normalised violation. */
export interface CspViolation {
  format: 'report-uri' | 'report-to'
  documentUri?: string | undefined
  blockedUri?: string | undefined
  effectiveDirective?: string | undefined
  disposition?: string | undefined
  sourceFile?: string | undefined
  lineNumber?: number | undefined
  sample?: string | undefined
}

const cut = (s: string | undefined, n: number) => (s === undefined ? null : s.slice(0, n))

/** Stores violations and trims the table to the newest {@link CSP_REPORTS_KEPT} rows. */
export async function storeCspViolations(db: Db, list: CspViolation[], kept = CSP_REPORTS_KEPT) {
  if (list.length === 0) return
  await db.insert(cspReports).values(
    list.map((v) => ({
      format: v.format,
      documentUri: cut(v.documentUri, 2048),
      blockedUri: cut(v.blockedUri, 2048),
      effectiveDirective: cut(v.effectiveDirective, 200),
      disposition: cut(v.disposition, 20),
      sourceFile: cut(v.sourceFile, 2048),
      lineNumber: v.lineNumber ?? null,
      sample: cut(v.sample, 200),
    })),
  )
  await db.execute(
    sql`delete from ${cspReports} where ${cspReports.id} <= (select max(${cspReports.id}) from ${cspReports}) - ${kept}`,
  )
}
