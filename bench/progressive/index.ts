/**
 * `pnpm bench progressive`: a 50 MB package of 40 story parts (1.25 MB of text each, stored, with
 * `integrity`) served by @fastify/static on 127.0.0.1. Measured until the entry part is playable
 * (`openPackageUrl` resolved and the entry part's text read): the HTTP body bytes received and the
 * wall time, with `loading: 'progressive'` against the same package without it (read whole, over
 * ranges), and the progressive package encrypted (`.spkg.enc`, opened over its plaintext chunk by
 * chunk). Alternating runs in one process. Target: the first part playable after under 5% of the
 * archive. `--runs N` (default 1).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { encryptPackage, generateEncryptionKey } from '@spkg/integrity/encrypt'
import { isProgressivePackage, openPackageUrl } from '@spkg/reader/node'
import { buildPackage } from '@spkg/test-utils'
import Fastify from 'fastify'

const PARTS = 40
const PART_BYTES = 1_250_000
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 1) || 1

const name = (i: number) => `story/${String(i + 1).padStart(4, '0')}-part.sty`
const parts: Record<string, string> = {}
for (let i = 0; i < PARTS; i++) {
  const letters = randomBytes(PART_BYTES).map((b) => 97 + (b % 26))
  parts[name(i)] = `Part ${i + 1}.\n${Buffer.from(letters).toString('latin1')}\n`
}
const spec = (loading: boolean) => ({
  manifest: { id: 'bench-progressive', version: '1.0.0', ...(loading ? { loading: 'progressive' } : {}) },
  parts,
  integrity: true,
  entry: Object.fromEntries(Object.keys(parts).map((k) => [k, { method: 0 }])),
})
const progressive = buildPackage(spec(true))
const whole = buildPackage(spec(false))
const dir = await mkdtemp(join(tmpdir(), 'spkg-bench-progressive-'))
await writeFile(join(dir, 'progressive.spkg'), progressive)
await writeFile(join(dir, 'whole.spkg'), whole)
// The progressive package encrypted (.spkg.enc): opened over its plaintext, chunk by chunk.
const key = generateEncryptionKey()
const encrypted = await encryptPackage(progressive, key)
await writeFile(join(dir, 'encrypted.spkg'), encrypted)
const app = Fastify()
let requests = 0
app.addHook('onRequest', async () => {
  requests++
})
await app.register(fastifyStatic, { root: dir })
const base = await app.listen({ host: '127.0.0.1', port: 0 })
const fmt = (n: number) => n.toLocaleString('en-US')

try {
  console.log(
    `archive: ${fmt(progressive.length)} bytes (progressive), ${fmt(whole.length)} bytes (whole); load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  )
  for (let run = 1; run <= runs; run++) {
    for (const mode of ['progressive', 'encrypted', 'whole'] as const) {
      let bytes = 0
      requests = 0
      const t0 = performance.now()
      const r = await openPackageUrl(`${base}/${mode}.spkg`, {
        decryptionKey: mode === 'encrypted' ? key : undefined,
        onBytes: (n) => {
          bytes += n
        },
      })
      if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
      const text = await r.package.readText(r.package.entry)
      const ms = performance.now() - t0
      if (!text.startsWith('Part 1.')) throw new Error('wrong entry part')
      const size = { progressive: progressive.length, encrypted: encrypted.length, whole: whole.length }[mode]
      console.log(
        `run ${run} ${mode}: ${fmt(bytes)} bytes (${((100 * bytes) / size).toFixed(2)}% of the archive), ` +
          `${requests} requests, ${ms.toFixed(0)} ms until the entry part is playable` +
          (mode !== 'whole' ? `; progressive: ${isProgressivePackage(r.package)}` : ''),
      )
      r.package.close()
    }
  }
  console.log(
    `load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  )
} finally {
  await app.close()
  await rm(dir, { recursive: true, force: true })
}
