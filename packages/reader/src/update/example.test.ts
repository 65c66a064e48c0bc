import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import fastifyStatic from '@fastify/static'
import { buildPackage } from '@spkg/test-utils'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'

const pkg = join(import.meta.dirname, '..', '..')
/** 100 KB that does not compress (xorshift32). */
function media(seed: number): Uint8Array {
  let x = seed * 2654435761 || 1
  return Uint8Array.from({ length: 100_000 }, () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return x & 0xff
  })
}

describe('the offline and update README example', () => {
  it('is the same code as in the README', async () => {
    const readme = await readFile(join(pkg, 'README.md'), 'utf8')
    expect(readme).toContain((await readFile(join(pkg, 'examples/offline-update.ts'), 'utf8')).trim())
  })

  it('saves, opens offline and updates by delta', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spkg-example-'))
    const app = Fastify()
    try {
      const spec = (version: string, changed: number) => ({
        manifest: { id: 'the-inn', version, offline: true },
        parts: { 'story/0001-inn.sty': 'You push the door.\n' },
        assets: Object.fromEntries(
          [1, 2, 3, 4].map((i) => [`assets/${i}.png`, media(i === changed ? 99 : i)]),
        ),
        integrity: true,
      })
      await writeFile(join(dir, 'v1.spkg'), buildPackage(spec('1.0.0', 0)))
      await writeFile(join(dir, 'v2.spkg'), buildPackage(spec('1.1.0', 3)))
      await app.register(fastifyStatic, { root: dir })
      const base = await app.listen({ host: '127.0.0.1', port: 0 })
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--conditions=@spkg/source',
          '--import',
          'tsx',
          'examples/offline-update.ts',
          join(dir, 'cache'),
          join(dir, 'v1.spkg'),
          `${base}/v2.spkg`,
        ],
        { cwd: pkg, encoding: 'utf8', timeout: 60_000 },
      )
      expect(stdout).toContain('saved 1.0.0 6 files\n')
      expect(stdout).toContain('offline story/0001-inn.sty\n')
      expect(stdout).toMatch(/delta 1\.1\.0 \[ 'manifest\.json', 'assets\/3\.png' \] \d+\/\d+\n/)
    } finally {
      await app.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
