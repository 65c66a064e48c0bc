import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'

describe('spkg inspect', () => {
  it('shows the headline fields and every entry with size, packed size and method', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ version: '2.1.0', author: 'Ann' }))
    await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    const r = await runCli(['inspect', 'inn.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /^title: {3}Test Inn\nauthor: {2}Ann\nid: {6}0b7c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e1f\nversion: 2\.1\.0\nlayout: {2}packaged\ntype: {4}story\nentry: {3}story\/0001-inn\.sty\nsigned: {2}no\n/,
    )
    expect(r.stdout).toMatch(/\n4 entries, \d+ bytes \(\d+ compressed\):\n/)
    expect(r.stdout).toMatch(/ {2}300 +300 {2}stored {3}assets\/cover\.jpg\n/)
    expect(r.stdout).toMatch(/ deflate {2}story\/0001-inn\.sty\n/)
    const json = JSON.parse((await runCli(['inspect', 'inn.spkg', '--format', 'json'], { cwd })).stdout)
    expect(json).toMatchObject({
      ok: true,
      title: 'Test Inn',
      author: [{ name: 'Ann' }], // the text format shows it; JSON had left it out
      version: '2.1.0',
      layout: 'packaged',
      signed: false,
    })
    expect(json.entries[0]).toMatchObject({ path: 'manifest.json', method: 'deflate' })
  })

  it('exits 1 on a file that is not a package', async () => {
    const cwd = freshDir()
    writeFileSync(join(cwd, 'x.spkg'), 'nope')
    const r = await runCli(['inspect', 'x.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/fatal pkg\/not-zip.*\nx\.spkg: cannot be read as a package\n$/)
  })

  it("never prints an archive's control characters raw (a title or entry name cannot drive the terminal)", async () => {
    const cwd = freshDir()
    const manifest = {
      id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
      title: 'Inn\x1b[2J\x1b]0;pwned\x07',
      author: 'A\rB',
      parts: ['story/a.sty'],
    }
    writeFileSync(
      join(cwd, 'esc.spkg'),
      zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)), 'story/a.sty': strToU8('Hi.\n') }),
    )
    const r = await runCli(['inspect', 'esc.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/)
    expect(r.stdout).toContain('title:   Inn\\x1b[2J\\x1b]0;pwned\\x07\n')
    expect(r.stdout).toContain('author:  A\\rB\n')
    // JSON keeps the exact value (JSON escapes it).
    expect(JSON.parse((await runCli(['inspect', 'esc.spkg', '-f', 'json'], { cwd })).stdout).title).toBe(
      manifest.title,
    )
  })
})
