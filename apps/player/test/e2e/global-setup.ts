/**
 * Vitest global setup of the player project, before any test file starts: builds the player when apps/player/dist
 * is missing or older than its sources (see build.ts), and makes the seeded template (PGlite, or a PostgreSQL database
 * with DATABASE_URL) when it is missing or stale (harness.ts, `ensureSeedTemplate`). `startPlayer()` checks both
 * again, cheaply.
 */
import { ensurePlayerBuilt } from './build'
import { ensureSeedTemplate } from './harness'

export default async function setup(): Promise<void> {
  await ensurePlayerBuilt()
  await ensureSeedTemplate()
}
