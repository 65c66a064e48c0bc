/**
 * The hostile packages of `pnpm bench reader-hostile`: `count` archives byte-mutated from a few
 * valid (and a few bomb) seeds, with a fixed seed, generated one at a time (as uploads arrive at
 * a server, and so that the generator's own memory stays small and constant).
 *
 * Mutation kinds, in turn: the seed as is; bits flipped; bytes overwritten; truncated; bytes
 * inserted or dropped; one entry's declared size changed in both headers (the inflated-size lie:
 * far more than it holds, just under the limit, 4 GiB, or less than it holds); one entry's
 * compressed size changed in both headers; a central-directory field overwritten (offset, name,
 * extra or comment length, entry count). The bomb seeds inflate far past what they declare, or
 * to what they declare, just under the limit.
 */
import { deflateSync } from 'node:zlib'
import { LIMITS } from '@spkg/manifest'
import { buildArchive, buildPackage, deflateBomb, packageFiles } from '@spkg/test-utils'
import { noise, prose } from '../reader/content'

const MiB = 1024 * 1024
const LIMIT = LIMITS.maxUncompressedBytes

/** A deterministic generator (xorshift32). */
export class Rng {
  private x: number
  constructor(seed: number) {
    this.x = seed | 1
  }
  /** A 32-bit unsigned integer. */
  u32(): number {
    let x = this.x
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    this.x = x
    return x >>> 0
  }
  /** An integer in [0, n). */
  below(n: number): number {
    return this.u32() % n
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!
  }
}

const small = { 'story/0001-a.sty': prose(4000, 1), 'story/0002-b.sty': prose(2500, 2) }

/** The seeds: valid packages of several shapes, and bombs. */
export function seeds(): { name: string; bytes: Uint8Array }[] {
  const bombBytes = LIMIT + 4 * MiB
  const underLimit = LIMIT - MiB
  return [
    {
      name: 'packaged, integrity, extension, session',
      bytes: buildPackage({
        manifest: { title: 'Seed', extensions: ['extensions/a.xty'] },
        parts: { ...small, 'story/0003-c.sty': prose(9000, 3) },
        assets: { 'assets/x.png': noise(3000, 5) },
        extensions: { 'extensions/a.xty': 'fn a() {}\n' },
        session: { n: 1 },
        integrity: true,
      }),
    },
    {
      name: 'flat',
      bytes: buildPackage({
        layout: 'flat',
        parts: { 'a.sty': prose(3000, 4) },
        assets: { 'b.png': noise(900, 6) },
      }),
    },
    {
      name: 'ZIP64 records and data descriptors',
      bytes: buildArchive(
        [...packageFiles({ parts: small })].map(([name, data]) => ({
          name,
          data,
          dataDescriptor: true,
          zip64: true,
        })),
        { zip64End: true },
      ),
    },
    {
      name: '40 parts of 60 kB',
      bytes: buildPackage({
        parts: Object.fromEntries(
          Array.from({ length: 40 }, (_, i) => [
            `story/${String(i).padStart(4, '0')}-p.sty`,
            prose(60_000, i + 9),
          ]),
        ),
        integrity: true,
      }),
    },
    {
      name: '300 small entries',
      bytes: buildPackage({
        parts: Object.fromEntries(
          Array.from({ length: 300 }, (_, i) => [
            `story/${String(i).padStart(4, '0')}-p.sty`,
            prose(200, i + 99),
          ]),
        ),
      }),
    },
    {
      name: `bomb: declares 100 bytes, inflates to ${bombBytes / MiB} MiB`,
      bytes: buildPackage({
        parts: small,
        files: { 'story/bomb.sty': 'x' },
        entry: { 'story/bomb.sty': { payload: deflateBomb(bombBytes), size: 100 } },
      }),
    },
    {
      name: `bomb: declares and inflates to ${underLimit / MiB} MiB (under the limit; wrong CRC)`,
      bytes: buildPackage({
        parts: small,
        files: { 'story/bomb.sty': 'x' },
        entry: { 'story/bomb.sty': { payload: deflateBomb(underLimit), size: underLimit } },
      }),
    },
    {
      name: 'many tiny deflate entries that each inflate to 1 MiB (declared 1 KiB)',
      bytes: buildPackage({
        parts: small,
        files: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`assets/z${i}.bin`, 'x'])),
        entry: Object.fromEntries(
          Array.from({ length: 60 }, (_, i) => [
            `assets/z${i}.bin`,
            { payload: deflateSync(new Uint8Array(MiB), { level: 9 }), size: 1024 },
          ]),
        ),
      }),
    },
  ]
}

