/**
 * Differential run of the writers: the four that wrote ZIP records on their own (the reader
 * cache's `storedZip`, `spkg pack`'s `writeZip`, test-utils' `buildArchive` and repo-import's
 * `unwrapZipball`) as a checkout given as OLD has them (e.g. `git worktree add /tmp/zip-old
 * 9a6726e`, installed) against the same four as they are now, on N generated inputs each. The
 * first three must give identical bytes, listings, results and errors. `unwrapZipball` now reads
 * the download through `@spkg/zip`, so it is compared by outcome: ok or not, the finding codes,
 * the wrapper and the comment's commit, and what the ZIP reader opens from the rebuilt archive
 * (entry names, extracted contents, finding codes). The directory reader refuses more than the
 * old code did (malformed extra fields, local headers that disagree, names, links, duplicates,
 * split archives: its every fatal finding) and in another order; such a stricter refusal is
 * counted by kind ("refused earlier" when the reader refused the old result with the same codes,
 * else the two outcomes and the new finding's wording), every other difference fails the run: a
 * zipball the new unwrap accepts must open exactly as the old result did.
 * OLD=/tmp/zip-old N=2000 node --conditions=@spkg/source --import tsx packages/zip/test/write-zip-differential.ts
 */
import { isDeepStrictEqual } from 'node:util'
import { writeZip } from '../../../apps/validator/src/pack/write-zip.ts'
import { storedZip } from '../../reader/src/cache/stored-zip.ts'
import { unwrapZipball } from '../../repo-import/src/unwrap-zipball.ts'
import { buildArchive } from '../../test-utils/src/build-archive.ts'
import {
  boundedInflater,
  crc32,
  extractEntry,
  readZipDirectory,
  ZIP_SEVERITIES,
  type ZipDiagnostic,
  zipExtraField,
} from '../src/index.ts'

const OLD = process.env.OLD ?? '/tmp/zip-old'
const N = Number(process.env.N ?? 2000)
const old = {
  storedZip: (await import(`${OLD}/packages/reader/src/cache/stored-zip.ts`)).storedZip as typeof storedZip,
  writeZip: (await import(`${OLD}/apps/validator/src/pack/write-zip.ts`)).writeZip as typeof writeZip,
  buildArchive: (await import(`${OLD}/packages/test-utils/src/build-archive.ts`))
    .buildArchive as typeof buildArchive,
  unwrapZipball: (await import(`${OLD}/packages/repo-import/src/unwrap-zipball.ts`))
    .unwrapZipball as typeof unwrapZipball,
}

// mulberry32: the low bits of a plain LCG repeat too soon for the many small choices below.
let seed = 7
const rand = (n: number) => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 0x100000000) * n)
}
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!
const chance = (inN: number) => rand(inN) === 0
const names = [
  'manifest.json',
  'story/0001-inn.sty',
  'assets/ünïcode.png',
  'a\u0001b',
  'del\u007f',
  'tab\there',
  '',
  'dir/',
  'ß.txt',
  '日本/語.txt',
  'emoji-😀.txt',
  'x'.repeat(300),
]
const bytes = (): Uint8Array => {
  const kind = rand(4)
  const n = rand(kind === 3 ? 20000 : 600)
  if (kind === 0) return new Uint8Array(n)
  if (kind === 1) return Uint8Array.from({ length: n }, () => rand(256))
  return new TextEncoder().encode('The road forks. '.repeat(n >> 4) + 'x'.repeat(n & 15))
}
const u32 = () => pick([0, 1, 0xffff, 0x10000, 0xffffffff, rand(0x7fffffff), -1])
const u16 = () => pick([0, 1, 0x21, 0x800, 0x808, 0xffff, rand(0x10000), 0x10001])
const outcome = (f: () => unknown): unknown => {
  try {
    return { ok: f() }
  } catch (e) {
    return { threw: (e as { code?: string }).code, message: (e as Error).message }
  }
}

type Unwrap = ReturnType<typeof unwrapZipball>

/** What the ZIP reader opens from an archive: entry names, extracted contents, finding codes. */
function opened(bytes: Uint8Array) {
  const { directory, diagnostics } = readZipDirectory(bytes)
  const out: ZipDiagnostic[] = [...diagnostics]
  const budget = { remaining: 1 << 24, limit: 1 << 24 }
  const files = (directory?.entries ?? []).map((e) => {
    const data = extractEntry(bytes, e, { inflater: boundedInflater, crc32 }, budget, out)
    return [e.name, data ? Buffer.from(data).toString('base64') : null]
  })
  return { files, codes: [...new Set(out.map((d) => d.code))] }
}

