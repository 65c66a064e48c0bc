/**
 * `BASE=<checkout> node --conditions=@spkg/source --import tsx bench/reader-browser/ab.ts [case]`:
 * the cold open of the 500 small entries in Chromium, this tree against another checkout of the
 * repository (a `git worktree` of the previous commit, say), alternating in every round with the
 * native tools (`unzip` + `sha256sum -c`), so that a burst of load on a shared machine falls on all
 * three alike. Prints each one's median and best wall time and the medians of the per-round
 * ratios. `RUNS=n` rounds (default 15); `HINT=base|this|both` prepends V8's
 * `//# allFunctionsCalledOnLoad` to that page's script (see the reader README; `HINT=1`, as for
 * every script of cold-page.ts, is `this`). Each checkout's page is bundled from its sources. The
 * native tools check the files `pnpm bench reader-browser` has them check.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pause } from '../reader/settle'
import { COMPILE_HINT, coldPage, launchBench, packageBody, pageScript } from './cold-page'
import { checksums, nativeCommand, specs } from './packages'

const name = process.argv[2] ?? 'default web backend (shipped choice)'
const runs = Number(process.env.RUNS ?? 15)
const base = process.env.BASE
if (!base) throw new Error('BASE=<another checkout of the repository>')
const hint = process.env.HINT ?? ''

const body = packageBody('small-500')
const scripts: Record<string, string> = { base: await pageScript(base), this: await pageScript() }
for (const k of ['base', 'this']) if (hint === k || hint === 'both') scripts[k] = COMPILE_HINT + scripts[k]!
const browser = await launchBench()

// The native tools on the same package, with a checksum file of its files.
const dir = mkdtempSync(join(tmpdir(), 'spkg-ab-'))
const file = join(dir, 'package.spkg')
writeFileSync(file, body)
const sums = join(dir, 'sums')
writeFileSync(sums, checksums(specs.find((s) => s.key === 'small-500')!))
function native(): number {
  const out = mkdtempSync(join('/dev/shm', 'spkg-ab-'))
  pause()
  try {
    const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3R'; time ( ${nativeCommand(file, out, sums)} )`], {
      encoding: 'utf8',
    })
    if (r.status !== 0) throw new Error(`native tools failed: ${r.stderr}`)
    return Number(r.stderr.trim().split('\n').pop()) * 1000
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** On-CPU ns of each process's main thread (/proc schedstat: not counting time waiting for a core). */
function mainThreadNs(): Map<number, number> {
  const out = new Map<number, number>()
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--type=renderer')) continue
      out.set(Number(d), Number(readFileSync(`/proc/${d}/task/${d}/schedstat`, 'utf8').split(' ')[0]))
    } catch {
      // gone
    }
  }
  return out
}

/** The busiest renderer main thread's CPU ms between two readings: the page's. */
function pageCpu(before: Map<number, number>, after: Map<number, number>): number {
  let most = 0
  for (const [pid, ns] of after) most = Math.max(most, (ns - (before.get(pid) ?? ns)) / 1e6)
  return most
}

const res: Record<string, number[]> = { base: [], this: [], native: [] }
const cpu: Record<string, number[]> = { base: [], this: [] }
try {
  for (let r = 0; r < runs; r++) {
    const order = [
      ['base', 'this', 'native'],
      ['this', 'native', 'base'],
      ['native', 'base', 'this'],
    ][r % 3]!
    for (const k of order) {
      if (k === 'native') {
        res.native!.push(native())
        continue
      }
      const { page, run } = await coldPage(browser, scripts[k]!, body, name)
      const before = mainThreadNs()
      res[k]!.push(await run())
      cpu[k]!.push(pageCpu(before, mainThreadNs()))
      await page.context().close()
    }
    process.stderr.write(
      `  round ${r + 1}/${runs}: base ${res.base!.at(-1)!.toFixed(1)}, this ${res.this!.at(-1)!.toFixed(1)}, native ${res.native!.at(-1)!.toFixed(1)} ms\n`,
    )
  }
} finally {
  await browser.close()
  rmSync(dir, { recursive: true, force: true })
}
const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y)
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const ratio = (a: string, b: string, of = res) => median(of[a]!.map((x, i) => x / of[b]![i]!))
for (const k of ['base', 'this', 'native'])
  console.log(
    `${k.padEnd(7)} median ${median(res[k]!).toFixed(1)} ms, best ${Math.min(...res[k]!).toFixed(1)} ms` +
      (cpu[k] ? `, renderer main thread CPU median ${median(cpu[k]!).toFixed(1)} ms` : ''),
  )
console.log(
  `renderer main thread CPU, per-round ratio (median): this/base ${ratio('this', 'base', cpu).toFixed(3)}`,
)
console.log(
  `per-round ratios (medians): this/base ${ratio('this', 'base').toFixed(3)}, base/native ${ratio('base', 'native').toFixed(3)}, this/native ${ratio('this', 'native').toFixed(3)}`,
)
