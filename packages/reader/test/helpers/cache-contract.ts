/**
 * The cache-driver contract as plain data: each case gets a fresh driver, wraps it in
 * {@link createPackageCache} and throws on a broken promise. The same cases run under Vitest
 * (memory and folder drivers) and in real Chromium (Cache Storage), so no case may import a
 * test framework.
 */
import { isSpkgError } from '@spkg/manifest'
import { createPackageCache } from '../../src/cache/create-package-cache'
import type { CacheDriver } from '../../src/cache/types'

/** One contract case. */
export interface CacheCase {
  name: string
  run(driver: CacheDriver): Promise<void>
}

const enc = new TextEncoder()
const A = { id: 'the-inn', version: '1.0.0' }
const B = { id: 'the-inn', version: '1.1.0' }

function fail(message: string): never {
  throw new Error(message)
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual instanceof Uint8Array ? [...actual] : actual)
  const e = JSON.stringify(expected instanceof Uint8Array ? [...expected] : expected)
  if (a !== e) fail(`${what}: expected ${e}, got ${a}`)
}

async function rejectsWith(promise: Promise<unknown>, code: string, what: string): Promise<void> {
  try {
    await promise
  } catch (error) {
    if (isSpkgError(error) && error.code === code) return
    fail(`${what}: expected SpkgError ${code}, got ${error}`)
  }
  fail(`${what}: expected SpkgError ${code}, but it succeeded`)
}

const HELLO_HEX = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'

