/**
 * `node --conditions=@spkg/source --import tsx bench/reader-browser/player-open.ts`: the first open of
 * a local file in the built spkg player, with and without V8's compile hint on the chunks that
 * hold the reader (apps/player/src/build/compile-hint.ts). Builds the player if its dist/ is stale,
 * copies it twice (once with the hint lines taken out), then, in alternating fresh browser
 * contexts, opens `#/open`, waits until the view shows and 400 ms more, and hands the file input
 * the 500 small entries of `pnpm bench reader` (a `File` in memory): from the `change` event to
 * the player's move to `#/play` (the open done, every check passed). The service worker is not
 * registered (its precaching would run beside the open). `RUNS=n` rounds (default 20).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { launchChromium } from '@spkg/test-utils/chromium'
import { COMPILE_HINT } from '../../apps/player/src/build/compile-hint'
import { ensurePlayerBuilt, snapshotPlayer } from '../../apps/player/test/e2e/build'
import { pack, specs } from './packages'

const runs = Number(process.env.RUNS ?? 20)
const work = mkdtempSync(join(tmpdir(), 'spkg-player-open-'))
const dirs = { hint: join(work, 'hint'), 'no hint': join(work, 'no-hint') }
await snapshotPlayer(dirs.hint, await ensurePlayerBuilt())
await snapshotPlayer(dirs['no hint'], dirs.hint)
let hinted = 0
for (const name of readdirSync(join(dirs['no hint'], 'assets'))) {
  const file = join(dirs['no hint'], 'assets', name)
  const code = readFileSync(file, 'utf8')
  if (!code.startsWith(COMPILE_HINT)) continue
  writeFileSync(file, code.slice(COMPILE_HINT.length))
  hinted++
}
if (hinted === 0) throw new Error('no chunk of the built player carries the compile hint')
const body = Buffer.from(pack(specs.find((s) => s.key === 'small-500')!))
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
}

const browser = await launchChromium()
const res: Record<keyof typeof dirs, number[]> = { hint: [], 'no hint': [] }
try {
  for (let r = 0; r < runs; r++) {
    for (const k of (r % 2 ? ['hint', 'no hint'] : ['no hint', 'hint']) as Array<keyof typeof dirs>) {
      const context = await browser.newContext()
      const page = await context.newPage()
      page.on('pageerror', (e) => console.error(`page error (${k}): ${e.message}`))
      await page.route('http://localhost/**', (route) => {
        const path = new URL(route.request().url()).pathname
        if (path === '/package.spkg') return route.fulfill({ body, contentType: 'application/octet-stream' })
        if (path === '/register-sw.js') return route.fulfill({ body: '', contentType: 'text/javascript' })
        const file = join(dirs[k], path === '/' ? 'index.html' : path)
        try {
          return route.fulfill({
            body: readFileSync(file),
            contentType: TYPES[extname(file)] ?? 'application/octet-stream',
          })
        } catch {
          return route.fulfill({ status: 404, body: '' })
        }
      })
      await page.goto('http://localhost/#/open')
      await page.waitForSelector('#open-file', { state: 'attached' })
      await page.evaluate(async () => {
        const bytes = new Uint8Array(await (await fetch('/package.spkg')).arrayBuffer())
        ;(globalThis as { benchFile?: File }).benchFile = new File([bytes], 'small-500.spkg')
      })
      await page.waitForTimeout(400)
      const ms = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const input = document.getElementById('open-file') as HTMLInputElement
            const files = new DataTransfer()
            files.items.add((globalThis as { benchFile?: File }).benchFile!)
            input.files = files.files
            const t0 = performance.now()
            addEventListener('hashchange', () => resolve(performance.now() - t0), { once: true })
            input.dispatchEvent(new Event('change'))
          }),
      )
      res[k].push(ms)
      await context.close()
    }
    process.stderr.write(
      `  round ${r + 1}/${runs}: hint ${res.hint.at(-1)!.toFixed(1)}, no hint ${res['no hint'].at(-1)!.toFixed(1)} ms\n`,
    )
  }
} finally {
  await browser.close()
  rmSync(work, { recursive: true, force: true })
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!
console.log(
  `${hinted} chunks carry the hint; ${runs} rounds, load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
)
for (const k of ['no hint', 'hint'] as const)
  console.log(
    `${k.padEnd(7)} median ${median(res[k]).toFixed(1)} ms, best ${Math.min(...res[k]).toFixed(1)} ms`,
  )
console.log(
  `hint / no hint, median of per-round ratios: ${median(res.hint.map((x, i) => x / res['no hint'][i]!)).toFixed(3)}`,
)
