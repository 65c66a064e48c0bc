import { truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildArchive, deflateBomb } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir } from '../../test/helpers/tree'

const manifest = JSON.stringify({ id: 'x', parts: ['story/0001-a.sty'] })

/** Hostile archives every command must refuse with a diagnostic, never a crash or an exit 2. */
const HOSTILE: Record<string, () => Uint8Array> = {
  'a deflate bomb declaring a small size': () =>
    buildArchive([
      { name: 'manifest.json', data: manifest },
      { name: 'story/0001-a.sty', payload: deflateBomb(80 * 2 ** 20), size: 10, crc: 0 },
    ]),
  'an entry escaping the root': () =>
    buildArchive({ 'manifest.json': manifest, 'story/0001-a.sty': 'Hi', '../evil.sty': 'x' }),
  'a symlink entry': () =>
    buildArchive([
      { name: 'manifest.json', data: manifest },
      { name: 'story/0001-a.sty', data: '/etc/passwd', unixMode: 0o120777 },
    ]),
  'duplicate names': () =>
    buildArchive([
      { name: 'manifest.json', data: manifest },
      { name: 'story/0001-a.sty', data: 'a' },
      { name: 'story/0001-a.sty', data: 'b' },
    ]),
  'a truncated archive': () =>
    buildArchive({ 'manifest.json': manifest, 'story/0001-a.sty': 'Hi' }).subarray(0, 60),
}

describe('hostile archives', () => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    it(`validate, verify, sign and inspect refuse ${name} with a diagnostic (exit 1)`, async () => {
      const cwd = freshDir()
      writeFileSync(join(cwd, 'bad.spkg'), make())
      await runCli(['keygen', '-o', 'k'], { cwd })
      const v = await runCli(['validate', 'bad.spkg', '--format', 'json'], { cwd })
      expect(v.stderr).toBe('')
      expect(v.code).toBe(1)
      const report = JSON.parse(v.stdout)
      expect(report.loads).toBe(false)
      expect(report.diagnostics.some((d: { severity: string }) => d.severity === 'fatal')).toBe(true)
      for (const args of [
        ['verify', 'bad.spkg'],
        ['sign', 'bad.spkg', '-k', 'k.sec', '-o', 'out.spkg'],
      ]) {
        const r = await runCli(args, { cwd })
        expect(r.stderr).toBe('')
        expect(r.code).toBe(1)
        expect(r.stdout).toMatch(/fatal pkg\//)
      }
      // The quick look reads only the directory and the manifest: a bomb inside a part passes it
      // (declared sizes shown, nothing inflated); everything else is refused there already.
      const i = await runCli(['inspect', 'bad.spkg'], { cwd })
      expect(i.stderr).toBe('')
      if (name.startsWith('a deflate bomb')) {
        expect(i.code).toBe(0)
        expect(i.stdout).toMatch(/ +10 +\d+ +deflate +story\/0001-a\.sty\n/)
      } else {
        expect(i.code).toBe(1)
        expect(i.stdout).toMatch(/fatal pkg\/[\s\S]*bad\.spkg: cannot be read as a package\n$/)
      }
    })
  }

  it('refuses a 3 GiB file from its size alone (pkg/too-large, exit 1), without reading it', async () => {
    const cwd = freshDir()
    writeFileSync(join(cwd, 'huge.spkg'), '')
    truncateSync(join(cwd, 'huge.spkg'), 3 * 2 ** 30) // sparse: nothing written, nothing to read
    await runCli(['keygen', '-o', 'k'], { cwd })
    for (const args of [
      ['validate', 'huge.spkg'],
      ['verify', 'huge.spkg'],
      ['inspect', 'huge.spkg'],
      ['sign', 'huge.spkg', '-k', 'k.sec', '-o', 'out.spkg'],
    ]) {
      const before = process.memoryUsage().rss
      const r = await runCli(args, { cwd })
      expect(r.stderr, args[0]).toBe('')
      expect(r.code, args[0]).toBe(1)
      expect(r.stdout, args[0]).toMatch(/fatal pkg\/too-large: .*3221225472 bytes/)
      expect(process.memoryUsage().rss - before, args[0]).toBeLessThan(256 * 2 ** 20)
    }
  })

  it('refuses an endless stream (/dev/zero, standard input) after a bound instead of reading it forever', async () => {
    const cwd = freshDir()
    await runCli(['keygen', '-o', 'k'], { cwd })
    for (const args of [
      ['validate', '/dev/zero'],
      ['verify', '/dev/zero'],
      ['inspect', '/dev/zero'],
      ['sign', '/dev/zero', '-k', 'k.sec', '-o', 'out.spkg'],
    ]) {
      const r = await runCli(args, { cwd })
      expect(r.stderr, args[0]).toBe('')
      expect(r.code, args[0]).toBe(1)
      expect(r.stdout, args[0]).toMatch(/fatal pkg\/too-large: '\/dev\/zero' goes on past 104857600 bytes/)
    }
    const piped = await runCli(['validate', '-', '--format', 'json'], {
      cwd,
      stdin: new Uint8Array(105 * 2 ** 20),
    })
    expect(piped.code).toBe(1)
    expect(JSON.parse(piped.stdout).diagnostics).toMatchObject([{ code: 'pkg/too-large', severity: 'fatal' }])
  }, 60_000)
})
