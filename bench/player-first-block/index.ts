/**
 * `pnpm bench player-first-block [--runs N] [--slug tide-bell]`: time to the first block of a seeded story opened
 * from the catalog, in the web player as `pnpm start` serves it (apps/player/test/e2e/harness.ts: the real API
 * process, seeded examples, the built player), over loopback, in headless Chromium.
 *
 * Each run uses a fresh browser context (no HTTP cache, no service worker, no saved reading state):
 * - cold: `goto(<player>#/story/<slug>/play)`; from the navigation's start (`performance.timeOrigin`) to the first
 *   block in the story's transcript: the page, its scripts, the catalog record, the package's directory, manifest
 *   and entry part by HTTP ranges (progressive), every check of the open, the engine's first output;
 * - warm: the catalog page loaded and its service worker in control, then the story's play route (as a click on the
 *   story does); from the hash change to the first block.
 * Bytes of the package fetched before the first block are counted from the answers of `/files/packages/*`.
 * The default story, "The Tide Bell", is `loading: progressive` (three parts, pictures, a sound). The rate limits
 * are raised (`RATE_LIMIT_MAX_FACTOR=20`): every run reads the catalog a few times, the figure is the player's.
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, type StartedPlayer, startPlayer } from '../../apps/player/test/e2e/harness.ts'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, slug: { type: 'string', default: 'tide-bell' } },
})
const runs = Math.max(1, Number(values.runs))
const slug = values.slug as string

/** Marks, in the page, the moment the first block enters the story transcript (`window.__firstBlock`). */
function watchFirstBlock(): void {
  const w = window as unknown as { __firstBlock?: number; __armed?: boolean }
  w.__armed = true
  new MutationObserver(() => {
    if (!w.__armed || w.__firstBlock !== undefined) return
    if (document.querySelector('[role="log"] > *')) w.__firstBlock = performance.now()
  }).observe(document, { subtree: true, childList: true })
}

const firstBlock = (page: Page) =>
  page.waitForFunction(() => (window as unknown as { __firstBlock?: number }).__firstBlock, null, {
    timeout: 60_000,
  })

interface Run {
  ms: number
  packageBytes: number
}

async function countPackageBytes(page: Page): Promise<{ stop: () => number }> {
  let bytes = 0
  let open = true
  page.on('response', async (r) => {
    if (!open || !new URL(r.url()).pathname.startsWith('/files/packages/')) return
    bytes += Number(r.headers()['content-length'] ?? 0)
  })
  return {
    stop: () => {
      open = false
      return bytes
    },
  }
}

async function cold(browser: Browser, player: StartedPlayer): Promise<Run> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.addInitScript(watchFirstBlock)
  const counter = await countPackageBytes(page)
  await page.goto(`${player.url}#/story/${slug}/play`)
  const ms = Number(await (await firstBlock(page)).jsonValue())
  const packageBytes = counter.stop()
  await context.close()
  return { ms, packageBytes }
}

async function warm(browser: Browser, player: StartedPlayer): Promise<Run> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.addInitScript(watchFirstBlock)
  await page.goto(player.url)
  await page.getByRole('heading', { level: 2 }).first().waitFor()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 })
  const counter = await countPackageBytes(page)
  const t0 = await page.evaluate((hash) => {
    const w = window as unknown as { __firstBlock?: number }
    w.__firstBlock = undefined
    const t = performance.now()
    location.hash = hash
    return t
  }, `#/story/${slug}/play`)
  const t1 = Number(await (await firstBlock(page)).jsonValue())
  const packageBytes = counter.stop()
  await context.close()
  return { ms: t1 - t0, packageBytes }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

const player = await startPlayer({ env: { RATE_LIMIT_MAX_FACTOR: '20' } })
const browser = await launchBrowser()
try {
  const record = (await (await fetch(`${player.apiBase}/catalog/stories/${slug}`)).json()) as {
    package?: { size?: number }
  }
  const size = record.package?.size ?? 0
  const load0 = loadavg()[0] as number
  const coldRuns: Run[] = []
  const warmRuns: Run[] = []
  // Alternating, one of each per round, after one unmeasured round (the server's first answers compile code).
  await cold(browser, player)
  await warm(browser, player)
  for (let i = 0; i < runs; i++) {
    coldRuns.push(await cold(browser, player))
    warmRuns.push(await warm(browser, player))
  }
  const load1 = loadavg()[0] as number
  const line = (label: string, rs: Run[]) => {
    const ms = rs.map((r) => r.ms)
    const bytes = median(rs.map((r) => r.packageBytes))
    return `| ${label} | ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}) | ${(bytes / 1024).toFixed(1)} of ${(size / 1024).toFixed(1)} KB |`
  }
  console.log(`story ${slug}, ${runs} runs of each, load ${load0.toFixed(1)} -> ${load1.toFixed(1)}`)
  console.log('| Run | First block, median (min-max) | Package bytes before it |\n|---|---|---|')
  console.log(line('cold: page load to first block', coldRuns))
  console.log(line('warm: catalog page loaded, play route to first block', warmRuns))
} finally {
  await browser.close()
  await player.close()
}
