/**
 * `peekPackageFile` of a large file allocates buffers of the ranges it reads, never one the size
 * of the file. Measured in a child process started with `--expose-gc`, where the heap's external
 * memory (`arrayBuffers`) after a full collection counts what the peek result keeps.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildPackage } from '@spkg/test-utils'
import { afterAll, describe, expect, it } from 'vitest'

const MiB = 1024 * 1024
const dir = mkdtempSync(join(tmpdir(), 'spkg-peek-memory-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const child = `
import { peekPackageFile } from '${pathToFileURL(join(import.meta.dirname, '../node.ts')).href}'
const gc = globalThis.gc
const external = () => (gc(), gc(), process.memoryUsage().arrayBuffers)
const before = external()
const peek = await peekPackageFile(process.argv[2])
if (!peek.ok) throw new Error(JSON.stringify(peek.diagnostics))
const cover = await peek.readBytes(peek.manifest.cover)
const held = external() - before
console.log(JSON.stringify({ held, title: peek.manifest.title, cover: cover.length }))
`

describe('peekPackageFile memory', () => {
  it('keeps well under 1 MiB of buffers for a 48 MiB file (the ranges it read)', () => {
    const file = join(dir, 'big.spkg')
    writeFileSync(
      file,
      buildPackage({
        manifest: { title: 'Big', cover: 'assets/cover.webp' },
        assets: {
          'assets/cover.webp': new Uint8Array(20 * 1024).fill(7),
          'assets/film.webm': new Uint8Array(48 * MiB),
        },
        integrity: true,
        entry: { 'assets/cover.webp': { method: 0 }, 'assets/film.webm': { method: 0 } },
      }),
    )
    const script = join(dir, 'peek.mts')
    writeFileSync(script, child)
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--conditions=@spkg/source', '--import', 'tsx', script, file],
      { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8' },
    )
    const { held, title, cover } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}')
    expect(title).toBe('Big')
    expect(cover).toBe(20 * 1024)
    // Head (64 KiB), tail (64 KiB + end records) and the cover: before, a 48 MiB buffer.
    expect(held).toBeLessThan(1 * MiB)
  })
})
