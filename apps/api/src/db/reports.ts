/**
 * Reports. The 10-per-24-hours quota lives in the database (trigger `reports_quota`, migration
 * 0001): an insert over the quota fails with SQLSTATE `RL001`.
 */
import type { Db } from './connection'
import { reports } from './schema'

/** SQLSTATE raised by the quota trigger. */
export const REPORT_QUOTA_SQLSTATE = 'RL001'

/** Records a report; throws a driver error with SQLSTATE {@link REPORT_QUOTA_SQLSTATE} over the quota. */
export async function insertReport(
  db: Db,
  r: { userSub: string; reason: string; storySlug: string | null; details: string },
) {
  const [row] = await db.insert(reports).values(r).returning({
    id: reports.id,
    reason: reports.reason,
    storySlug: reports.storySlug,
    createdAt: reports.createdAt,
  })
  if (!row) throw new Error('report insert returned no row')
  return { ...row, createdAt: new Date(row.createdAt).toISOString() }
}
