/**
 * One measured case of `pnpm bench reader`, run in its own process so every figure is cold and
 * `maxRSS` is the case's own peak: `child.ts <case> <file> [warm]` prints
 * `{ ms, cpuMs, warmMs, maxRssKiB, ok }`.
 *
 * "Cold" is the same for every case: the first call in a fresh process, timed from after the
 * bundle's static imports (both reader entry points, node:zlib, node:crypto, node:fs) have been
 * evaluated, so module loading is outside the figure for the floor and for the reader alike.
 *
 * Cases: `reader-node` (openPackageFile, node:zlib + node:crypto), `reader-web` (file read, then
 * the isomorphic openPackage on its WebAssembly inflater + WebCrypto), `floor` (the minimal central-directory walk
 * below), `peek-floor` (the least a quick look does, below), `peek-node`, `peek-web`, `baseline` (nothing: the process's own footprint).
 */
import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs'
import { inflateRawSync } from 'node:zlib'
import * as web from '@spkg/reader'
import * as node from '@spkg/reader/node'

/**
 * The floor: read the file, walk the central directory (no checks beyond what is needed to find
 * the data), inflate each entry with inflateRawSync capped at its declared size, hash it with
 * node:crypto and compare with `manifest.integrity`.
 */
function floor(file: string): boolean {
  const b = readFileSync(file)
  const dv = new DataView(b.buffer, b.byteOffset, b.length)
  let eocd = b.length - 22
  while (dv.getUint32(eocd, true) !== 0x06054b50) eocd--
  const count = dv.getUint16(eocd + 10, true)
  let p = dv.getUint32(eocd + 16, true)
  const hashes = new Map<string, string>()
  let manifest: { integrity?: Record<string, string> } = {}
  for (let i = 0; i < count; i++) {
    const method = dv.getUint16(p + 10, true)
    const csize = dv.getUint32(p + 20, true)
    const size = dv.getUint32(p + 24, true)
    const nameLen = dv.getUint16(p + 28, true)
    const skip = nameLen + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true)
    const local = dv.getUint32(p + 42, true)
    const name = b.toString('utf8', p + 46, p + 46 + nameLen)
    p += 46 + skip
    const start = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true)
    const raw = b.subarray(start, start + csize)
    const data = method === 0 ? raw : inflateRawSync(raw, { maxOutputLength: Math.max(1, size) })
    if (name === 'manifest.json') manifest = JSON.parse(data.toString('utf8'))
    else hashes.set(name, createHash('sha256').update(data).digest('hex'))
  }
  for (const [name, hex] of Object.entries(manifest.integrity ?? {}))
    if (hashes.get(name) !== hex) return false
  return true
}

/**
 * The peek floor: what a quick look needs at the least. Read the file's tail (end record and the
 * longest comment) and the central directory, walk the records (names decoded, no checks), read
 * the manifest's local header and data, inflate it with inflateRawSync and JSON.parse it.
 */
function peekFloor(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const tailLen = Math.min(size, 22 + 0xffff)
    const tail = Buffer.allocUnsafe(tailLen)
    readSync(fd, tail, 0, tailLen, size - tailLen)
    let eocd = tailLen - 22
    while (tail.readUInt32LE(eocd) !== 0x06054b50) eocd--
    const count = tail.readUInt16LE(eocd + 10)
    const cdSize = tail.readUInt32LE(eocd + 12)
    const cdOffset = tail.readUInt32LE(eocd + 16)
    const cd = Buffer.allocUnsafe(cdSize)
    readSync(fd, cd, 0, cdSize, cdOffset)
    const names: string[] = []
    let manifestAt = -1
    let manifestSize = 0
    let manifestCsize = 0
    let p = 0
    for (let i = 0; i < count; i++) {
      const nameLen = cd.readUInt16LE(p + 28)
      const name = cd.toString('utf8', p + 46, p + 46 + nameLen)
      names.push(name)
      if (name === 'manifest.json') {
        manifestAt = cd.readUInt32LE(p + 42)
        manifestCsize = cd.readUInt32LE(p + 20)
        manifestSize = cd.readUInt32LE(p + 24)
      }
      p += 46 + nameLen + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32)
    }
    if (manifestAt < 0) return false
    const local = Buffer.allocUnsafe(30)
    readSync(fd, local, 0, 30, manifestAt)
    const start = manifestAt + 30 + local.readUInt16LE(26) + local.readUInt16LE(28)
    const raw = Buffer.allocUnsafe(manifestCsize)
    readSync(fd, raw, 0, manifestCsize, start)
    const manifest = JSON.parse(
      inflateRawSync(raw, { maxOutputLength: Math.max(1, manifestSize) }).toString('utf8'),
    )
    return typeof manifest.id === 'string' && names.length === count
  } finally {
    closeSync(fd)
  }
}

const [kind, file, repeat] = process.argv.slice(2)

async function once(): Promise<boolean> {
  switch (kind) {
    case 'reader-node':
      return (await node.openPackageFile(file!)).ok
    case 'reader-web':
      return (await web.openPackage(readFileSync(file!))).ok
    case 'floor':
      return floor(file!)
    case 'peek-floor':
      return peekFloor(file!)
    case 'peek-node':
      return (await node.peekPackageFile(file!)).ok
    case 'peek-web':
      return (await web.peekPackage(readFileSync(file!))).ok
    case 'baseline':
      return true
    default:
      throw new Error(`unknown case ${kind}`)
  }
}

const cpu0 = process.cpuUsage()
let t0 = performance.now()
let ok = await once()
const ms = performance.now() - t0
// CPU time of the cold run, every thread of the process (the compiler and GC threads too): less
// disturbed than wall time by other work on a shared machine.
const cpu = process.cpuUsage(cpu0)
const cpuMs = (cpu.user + cpu.system) / 1000
// VmHWM, not getrusage's maxRSS: Linux carries ru_maxrss across execve, so it would include the
// parent's peak (the bench process holding the packages).
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
// Then the same work again in the now warm process (JIT compiled, modules initialised).
const warm: number[] = []
for (let i = 0; i < Number(repeat ?? 0); i++) {
  t0 = performance.now()
  ok = (await once()) && ok
  warm.push(performance.now() - t0)
}
warm.sort((a, b) => a - b)
const warmMs = warm.length ? warm[Math.floor(warm.length / 2)]! : Number.NaN
console.log(JSON.stringify({ ms, cpuMs, warmMs, maxRssKiB: hwm ? Number(hwm[1]) : Number.NaN, ok }))
