/**
 * Step 5, every entry: inflated under one shared budget (counted on the real output, so a bomb
 * stops at the limit), its size and CRC-32 checked, text files (`.sty`, `.xty`, `.json`) checked
 * as UTF-8, and the visible files hashed (SHA-256) when integrity or a checksum file will need
 * the hashes. Directories and system clutter are inflated and checked too: they count.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { archiveWindow, type Budget, extractEntryAsync, type ZipEntry } from '@spkg/zip'
import type { ReaderBackend } from '../../zip/backend'
import { decodeText, KEEP_ENTRY_BYTES } from '../entry-store'
import { visibleFiles } from '../files'
import type { Opening } from '../opening'
import { MANIFEST_PATH } from './03-layout'

/**
 * Asynchronous SHA-256 computations allowed in flight at once, and the bytes they may hold
 * together: many small files go out in one batch (each WebCrypto call costs a round trip to its
 * thread, bench/reader-browser), large ones a few at a time. The count is high enough that a
 * package of many small files never waits for its first hashes while it still has entries to
 * inflate: at 256, the cold open of 500 small files stopped for 2-5 ms (bench/reader-browser); the bytes
 * bound the memory.
 */
const HASHES_IN_FLIGHT = 4096
const HASH_BYTES_IN_FLIGHT = 16 * 1024 * 1024
/**
 * Files are queued until this many bytes wait, then their hashes are asked for one call after
 * another: asking after each small file woke WebCrypto's thread once per file, and the cold open
 * of 500 small files spent about 40% longer in this step (bench/reader-browser).
 * Asked after every batch of inflated entries too, so that WebCrypto's thread hashes one batch
 * while the next one inflates.
 */
const HASH_BATCH_BYTES = 256 * 1024
/**
 * Deflated entries up to this size (and their compressed bytes) are inflated in runs, one call of
 * the inflater's batch path per run where it has one (the WebAssembly module): one call per entry,
 * with its copies in and out, cost more than the inflation of a small entry in a cold page.
 */
const BATCH_ENTRY_BYTES = KEEP_ENTRY_BYTES
/**
 * A run's outputs together, and the archive range that holds its inputs, at most: small enough
 * that hashing one run overlaps inflating the next, and bounding what one buffer holds.
 */
const BATCH_BYTES = 256 * 1024

/** Reports a text file that is not UTF-8 or starts with a BOM, without keeping the decoded text. */
export function checkText(data: Uint8Array, path: string, backend: ReaderBackend, out: Diagnostic[]): void {
  if (!backend.isUtf8) {
    decodeText(data, path, out)
    return
  }
  textFindings(backend.isUtf8(data), data, path, out)
}

/** {@link checkText}'s findings once the UTF-8 verdict is known. */
function textFindings(valid: boolean, data: Uint8Array, path: string, out: Diagnostic[]): void {
  if (!valid) out.push(createDiagnostic('pkg/invalid-text', `"${path}" is not valid UTF-8 text.`, { path }))
  else if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf)
    out.push(
      createDiagnostic('pkg/text-bom', `"${path}" starts with a UTF-8 byte-order mark; it is ignored.`, {
        path,
      }),
    )
}

const isText = (path: string) => /\.(?:sty|xty|json)$/.test(path)
/** The files this step checks as UTF-8 (step 4 checked the manifest). */
const checksText = (path: string) => isText(path) && path !== MANIFEST_PATH

/** A run of entries for the inflater's batch path, and the archive range holding their inputs. */
interface Run {
  entries: ZipEntry[]
  lo: number
  hi: number
}

/**
 * The run of entries from `from` that the batch path can take: deflated, small, not deferred,
 * their data inside the archive, their declared sizes within the remaining budget and, with
 * their inputs' range, within {@link BATCH_BYTES}. Undefined for fewer than two entries.
 */
export function batchRun(
  o: Pick<Opening, 'bytes' | 'deferred' | 'manifestEntry'>,
  entries: readonly ZipEntry[],
  from: number,
  remaining: number,
): Run | undefined {
  const most = Math.min(BATCH_BYTES, remaining)
  let lo = Number.POSITIVE_INFINITY
  let hi = 0
  let out = 0
  let j = from
  for (; j < entries.length; j++) {
    const e = entries[j]!
    if (e.method !== 8 || e.size > BATCH_ENTRY_BYTES || e.compressedSize > BATCH_ENTRY_BYTES) break
    if (o.deferred?.has(e.name) || e === o.manifestEntry) break
    const l = Math.min(lo, e.dataOffset)
    const h = Math.max(hi, e.dataOffset + e.compressedSize)
    if (h > o.bytes.length || h - l > BATCH_BYTES || out + e.size > most) break
    lo = l
    hi = h
    out += e.size
  }
  return j - from >= 2 ? { entries: entries.slice(from, j), lo, hi } : undefined
}

