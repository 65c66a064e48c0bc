/**
 * Vitest global setup of the player project, before any test file starts: builds the player when apps/player/dist
 * is missing or older than its sources (see build.ts), and makes the seeded PGlite template when it is missing or
 * stale (harness.ts, `ensureSeedTemplate`; not with DATABASE_URL). `startPlayer()` checks both again, cheaply.
 */
import { ensurePlayerBuilt } from './build'
import { ensureSeedTemplate } from './harness'

export default async function setup(): Promise<void> {
  await ensurePlayerBuilt()
  if (!process.env.DATABASE_URL) await ensureSeedTemplate()
}
