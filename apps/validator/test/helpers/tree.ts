/**
 * Test helpers for the pack/sign/verify/validate commands: story folders written by code into
 * fresh temporary directories, and a small reader of what a ZIP's central directory says.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A fresh temporary directory. */
export function freshDir(prefix = 'spkg-cmd-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** Writes `tree` (relative path → content) under `root` and returns `root`. */
export function writeTree(root: string, tree: Record<string, string | Uint8Array>): string {
  for (const [name, content] of Object.entries(tree)) {
    const file = join(root, name)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
  return root
}

/** A small valid story folder: manifest with id, two parts, a cover. */
export function storyTree(manifest: Record<string, unknown> = {}): Record<string, string | Uint8Array> {
  return {
    'manifest.json': JSON.stringify({
      id: '0b7c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e1f',
      title: 'Test Inn',
      cover: 'assets/cover.jpg',
      parts: ['story/0001-inn.sty', 'story/0002-road.sty'],
      assets: ['assets/cover.jpg'],
      ...manifest,
    }),
    'story/0001-inn.sty':
      '# The inn\n\nYou wake in the inn. The road waits outside the door, and so does the rain.\n',
    'story/0002-road.sty': '# The road\n\nThe road forks under the old oak, and the rain keeps falling.\n',
    // Not a real JPEG, but .jpg is what decides the compression method.
    'assets/cover.jpg': new Uint8Array(Array.from({ length: 300 }, (_, i) => (i * 7) % 256)),
  }
}

/** One central-directory record as the archive states it. */
export interface CentralRecord {
  name: string
  method: number
  dosTime: number
  dosDate: number
  externalAttributes: number
}

/** Reads the central directory of a ZIP without any of the code under test. */
export function centralDirectory(bytes: Uint8Array): CentralRecord[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const eocd = bytes.length - 22
  if (v.getUint32(eocd, true) !== 0x06054b50) throw new Error('no end record at the end')
  const count = v.getUint16(eocd + 10, true)
  let at = v.getUint32(eocd + 16, true)
  const out: CentralRecord[] = []
  for (let i = 0; i < count; i++) {
    const nameLength = v.getUint16(at + 28, true)
    const extra = v.getUint16(at + 30, true)
    const comment = v.getUint16(at + 32, true)
    out.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: v.getUint16(at + 10, true),
      dosTime: v.getUint16(at + 12, true),
      dosDate: v.getUint16(at + 14, true),
      externalAttributes: v.getUint32(at + 38, true),
    })
    at += 46 + nameLength + extra + comment
  }
  return out
}