/** The central-directory records of a valid archive: where each one and its local header start. */
function records(bytes: Uint8Array): { cd: number; local: number }[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  let eocd = bytes.length - 22
  while (eocd >= 0 && dv.getUint32(eocd, true) !== 0x06054b50) eocd--
  if (eocd < 0) return []
  let count = dv.getUint16(eocd + 10, true)
  let p = dv.getUint32(eocd + 16, true)
  if (count === 0xffff || p === 0xffffffff) {
    // ZIP64 end record: locator just before the classic one.
    const z = Number(dv.getBigUint64(eocd - 20 + 8, true))
    count = Number(dv.getBigUint64(z + 32, true))
    p = Number(dv.getBigUint64(z + 48, true))
  }
  const out: { cd: number; local: number }[] = []
  for (let i = 0; i < count && p + 46 <= bytes.length; i++) {
    out.push({ cd: p, local: dv.getUint32(p + 42, true) })
    p += 46 + dv.getUint16(p + 28, true) + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true)
  }
  return out
}

export const KINDS = [
  'seed as is',
  'bits flipped',
  'bytes overwritten',
  'truncated',
  'bytes inserted or dropped',
  'declared size lie',
  'compressed size lie',
  'central-directory field',
] as const
export type Kind = (typeof KINDS)[number]

function u32At(bytes: Uint8Array, at: number, v: number): void {
  if (at >= 0 && at + 4 <= bytes.length)
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, v >>> 0, true)
}
function u16At(bytes: Uint8Array, at: number, v: number): void {
  if (at >= 0 && at + 2 <= bytes.length)
    new DataView(bytes.buffer, bytes.byteOffset).setUint16(at, v & 0xffff, true)
}

/** One mutation of `seed` of kind `kind` (a fresh copy; the seed is not touched). */
export function mutateOnce(seed: Uint8Array, kind: Kind, rng: Rng): Uint8Array {
  const n = seed.length
  switch (kind) {
    case 'seed as is':
      return seed.slice()
    case 'bits flipped': {
      const b = seed.slice()
      for (let i = 1 + rng.below(8); i > 0; i--) b[rng.below(n)]! ^= 1 << rng.below(8)
      return b
    }
    case 'bytes overwritten': {
      const b = seed.slice()
      for (let i = 1 + rng.below(8); i > 0; i--) b[rng.below(n)] = rng.below(256)
      return b
    }
    case 'truncated':
      return seed.slice(0, rng.below(n))
    case 'bytes inserted or dropped': {
      const at = rng.below(n)
      const k = 1 + rng.below(16)
      if (rng.below(2) === 0) {
        const end = Math.min(n, at + k)
        const b = new Uint8Array(n - (end - at))
        b.set(seed.subarray(0, at))
        b.set(seed.subarray(end), at)
        return b
      }
      const b = new Uint8Array(n + k)
      b.set(seed.subarray(0, at))
      for (let i = 0; i < k; i++) b[at + i] = rng.below(256)
      b.set(seed.subarray(at), at + k)
      return b
    }
    case 'declared size lie':
    case 'compressed size lie': {
      const b = seed.slice()
      const rs = records(b)
      if (rs.length === 0) return b
      const r = rng.pick(rs)
      const size = rng.pick([
        1 + rng.below(64 * MiB),
        LIMIT - 1 - rng.below(1024),
        0xfffffffe,
        rng.below(64),
        LIMIT + 1 + rng.below(MiB),
      ])
      const [cdAt, localAt] = kind === 'declared size lie' ? [24, 22] : [20, 18]
      u32At(b, r.cd + cdAt, size)
      u32At(b, r.local + localAt, size)
      return b
    }
    case 'central-directory field': {
      const b = seed.slice()
      const rs = records(b)
      if (rs.length === 0) return b
      const r = rng.pick(rs)
      const field = rng.pick([42, 28, 30, 32, 10, 8])
      if (field === 42) u32At(b, r.cd + 42, rng.u32())
      else u16At(b, r.cd + field, rng.below(4) === 0 ? 0xffff : rng.below(512))
      return b
    }
  }
}

/** The corpus: `count` hostile packages, one at a time, with the seed and kind each came from. */
export function* corpus(
  count: number,
  seed = 0x5eed,
): Generator<{ seed: number; kind: Kind; bytes: Uint8Array }> {
  const all = seeds()
  const rng = new Rng(seed)
  for (let i = 0; i < count; i++) {
    const s = rng.below(all.length)
    const kind = KINDS[i % KINDS.length]!
    yield { seed: s, kind, bytes: mutateOnce(all[s]!.bytes, kind, rng) }
  }
}
