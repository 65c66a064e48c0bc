/**
 * `pnpm bench integrity`: SHA-256 throughput (WebCrypto vs node:crypto) on a 50 MB package
 * shaped two ways, decrypting a 50 MB `.spkg.enc`, and verifying a 500-entry checksum file plus
 * its signature. Prints medians and a Markdown table for bench/integrity/README.md.
 */
import { cpus } from 'node:os'
import {
  createChecksumFile,
  sha256Hex,
  verifyChecksums,
  verifyIntegrity,
  verifyPackageSignature,
} from '@spkg/integrity'
import { nobleEd25519 } from '@spkg/integrity/ed25519-noble'
import {
  decryptPackage,
  encryptPackage,
  generateEncryptionKey,
  openEncryptedPackage,
} from '@spkg/integrity/encrypt'
import * as nodeHash from '@spkg/integrity/node'
import { generateSigningKeys, signChecksum } from '@spkg/integrity/sign'

const MB = 1024 * 1024
const RUNS = Number(process.env.RUNS ?? 7)

function bytes(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n)
  let x = seed | 1
  for (let i = 0; i < n; i += 4) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    b[i] = x & 255
    b[i + 1] = (x >>> 8) & 255
    b[i + 2] = (x >>> 16) & 255
    b[i + 3] = (x >>> 24) & 255
  }
  return b
}

async function median(fn: () => unknown | Promise<unknown>, runs = RUNS): Promise<number> {
  await fn() // warm-up
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

const rows: [string, string, number, string][] = []
function record(workload: string, method: string, ms: number, totalBytes?: number) {
  const rate = totalBytes ? `${(totalBytes / MB / (ms / 1000)).toFixed(0)} MiB/s` : ''
  rows.push([workload, method, ms, rate])
  console.log(`${workload.padEnd(38)} ${method.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  ${rate}`)
}

// 1. Hashing: 500 entries of 10 KiB + 5 of 9 MiB + … = 50 MiB total, and each shape on its own.
const small = Array.from({ length: 495 }, (_, i) => bytes(10 * 1024, i + 1))
const smallBytes = small.reduce((n, b) => n + b.length, 0)
const big = Array.from({ length: 5 }, (_, i) => bytes(Math.floor((50 * MB - smallBytes) / 5), 1000 + i))
const mixed = [...small, ...big]
const total = (list: Uint8Array[]) => list.reduce((n, b) => n + b.length, 0)

for (const [name, list] of [
  [`495 × 10 KiB (${(smallBytes / MB).toFixed(1)} MiB)`, small],
  [`5 × ${(big[0]!.length / MB).toFixed(1)} MiB`, big],
  [`all 500 entries (${(total(mixed) / MB).toFixed(1)} MiB)`, mixed],
] as const) {
  const n = total(list)
  record(
    name,
    'WebCrypto, one at a time',
    await median(async () => {
      for (const b of list) await sha256Hex(b)
    }),
    n,
  )
  record(name, 'WebCrypto, Promise.all', await median(() => Promise.all(list.map((b) => sha256Hex(b)))), n)
  record(
    name,
    'node:crypto (./node), async API',
    await median(async () => {
      for (const b of list) await nodeHash.sha256Hex(b)
    }),
    n,
  )
  record(
    name,
    'node:crypto, sha256HexSync',
    await median(() => {
      for (const b of list) nodeHash.sha256HexSync(b)
    }),
    n,
  )
}

// 2. Encryption of a 50 MiB archive.
const archive = bytes(50 * MB, 77)
const key = generateEncryptionKey()
record(
  '50 MiB .spkg.enc',
  'encryptPackage',
  await median(() => encryptPackage(archive, key), 3),
  archive.length,
)
const sealed = await encryptPackage(archive, key)
record(
  '50 MiB .spkg.enc',
  'decryptPackage (all 800 chunks)',
  await median(() => decryptPackage(sealed, key), 5),
  archive.length,
)
record(
  '50 MiB .spkg.enc',
  'openEncryptedPackage + read 64 KiB tail',
  await median(async () => {
    const pkg = await openEncryptedPackage(sealed, key)
    await pkg.read(pkg.size - 65536, 65536)
  }),
)

// 3. A 500-entry package: checksum file, integrity map and signature.
const hashes = new Map<string, string>()
for (const [i, b] of mixed.entries())
  hashes.set(`story/${String(i).padStart(4, '0')}-part.sty`, nodeHash.sha256HexSync(b))
const integrity = Object.fromEntries(hashes)
hashes.set('manifest.json', nodeHash.sha256HexSync(bytes(2000, 5)))
const keys = await generateSigningKeys()
const checksum = createChecksumFile(hashes)
const sig = await signChecksum(checksum, keys.secretKeyText)
console.log(`checksum file: ${(checksum.length / 1024).toFixed(1)} KiB, ${hashes.size} lines`)
record('500 entries', 'createChecksumFile', await median(() => createChecksumFile(hashes), 50))
record(
  '500 entries',
  'verifyChecksums (parse + compare)',
  await median(() => verifyChecksums(hashes, checksum), 50),
)
record('500 entries', 'verifyIntegrity', await median(() => verifyIntegrity(hashes, integrity), 50))
record('500 entries', 'signChecksum', await median(() => signChecksum(checksum, keys.secretKeyText), 50))
const verifyAll = () =>
  verifyPackageSignature({
    checksumBytes: checksum,
    signatureText: sig,
    publicKeyText: keys.publicKeyText,
    manifest: { signed: true, signature: keys.fingerprint },
    trustedKeys: [keys.publicKeyText],
    ed25519Fallback: nobleEd25519,
  })
record('500 entries', 'verifyPackageSignature (WebCrypto)', await median(verifyAll, 50))
const { forceEd25519Backend } = await import('../../packages/integrity/src/internal/ed25519')
forceEd25519Backend('noble')
record('500 entries', 'verifyPackageSignature (@noble fallback)', await median(verifyAll, 50))
forceEd25519Backend(undefined)
record(
  '500 entries',
  'checksums + signature (WebCrypto)',
  await median(async () => {
    verifyChecksums(hashes, checksum)
    await verifyAll()
  }, 50),
)

console.log(`\nMachine: ${cpus()[0]?.model ?? 'unknown'} (${cpus().length} cores), Node ${process.version}`)
console.log('Command: pnpm bench integrity (median of RUNS, default 7, after one warm-up)\n')
console.log('| Workload | Method | Median (ms) | Throughput |')
console.log('|---|---|---:|---:|')
for (const [w, m, ms, rate] of rows) console.log(`| ${w} | ${m} | ${ms.toFixed(ms < 10 ? 2 : 1)} | ${rate} |`)