/** Every case of the cache contract. */
export const CACHE_CASES: readonly CacheCase[] = [
  {
    name: 'put then get returns the bytes; has and files list them',
    async run(driver) {
      const cache = createPackageCache(driver)
      const rec = await cache.put(A, 'story/0001-inn.sty', enc.encode('hello'))
      same(rec, { path: 'story/0001-inn.sty', hash: HELLO_HEX, size: 5 }, 'put record')
      same(await cache.get(A, 'story/0001-inn.sty'), enc.encode('hello'), 'get')
      same(await cache.has(A, 'story/0001-inn.sty'), true, 'has')
      same(await cache.has(A, 'story/other.sty'), false, 'has absent')
      same(await cache.get(A, 'story/other.sty'), undefined, 'get absent')
      same(await cache.get(B, 'story/0001-inn.sty'), undefined, 'other version')
      await cache.put(A, 'media/ünï cødé 🐉.png', new Uint8Array([0, 255]))
      same(
        (await cache.files(A)).map((f) => f.path),
        ['media/ünï cødé 🐉.png', 'story/0001-inn.sty'],
        'files sorted by path',
      )
    },
  },
  {
    name: 'put refuses bytes that do not match the given hash, and stores nothing',
    async run(driver) {
      const cache = createPackageCache(driver)
      await rejectsWith(
        cache.put(A, 'a.sty', enc.encode('hello'), `${'0'.repeat(64)}`),
        'pkg/integrity-mismatch',
        'put',
      )
      same(await cache.has(A, 'a.sty'), false, 'nothing stored')
      await cache.put(A, 'a.sty', enc.encode('hello'), 'sha256-LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=')
      same(await cache.has(A, 'a.sty'), true, 'an SRI digest is accepted')
      await rejectsWith(
        cache.put(A, 'b.sty', enc.encode('x'), 'md5-x'),
        'pkg/integrity-malformed',
        'bad digest',
      )
    },
  },
  {
    name: 'a stored file whose bytes changed is discarded, never returned',
    async run(driver) {
      const cache = createPackageCache(driver)
      await cache.put(A, 'a.sty', enc.encode('hello'))
      const keys = await driver.list('f/')
      same(keys.length, 1, 'one stored file')
      await driver.write(keys[0]!, enc.encode('HELLO'))
      same(await cache.get(A, 'a.sty'), undefined, 'get after tampering')
      same(await driver.list('f/'), [], 'the damaged file was removed')
      same(await cache.getByHash('the-inn', HELLO_HEX), undefined, 'getByHash after tampering')
    },
  },
  {
    name: 'getByHash finds bytes of any version of the same package only',
    async run(driver) {
      const cache = createPackageCache(driver)
      await cache.put(A, 'old-name.sty', enc.encode('hello'))
      same(await cache.getByHash('the-inn', HELLO_HEX), enc.encode('hello'), 'by hex')
      same(
        await cache.getByHash('the-inn', `sha256-${btoa(String.fromCharCode(...hexBytes(HELLO_HEX)))}`),
        enc.encode('hello'),
        'by SRI',
      )
      same(await cache.getByHash('other-story', HELLO_HEX), undefined, 'other package')
    },
  },
  {
    name: 'versions are incomplete until complete(), and a later put makes them incomplete again',
    async run(driver) {
      const cache = createPackageCache(driver)
      same(await cache.versions('the-inn'), [], 'no versions')
      await cache.put(A, 'a.sty', enc.encode('a'))
      same(await cache.versions('the-inn'), [{ ...A, complete: false }], 'after put')
      await cache.complete(A)
      await cache.put(B, 'a.sty', enc.encode('a'))
      same(
        await cache.versions('the-inn'),
        [
          { ...A, complete: true },
          { ...B, complete: false },
        ],
        'two versions',
      )
      await cache.put(A, 'b.sty', enc.encode('b'))
      same((await cache.versions('the-inn'))[0]?.complete, false, 'put after complete')
    },
  },
  {
    name: 'delete removes one file; removeVersion keeps files another version uses',
    async run(driver) {
      const cache = createPackageCache(driver)
      await cache.put(A, 'shared.sty', enc.encode('shared'))
      await cache.put(A, 'only-a.sty', enc.encode('only a'))
      await cache.put(B, 'renamed.sty', enc.encode('shared'))
      await cache.complete(A)
      await cache.delete(A, 'only-a.sty')
      same(await cache.has(A, 'only-a.sty'), false, 'deleted')
      same((await cache.versions('the-inn'))[0]?.complete, false, 'delete makes it incomplete')
      await cache.put(A, 'only-a.sty', enc.encode('only a'))
      await cache.removeVersion(A)
      same(await cache.versions('the-inn'), [{ ...B, complete: false }], 'A is gone')
      same(await cache.files(A), [], 'no files of A')
      same(await cache.get(B, 'renamed.sty'), enc.encode('shared'), 'B keeps the shared bytes')
      same((await driver.list('f/')).length, 1, 'the file only A used was removed')
      await cache.removeVersion(B)
      same(await driver.list('f/'), [], 'nothing left')
      await cache.removeVersion(B)
    },
  },
  {
    name: 'bad references are pkg/cache-failed',
    async run(driver) {
      const cache = createPackageCache(driver)
      await rejectsWith(
        cache.put({ id: '', version: '1' }, 'a', enc.encode('a')),
        'pkg/cache-failed',
        'empty id',
      )
      await rejectsWith(cache.files({ id: 'x', version: '' }), 'pkg/cache-failed', 'empty version')
      await rejectsWith(cache.versions(''), 'pkg/cache-failed', 'versions of empty id')
      await rejectsWith(cache.put(A, '', enc.encode('a')), 'pkg/cache-failed', 'empty path')
    },
  },
  {
    name: 'ids, versions and paths with any characters stay apart',
    async run(driver) {
      const cache = createPackageCache(driver)
      const odd = { id: '../etc', version: '..' }
      await cache.put(odd, '../../x', enc.encode('x'))
      await cache.put({ id: '../etc', version: '.' }, '../../x', enc.encode('y'))
      same(await cache.get(odd, '../../x'), enc.encode('x'), 'odd names')
      same(
        (await cache.versions('../etc')).map((v) => v.version),
        ['.', '..'],
        'two versions',
      )
      for (const key of await driver.list('e/')) if (!/^[a-z0-9/]+$/.test(key)) fail(`unsafe key ${key}`)
    },
  },
]

function hexBytes(hex: string): number[] {
  const out: number[] = []
  for (let i = 0; i < hex.length; i += 2) out.push(Number.parseInt(hex.slice(i, i + 2), 16))
  return out
}
