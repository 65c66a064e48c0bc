/**
 * CSP violation reports, stored bounded. Identical reports share one row and a `count` (a flood of one report
 * adds nothing), one source (client address, stored only as a keyed hash) holds at most
 * {@link CSP_REPORTS_PER_SOURCE} rows (new distinct reports from a full source are dropped, repeats still
 * counted), and after each write the rows older than the newest {@link CSP_REPORTS_KEPT} are deleted. One anonymous
 * caller could replace the whole history before (20 requests of 50 identical reports: 1,000 rows).
 */
import { createHash } from 'node:crypto'
import { count, eq, sql } from 'drizzle-orm'
import { type Db, queryRows } from './connection'
import { cspReports } from './schema'

/** How many reports the table keeps. */
export const CSP_REPORTS_KEPT = 10_000

/** How many distinct reports one source may hold: 1% of {@link CSP_REPORTS_KEPT}. */
export const CSP_REPORTS_PER_SOURCE = 100

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

/** Options of {@link storeCspViolations}. */
export interface StoreCspOptions {
  /** The sender (see {@link cspSourceKey}); absent: not bounded per source. */
  source?: string
  /** @default CSP_REPORTS_KEPT */
  kept?: number
  /** @default CSP_REPORTS_PER_SOURCE */
  perSource?: number
}

/** A client address as stored: a keyed SHA-256, 32 hex digits (the address itself is never stored). */
export function cspSourceKey(ip: string): string {
  return createHash('sha256').update(`spkg:csp-source:${ip}`).digest('hex').slice(0, 32)
}

const cut = (s: string | undefined, n: number) => (s === undefined ? null : s.slice(0, n))

/** Stores violations (deduplicated, bounded per source) and trims the table to the newest rows. */
export async function storeCspViolations(db: Db, list: CspViolation[], options: StoreCspOptions = {}) {
  if (list.length === 0) return
  const { source, kept = CSP_REPORTS_KEPT, perSource = CSP_REPORTS_PER_SOURCE } = options
  const batch = new Map<string, { row: typeof cspReports.$inferInsert; n: number }>()
  for (const v of list) {
    const row = {
      format: v.format,
      documentUri: cut(v.documentUri, 2048),
      blockedUri: cut(v.blockedUri, 2048),
      effectiveDirective: cut(v.effectiveDirective, 200),
      disposition: cut(v.disposition, 20),
      sourceFile: cut(v.sourceFile, 2048),
      lineNumber: v.lineNumber ?? null,
      sample: cut(v.sample, 200),
    }
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(Object.values(row)))
      .digest('hex')
    const seen = batch.get(fingerprint)
    if (seen) seen.n++
    else batch.set(fingerprint, { row: { ...row, fingerprint, source: source ?? null }, n: 1 })
  }
  // Repeats of stored reports: counted, whoever sends them.
  const values = [...batch].map(([fp, { n }]) => sql`(${fp}::varchar, ${n}::int)`)
  const updated = await queryRows<{ fp: string }>(
    db,
    sql`update ${cspReports} set count = ${cspReports.count} + v.n, last_seen_at = now()
        from (values ${sql.join(values, sql`, `)}) as v(fp, n)
        where ${cspReports.fingerprint} = v.fp returning ${cspReports.fingerprint} as fp`,
  )
  const done = new Set(updated.map((r) => r.fp))
  let fresh = [...batch].filter(([fp]) => !done.has(fp)).map(([, { row, n }]) => ({ ...row, count: n }))
  if (source !== undefined && fresh.length > 0) {
    const [held] = await db.select({ n: count() }).from(cspReports).where(eq(cspReports.source, source))
    fresh = fresh.slice(0, Math.max(0, perSource - Number(held?.n ?? 0)))
  }
  if (fresh.length > 0) {
    await db
      .insert(cspReports)
      .values(fresh)
      .onConflictDoUpdate({
        target: cspReports.fingerprint,
        set: { count: sql`${cspReports.count} + excluded.count`, lastSeenAt: sql`now()` },
      })
  }
  await db.execute(
    sql`delete from ${cspReports} where ${cspReports.id} <= (select max(${cspReports.id}) from ${cspReports}) - ${kept}`,
  )
}
