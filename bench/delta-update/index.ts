/**
 * `pnpm bench delta-update`: a 50 MB package of 40 parts (each a story part and a 1.25 MB media
 * file that does not compress) served by @fastify/static on 127.0.0.1. Version 1.0.0 is
 * installed in a folder cache; version 1.1.0 changes 2 of the 40 parts (their text and media).
 * Measured: the bytes and requests of `updatePackage` (delta), and the same update forced to a
 * whole download (`maxDeltaShare: 0`), with wall times. Target: the delta fetches under 10% of
 * the archive. The same update of the encrypted packages (`.spkg.enc`, 64 KiB chunks) with
 * the key. `--runs N` (default 3).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { encryptPackage, generateEncryptionKey } from '@spkg/integrity/encrypt'
import {
  createFolderCacheDriver,
  createPackageCache,
  openPackage,
  savePackageOffline,
  updatePackage,
} from '@spkg/reader/node'
import { buildPackage } from '@spkg/test-utils'
import Fastify from 'fastify'

const PARTS = 40
const MEDIA_BYTES = 1_250_000
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 3) || 3

const media = Array.from({ length: PARTS }, () => new Uint8Array(randomBytes(MEDIA_BYTES)))
const name = (i: number) => String(i + 1).padStart(4, '0')
function spec(version: string, changed: number[]) {
  const parts: Record<string, string> = {}
  const assets: Record<string, Uint8Array> = {}
  for (let i = 0; i < PARTS; i++) {
    parts[`story/${name(i)}-part.sty`] = `Part ${i + 1}${changed.includes(i) ? ', revised' : ''}.\n`
    assets[`assets/${name(i)}.bin`] = changed.includes(i)
      ? new Uint8Array(randomBytes(MEDIA_BYTES))
      : media[i]!
  }
  return {
    manifest: { id: 'bench-delta', version, offline: true },
    parts,
    assets,
    integrity: true,
    entry: Object.fromEntries(Object.keys(assets).map((k) => [k, { method: 0 }])),
  }
}

const v1 = buildPackage(spec('1.0.0', []))
const v2 = buildPackage(spec('1.1.0', [7, 31]))
const dir = await mkdtemp(join(tmpdir(), 'spkg-bench-delta-'))
await writeFile(join(dir, 'v2.spkg'), v2)
// The same two versions as `.spkg.enc` containers (64 KiB chunks).
const key = generateEncryptionKey()
const v1enc = await encryptPackage(v1, key)
await writeFile(join(dir, 'v2.spkg.enc'), await encryptPackage(v2, key))
const app = Fastify()
await app.register(fastifyStatic, { root: dir })
const base = await app.listen({ host: '127.0.0.1', port: 0 })
const fmt = (n: number) => n.toLocaleString('en-US')

try {
  const rows: string[] = []
  for (let run = 1; run <= runs; run++) {
    for (const mode of ['delta', 'whole', 'encrypted delta'] as const) {
      const encrypted = mode === 'encrypted delta'
      const root = join(dir, `cache-${run}-${mode.replace(' ', '-')}`)
      const cache = createPackageCache(createFolderCacheDriver(root))
      const opened = await openPackage(encrypted ? v1enc : v1, encrypted ? { decryptionKey: key } : {})
      if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics))
      await savePackageOffline(cache, opened.package)
      // A fresh cache object, as a new process (`spkg update`) would have.
      const fresh = createPackageCache(createFolderCacheDriver(root))
      const t0 = performance.now()
      const r = await updatePackage(
        { cache: fresh, id: 'bench-delta' },
        `${base}/v2.spkg${encrypted ? '.enc' : ''}`,
        mode === 'whole' ? { maxDeltaShare: 0 } : encrypted ? { decryptionKey: key } : {},
      )
      const ms = performance.now() - t0
      if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
      const share = (100 * r.bytesFetched) / r.archiveBytes
      const line = `run ${run} ${mode}: ${r.mode}, ${fmt(r.bytesFetched)} of ${fmt(r.archiveBytes)} bytes (${share.toFixed(2)}%), ${r.requests} requests, ${r.downloaded.length} files fetched, ${r.reused.length} reused, ${ms.toFixed(0)} ms`
      console.log(line)
      rows.push(line)
      await rm(root, { recursive: true, force: true })
    }
  }
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; archive ${fmt(v2.length)} bytes`,
  )
} finally {
  await app.close()
  await rm(dir, { recursive: true, force: true })
}
