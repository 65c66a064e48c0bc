/**
 * Differential run: the ZIP reader as it was inside the reader (packages/reader/src/zip of a
 * checkout given as OLD, e.g. `git worktree add /tmp/zip-old 0eb670e`, installed) against
 * @spkg/zip, on N generated and byte-mutated archives, each read fully and lazily, every entry
 * extracted: directory, entries, extracted bytes and findings must be identical.
 * OLD=/tmp/zip-old N=20000 node --conditions=@spkg/source --import tsx packages/zip/test/differential.ts
 */
import { buildArchive, buildPackage, mutate } from '@spkg/test-utils'
import * as z from '../src/index.ts'

const OLD = process.env.OLD ?? '/tmp/zip-old'
const old = (f: string) => import(`${OLD}/packages/reader/src/zip/${f}.ts`)
const { extractEntry: oldExtract } = await old('extract-entry')
const { boundedInflater: oldInflater } = await old('inflate')
const { crc32: oldCrc } = await old('crc32')
const { readZipDirectory: oldRead } = (await old('read-zip-directory')) as {
  readZipDirectory: typeof z.readZipDirectory
}

let seed = 42
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed % n
}
const names = [
  'manifest.json',
  'story/0001-inn.sty',
  'Story/0001-INN.sty',
  '../x',
  'a/./b',
  '__MACOSX/._a',
  'dir/',
  'ß.txt',
  'SS.txt',
  'a\\b',
  'C:x',
  'ok.txt',
]
function generated(): Uint8Array {
  if (rand(3) === 0)
    return buildPackage({ parts: { 'story/0001-inn.sty': 'The door creaks. '.repeat(1 + rand(300)) } })
  const n = 1 + rand(5)
  const specs = []
  for (let i = 0; i < n; i++) {
    const name = names[rand(names.length)]!
    specs.push({ name, data: 'text '.repeat(rand(200)), method: rand(4) === 0 ? 0 : 8 })
  }
  return buildArchive(specs as never)
}
function run(
  read: typeof oldRead,
  extract: typeof z.extractEntry,
  backend: never,
  bytes: Uint8Array,
  lazy: boolean,
) {
  const r = read(bytes, {}, { localHeaders: lazy ? 'lazy' : 'all' })
  const out: unknown[] = [...r.diagnostics]
  const files: unknown[] = []
  if (r.directory) {
    const budget = { remaining: 1 << 20, limit: 1 << 20 }
    for (const e of r.directory.entries) {
      const entry = lazy ? r.checkLocal!(e, out as never) : e
      files.push({ ...entry })
      if (entry && !entry.isDirectory) {
        const data = extract(bytes, entry, backend, budget, out as never)
        files.push(data ? Array.from(data.subarray(0, 64)).join(',') + ':' + data.length : null)
      }
    }
  }
  return JSON.stringify({ d: r.directory && { ...r.directory, entries: undefined }, files, out })
}
const N = Number(process.env.N ?? 5000)
let same = 0
let refused = 0
for (let i = 0; i < N; i++) {
  const base = generated()
  const edits = [] as [number, number, 'flip' | 'cut' | 'set'][]
  if (i % 4 !== 0)
    for (let k = 0; k < 1 + rand(4); k++)
      edits.push([
        rand(base.length),
        rand(256),
        (['flip', 'set', 'cut'] as const)[rand(i % 7 === 0 ? 3 : 2)]!,
      ])
  const bytes = mutate(base, edits as never)
  for (const lazy of [false, true]) {
    const a = run(oldRead, oldExtract, { inflater: oldInflater, crc32: oldCrc } as never, bytes, lazy)
    const b = run(
      z.readZipDirectory as never,
      z.extractEntry as never,
      { inflater: z.boundedInflater, crc32: z.crc32 } as never,
      bytes,
      lazy,
    )
    if (a !== b) {
      console.log('DIFF', i, lazy, a.slice(0, 300), '\n', b.slice(0, 300))
      process.exit(1)
    }
    if (a.includes('"fatal"')) refused++
    same++
  }
}
console.log(`${N} archives, ${same} reads (full and lazy) identical; ${refused} of them refused`)