/** An unwrap's outcome as the comparison sees it (the rebuilt bytes only through what is opened). */
type Outcome =
  | { ok: true; codes: string[]; wrapper: string; commit?: string; opened: ReturnType<typeof opened> }
  | { ok: false; codes: string[] }

function unwrapOutcome(r: Unwrap): Outcome {
  // Distinct codes: the old unwrap stopped at its first finding, @spkg/zip reports each entry's.
  const codes = [...new Set<string>(r.diagnostics.map((d) => d.code))]
  return r.ok
    ? { ok: true, codes, wrapper: r.wrapper, commit: r.commentCommit, opened: opened(r.bytes) }
    : { ok: false, codes }
}

/**
 * The kind of a difference: "refused earlier" when the new unwrap refuses with codes the reader
 * gave, fatal, on the old result; otherwise the two outcomes in short.
 */
function differenceKind(a: Outcome, b: Outcome, r: Unwrap): string {
  const fatalOfOld: string[] = a.ok ? a.opened.codes.filter((c) => !(c in ZIP_SEVERITIES)) : []
  if (a.ok && !b.ok && b.codes.length > 0 && b.codes.every((c) => fatalOfOld.includes(c)))
    return 'refused earlier'
  const short = (o: Outcome) =>
    o.ok
      ? `ok (reader: ${[...new Set(o.opened.codes)].join(' ') || 'clean'})`
      : `refused ${o.codes.join(' ')}`
  // The new refusal's first finding, its names and figures left out: what the old unwrap let through.
  const why = r.ok ? '' : `: ${r.diagnostics[0]?.message.replace(/"[^"]*"|'[^']*'|\d+/g, '_')}`
  return `${short(a)} -> ${short(b)}${why}`
}

function entrySpec(): Record<string, unknown> {
  const s: Record<string, unknown> = {
    name: chance(6) ? Uint8Array.from({ length: rand(12) }, () => rand(256)) : pick(names),
  }
  if (!chance(5)) s.data = chance(3) ? pick(names) : bytes()
  const set = (k: string, v: () => unknown) => {
    if (chance(8)) s[k] = v()
  }
  set('method', () => pick([0, 8, 12, 99]))
  set('payload', bytes)
  set('flags', u16)
  set('crc', u32)
  set('size', u32)
  set('compressedSize', u32)
  set('dataDescriptor', () => pick([true, false, 'no-signature']))
  set('zip64', () => true)
  set('descriptor', () => ({ crc: u32(), ...(chance(2) ? { size: u32() } : {}), compressedSize: u32() }))
  set('extra', bytes)
  set('localExtra', bytes)
  set('unicodePath', () => pick(names))
  set('unixMode', () => pick([0o100644, 0o120777, 0o40755, 0x1ffff]))
  set('externalAttributes', u32)
  set('versionMadeBy', u16)
  set('diskStart', u16)
  set('local', () => ({
    ...(chance(2) ? { name: pick(names) } : {}),
    ...(chance(2) ? { flags: u16() } : {}),
    ...(chance(2) ? { method: pick([0, 8, 14]) } : {}),
    ...(chance(2) ? { crc: u32() } : {}),
    ...(chance(2) ? { size: u32() } : {}),
    ...(chance(2) ? { compressedSize: u32() } : {}),
  }))
  set('offset', u32)
  set('omitLocal', () => true)
  return s
}
function archiveOptions(count: number): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  if (chance(6)) o.prepend = bytes()
  if (chance(6)) o.append = bytes()
  if (chance(6)) o.comment = chance(2) ? pick(names) : bytes().subarray(0, 500)
  if (chance(8)) o.zip64End = true
  if (chance(6) && count > 0) o.repeatRecords = [rand(count), rand(count)]
  if (chance(6)) o.end = { disk: u16(), cdDisk: u16(), totalEntries: u16(), cdSize: u32(), cdOffset: u32() }
  if (chance(4)) o.level = rand(10)
  return o
}
/**
 * An extra field: as the tools write it (a timestamp block, Unix ids) or, one time in three, any
 * bytes (malformed more often than not, which the directory reader refuses).
 */
const extraField = (): Uint8Array =>
  chance(3)
    ? bytes().subarray(0, 40)
    : zipExtraField(
        pick([0x5455, 0x7875, 0xcafe]),
        Uint8Array.from({ length: rand(13) }, () => rand(256)),
      )
