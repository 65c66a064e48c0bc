/**
 * The server and Chromium one e2e test file shares: {@link playerAndBrowser} registers the file's `beforeAll`, which
 * starts both at once, and its `afterAll`, which closes whatever started.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser, noBrowser, type StartedPlayer, startPlayer } from './harness'

/** What the file's tests drive; read it inside a test (both are started by then). */
export interface PlayerAndBrowser {
  readonly player: StartedPlayer
  readonly browser: Browser
}

/**
 * Starts the real server ({@link startPlayer}) and Chromium for the tests of this file; without Chromium nothing
 * starts (the file's `describe.skipIf(noBrowser)` skips). A start that fails closes what the other one started.
 */
export function playerAndBrowser(): PlayerAndBrowser {
  let player: StartedPlayer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    if (noBrowser) return
    const [p, b] = await Promise.allSettled([startPlayer(), launchBrowser()])
    if (p.status === 'fulfilled') player = p.value
    if (b.status === 'fulfilled') browser = b.value
    for (const r of [p, b]) if (r.status === 'rejected') throw r.reason
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await player?.close()
  })
  const started = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`the ${what} is not started: read it inside a test`)
    return value
  }
  return {
    get player() {
      return started('player server', player)
    },
    get browser() {
      return started('browser', browser)
    },
  }
}