/**
 * Inflates and checks every entry (directories and clutter included: they count toward the
 * limits), keeping what the store's memory policy allows and hashing the visible files when
 * `hash` is set. Returns the hashes in archive order, or undefined after a fatal finding.
 * Rejects only when `signal` aborts (checked between entries, and between runs: a run is at most
 * 256 KiB of output).
 *
 * Runs of small deflated entries go through the inflater's batch path where it has one; the
 * first entry of a run that fails there (corrupt, another size, a CRC-32 mismatch) is taken
 * again through the one-entry path, which reports it as it would have without the batch.
 */
export async function verifyEntries(
  o: Opening,
  backend: ReaderBackend,
  hash: boolean,
  signal: AbortSignal | undefined,
): Promise<Map<string, string> | undefined> {
  const budget: Budget = { remaining: o.maxBytes, limit: o.maxBytes }
  const hashes = new Map<string, string>()
  const pending: Array<{ done: Promise<void>; size: number }> = []
  let held = 0
  const queue: Array<{ name: string; data: Uint8Array }> = []
  let queued = 0
  // Hashes the queued files one call after another, then waits while too much is in flight.
  const issue = async () => {
    for (const { name, data } of queue) {
      const h = backend.sha256Hex(data)
      if (typeof h === 'string') hashes.set(name, h)
      else {
        pending.push({ done: h.then((hex) => void hashes.set(name, hex)), size: data.length })
        held += data.length
      }
    }
    queue.length = 0
    queued = 0
    while (pending.length >= HASHES_IN_FLIGHT || held > HASH_BYTES_IN_FLIGHT) {
      const first = pending.shift()!
      held -= first.size
      await first.done
    }
  }
  // A verified entry: kept as the store allows, its text checked (`utf8`: the inflater's verdict),
  // queued for hashing. True when the queue is full: the caller issues it (no promise per entry).
  const accept = (entry: ZipEntry, data: Uint8Array, utf8?: boolean): boolean => {
    if (entry.isDirectory || entry.ignored) return false
    o.store.keep(entry, data)
    if (checksText(entry.name)) {
      if (utf8 === undefined) checkText(data, entry.name, backend, o.diagnostics)
      else textFindings(utf8, data, entry.name, o.diagnostics)
    }
    if (!hash) return false
    queue.push({ name: entry.name, data })
    queued += data.length
    return queued >= HASH_BATCH_BYTES
  }
  const { entries } = o.directory
  // The batch path reads the archive's bytes directly: not for an archive held in part.
  const batch = archiveWindow(o.bytes) ? undefined : backend.inflater.inflateBatch
  let i = 0
  while (i < entries.length) {
    signal?.throwIfAborted()
    const run = batch && batchRun(o, entries, i, budget.remaining)
    if (run) {
      let r = batch(o.bytes, run.entries, run.lo, run.hi, (k) => checksText(run.entries[k]!.name))
      if (r instanceof Promise) r = await r
      if (r) {
        let at = 0
        for (let k = 0; k < r.count; k++) {
          const entry = run.entries[k]!
          const data = r.data.subarray(at, at + entry.size)
          at += entry.size
          budget.remaining -= entry.size
          if (accept(entry, data, r.utf8[k] === 1)) await issue()
        }
        i += r.count
        if (hash && queue.length > 0) await issue()
        // The whole run passed; otherwise entry i failed in it, and the one-entry path says why.
        if (r.count === run.entries.length) continue
      }
    }
    const entry = entries[i++]!
    if (o.deferred?.has(entry.name)) continue
    // Step 4 inflated and checked the manifest under the same rules: charge it, do not redo it
    // (the budget has room: the directory's sizes fit it, and each entry so far took its own).
    const manifest = entry === o.manifestEntry ? o.store.verified(entry.name) : undefined
    if (manifest) {
      budget.remaining -= manifest.length
      if (accept(entry, manifest)) await issue()
      continue
    }
    let data = extractEntryAsync(o.bytes, entry, backend, budget, o.diagnostics)
    if (data instanceof Promise) data = await data
    if (!data) return undefined
    if (accept(entry, data)) await issue()
  }
  await issue()
  await Promise.all(pending.map((x) => x.done))
  signal?.throwIfAborted()
  // Report in archive order whatever order the hashes finished in.
  return new Map(
    visibleFiles(o.directory).flatMap((e) => (hashes.has(e.name) ? [[e.name, hashes.get(e.name)!]] : [])),
  )
}
