/**
 * The storage-driver contract as plain data: each case takes a fresh driver and throws on a
 * broken promise. The same cases run under Vitest ({@link testStateDriver}) and in real Chromium
 * (the browser drivers), so no case may import a test framework. Not test-only code: it is
 * published as `@spkg/state/testing`, for anyone writing a driver.
 */
import { isSpkgError } from '@spkg/manifest'
import type { StateDriver } from '../types'

/** One contract case. */
export interface DriverCase {
  name: string
  run(driver: StateDriver): Promise<void>
}

function fail(message: string): never {
  throw new Error(message)
}

/** JSON with object keys sorted, so key order does not count as a difference. */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

function equal(actual: unknown, expected: unknown, what: string): void {
  const a = canonical(actual)
  const e = canonical(expected)
  if (a !== e) fail(`${what}: expected ${e}, got ${a}`)
}

async function rejectsWith(promise: Promise<unknown>, code: string, what: string): Promise<void> {
  try {
    await promise
  } catch (error) {
    if (isSpkgError(error) && error.code === code) return
    fail(
      `${what}: expected SpkgError ${code}, got ${error instanceof Error ? `${error.name}: ${error.message}` : error}`,
    )
  }
  fail(`${what}: expected SpkgError ${code}, but it succeeded`)
}

const KEYS = [
  'plain',
  'story/0001-inn.sty',
  'with space',
  '../escape',
  '...',
  'ünïcødé-🐉',
  'a%20b',
  'CON',
  '.hidden',
]

/** Every case of the driver contract. */
export const DRIVER_CASES: readonly DriverCase[] = [
  {
    name: 'reads nothing for a key never written',
    async run(d) {
      equal(await d.get('missing'), undefined, 'get')
      equal(await d.keys(), [], 'keys')
    },
  },
  {
    name: 'reads back what it wrote with the revision it returned',
    async run(d) {
      const { revision } = await d.set('k', '{"a":1}')
      if (typeof revision !== 'string' || revision === '') fail(`bad revision ${JSON.stringify(revision)}`)
      equal(await d.get('k'), { value: '{"a":1}', revision }, 'get')
    },
  },
  {
    name: 'changes the revision when the value changes',
    async run(d) {
      const a = await d.set('k', 'one')
      const b = await d.set('k', 'two')
      if (a.revision === b.revision) fail('revision did not change')
      equal((await d.get('k'))?.value, 'two', 'value')
    },
  },
  {
    name: 'keeps keys apart, including ones that look like paths',
    async run(d) {
      for (const [i, k] of KEYS.entries()) await d.set(k, `value ${i}`)
      for (const [i, k] of KEYS.entries()) equal((await d.get(k))?.value, `value ${i}`, `get ${k}`)
      equal((await d.keys()).sort(), [...KEYS].sort(), 'keys')
    },
  },
  {
    name: 'writes when the expected revision matches',
    async run(d) {
      const first = await d.set('k', 'one', { ifRevision: null })
      const second = await d.set('k', 'two', { ifRevision: first.revision })
      equal(await d.get('k'), { value: 'two', revision: second.revision }, 'get')
    },
  },
  {
    name: 'refuses a stale write with state/conflict and keeps the stored value',
    async run(d) {
      const first = await d.set('k', 'one')
      await d.set('k', 'two (another device)')
      await rejectsWith(d.set('k', 'three', { ifRevision: first.revision }), 'state/conflict', 'stale set')
      equal((await d.get('k'))?.value, 'two (another device)', 'value after conflict')
    },
  },
  {
    name: 'refuses a first save over an existing state with state/conflict',
    async run(d) {
      await d.set('k', 'one')
      await rejectsWith(d.set('k', 'two', { ifRevision: null }), 'state/conflict', 'create over existing')
      equal((await d.get('k'))?.value, 'one', 'value')
    },
  },
  {
    name: 'refuses an expected revision when nothing is stored',
    async run(d) {
      await rejectsWith(d.set('k', 'one', { ifRevision: 'abc' }), 'state/conflict', 'set over nothing')
      equal(await d.get('k'), undefined, 'get')
    },
  },
  {
    name: 'lets exactly one of two racing saves of the same revision win',
    async run(d) {
      const { revision } = await d.set('k', 'base')
      const results = await Promise.allSettled([
        d.set('k', 'left', { ifRevision: revision }),
        d.set('k', 'right', { ifRevision: revision }),
      ])
      const won = results.filter((r) => r.status === 'fulfilled').length
      equal(won, 1, 'winners')
      const lost = results.find((r) => r.status === 'rejected')
      if (!lost || !isSpkgError(lost.reason) || lost.reason.code !== 'state/conflict')
        fail('loser is not a conflict')
      const value = (await d.get('k'))?.value
      if (value !== 'left' && value !== 'right') fail(`value is ${value}`)
    },
  },
  {
    name: 'removes a key, and removing a missing key is fine',
    async run(d) {
      await d.set('a', '1')
      await d.set('b', '2')
      await d.remove('a')
      await d.remove('never-there')
      equal(await d.get('a'), undefined, 'get removed')
      equal(await d.keys(), ['b'], 'keys')
      await d.set('a', 'again', { ifRevision: null })
      equal((await d.get('a'))?.value, 'again', 'recreated')
    },
  },
  {
    name: 'round-trips unicode, newlines and a 2 MB value exactly',
    async run(d) {
      const text = `{"t":"line\\none\n🐉 ü \\u0000 \u2028"}`
      await d.set('u', text)
      equal((await d.get('u'))?.value, text, 'unicode')
      const big = JSON.stringify({ choices: Array.from({ length: 75_000 }, (_, i) => `option-${i}`) }).padEnd(
        2e6,
        ' ',
      )
      await d.set('big', big)
      const back = (await d.get('big'))?.value
      if (back !== big) fail(`big value came back with ${back?.length} chars instead of ${big.length}`)
    },
  },
  {
    name: 'stops before touching storage when the signal is already aborted',
    async run(d) {
      const signal = AbortSignal.abort()
      let threw = false
      await d.set('k', 'x', { signal }).catch(() => {
        threw = true
      })
      if (!threw) fail('set with an aborted signal succeeded')
      equal(await d.get('k'), undefined, 'get')
    },
  },
]

/** Runs every case against fresh drivers, returning failures (for runners without a framework). */
export async function runDriverCases(
  makeDriver: () => StateDriver | Promise<StateDriver>,
): Promise<Array<{ name: string; error?: string }>> {
  const results: Array<{ name: string; error?: string }> = []
  for (const c of DRIVER_CASES) {
    try {
      await c.run(await makeDriver())
      results.push({ name: c.name })
    } catch (error) {
      results.push({ name: c.name, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return results
}
