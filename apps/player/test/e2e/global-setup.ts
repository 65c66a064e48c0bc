/**
 * Vitest global setup of the player project: builds the player once per run, before any test file starts, when
 * apps/player/dist is missing or older than its sources (see build.ts). `startPlayer()` checks again, cheaply.
 */
import { ensurePlayerBuilt } from './build'

export default async function setup(): Promise<void> {
  await ensurePlayerBuilt()
}
