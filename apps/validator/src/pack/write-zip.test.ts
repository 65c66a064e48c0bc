import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hasTool } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { writeZip } from './write-zip'

const text = new TextEncoder().encode('The road forks. '.repeat(50))
const noise = new Uint8Array(Array.from({ length: 64 }, (_, i) => (i * 97 + 13) % 251))

const sevenZip = ['7z', '7zz', '7za'].find((c) => {
  try {
    execFileSync('sh', ['-c', `command -v ${c}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})

function archive(): string {
  const { bytes } = writeZip([
    { path: 'manifest.json', data: text, method: 8 },
    { path: 'assets/ünïcode.png', data: noise, method: 0 },
    { path: 'story/tiny.sty', data: new TextEncoder().encode('a'), method: 8 },
  ])
  const file = join(mkdtempSync(join(tmpdir(), 'spkg-wz-')), 'a.zip')
  writeFileSync(file, bytes)
  return file
}

describe('writeZip', () => {
  it('stores a file deflate would not shrink, and reports what each entry became', () => {
    const { entries } = writeZip([
      { path: 'a.txt', data: text, method: 8 },
      { path: 'b.txt', data: new TextEncoder().encode('a'), method: 8 },
    ])
    expect(entries[0]).toMatchObject({ method: 8, size: text.length })
    expect(entries[0]!.compressedSize).toBeLessThan(text.length)
    expect(entries[1]).toEqual({ path: 'b.txt', size: 1, compressedSize: 1, method: 0 })
  })

  it.skipIf(!hasTool('python'))("writes archives Python's zipfile reads back byte for byte", () => {
    const file = archive()
    const out = execFileSync('python3', [
      '-c',
      'import sys,zipfile,hashlib\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nfor i in z.infolist(): print(i.filename, i.compress_type, i.date_time, hashlib.sha256(z.read(i)).hexdigest()[:8])',
      file,
    ]).toString()
    expect(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ').slice(0, 2).join(' ')),
    ).toEqual(['manifest.json 8', 'assets/ünïcode.png 0', 'story/tiny.sty 0'])
    expect(out).toContain('(1980, 1, 1, 0, 0, 0)')
  })

  it.skipIf(!sevenZip)('writes archives 7-Zip tests clean', () => {
    const out = execFileSync(sevenZip!, ['t', archive()]).toString()
    expect(out).toContain('Everything is Ok')
  })

  it.skipIf(!hasTool('bsdtar'))('writes archives bsdtar lists with their UTF-8 names', () => {
    const out = execFileSync('bsdtar', ['-tf', archive()]).toString()
    expect(out.split('\n').filter(Boolean)).toEqual(['manifest.json', 'assets/ünïcode.png', 'story/tiny.sty'])
  })
})