/** A zipball: one wrapper folder around the files, as hosts write them, sometimes damaged. */
function zipball(): Uint8Array {
  const prefix = pick(['owner-repo-0123abc/', 'o-r-ffff/', 'x/'])
  const specs: Record<string, unknown>[] = chance(5) ? [] : [{ name: prefix, unixMode: 0o40755 }]
  const files = [
    'manifest.json',
    'story/0001-inn.sty',
    'README.md',
    '.github/workflows/ci.yml',
    'LICENSE',
    'a/',
    'ünï.txt',
  ]
  for (let i = rand(6); i >= 0; i--) {
    const spec: Record<string, unknown> = {
      name: (chance(20) ? 'other/' : prefix) + pick(files),
      data: bytes(),
    }
    if (chance(3)) spec.dataDescriptor = true
    if (chance(3)) spec.unixMode = pick([0o100644, 0o100755])
    if (chance(4)) spec.method = 0
    if (chance(5)) spec.extra = extraField()
    if (chance(5)) spec.localExtra = extraField()
    specs.push(spec)
  }
  const comment = chance(2) ? '0123456789abcdef0123456789abcdef01234567' : undefined
  const zip = old.buildArchive(specs as never, comment ? { comment } : {})
  if (chance(4)) for (let k = rand(4); k >= 0; k--) zip[rand(zip.length)] = rand(256)
  return zip
}

let compared = 0
/** How many zipballs were unwrapped into a new archive (the others are refused before writing). */
let rebuilt = 0
/** How many of them both unwraps accepted, the results opening alike. */
let openedAlike = 0
const mismatches: string[] = []
/** unwrapZipball's differences by kind (see differenceKind). */
const kinds = new Map<string, number>()
const same = (what: string, i: number, a: unknown, b: unknown) => {
  compared++
  if (!isDeepStrictEqual(a, b)) mismatches.push(`${what} #${i}`)
}
for (let i = 0; i < N; i++) {
  const files = Array.from({ length: rand(8) }, () => ({ path: pick(names), bytes: bytes() }))
  same(
    'storedZip',
    i,
    outcome(() => old.storedZip(files)),
    outcome(() => storedZip(files)),
  )

  const packed = files.map((f) => ({ path: f.path, data: f.bytes, method: pick([0, 8] as const) }))
  const level = chance(3) ? { level: rand(10) } : {}
  same(
    'writeZip',
    i,
    outcome(() => old.writeZip(packed, level)),
    outcome(() => writeZip(packed, level)),
  )

  const specs = Array.from({ length: rand(5) }, entrySpec)
  const options = archiveOptions(specs.length)
  same(
    'buildArchive',
    i,
    outcome(() => old.buildArchive(specs as never, options)),
    outcome(() => buildArchive(specs as never, options)),
  )
  const record = Object.fromEntries(files.map((f) => [f.path, f.bytes]))
  same(
    'buildArchive(record)',
    i,
    outcome(() => old.buildArchive(record)),
    outcome(() => buildArchive(record)),
  )

  const ball = zipball()
  const before = unwrapOutcome(old.unwrapZipball(ball))
  const unwrapped = unwrapZipball(ball)
  const after = unwrapOutcome(unwrapped)
  if (after.ok) rebuilt++
  if (after.ok && before.ok && isDeepStrictEqual(before, after)) openedAlike++
  compared++
  if (!isDeepStrictEqual(before, after)) {
    const kind = differenceKind(before, after, unwrapped)
    if (after.ok) mismatches.push(`unwrapZipball #${i}: ${kind}`)
    else kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
}
// The limits of the cache's archive: past 65,535 entries, and past 4 GiB (sizes only are read).
const many = Array.from({ length: 0x10000 }, () => ({ path: 'a', bytes: new Uint8Array(0) }))
same(
  'storedZip(65,536 files)',
  0,
  outcome(() => old.storedZip(many)),
  outcome(() => storedZip(many)),
)
const huge = { length: 0x7fffffff } as Uint8Array
const big = [0, 1, 2].map(() => ({ path: 'big', bytes: huge }))
same(
  'storedZip(6 GiB)',
  0,
  outcome(() => old.storedZip(big)),
  outcome(() => storedZip(big)),
)

const stricter = [...kinds.values()].reduce((n, k) => n + k, 0)
console.log(
  `${compared} comparisons over ${N} rounds (${rebuilt} zipballs rewritten, ${openedAlike} of them by both, opening alike), ${mismatches.length} different; ` +
    `unwrapZipball refused ${stricter} zipballs the old code let through or refused otherwise, ` +
    `${kinds.get('refused earlier') ?? 0} of them with the codes the reader gave the old result:`,
)
for (const [kind, n] of [...kinds].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)))
  console.log(`  ${n} × ${kind}`)
if (mismatches.length > 0) {
  console.log(mismatches.slice(0, 20).join('\n'))
  process.exitCode = 1
}
