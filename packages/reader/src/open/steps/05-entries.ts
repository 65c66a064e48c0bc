/**
 * Step 5, every entry: inflated under one shared budget (counted on the real output, so a bomb
 * stops at the limit), its size and CRC-32 checked, text files (`.sty`, `.xty`, `.json`) checked
 * as UTF-8, and the visible files hashed (SHA-256) when integrity or a checksum file will need
 * the hashes. Directories and system clutter are inflated and checked too: they count.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import type { ReaderBackend } from '../../zip/backend'
import { type Budget, extractEntryAsync } from '../../zip/extract-entry'
import { decodeText } from '../entry-store'
import { visibleFiles } from '../files'
import type { Opening } from '../opening'
import { MANIFEST_PATH } from './03-layout'

/**
 * Asynchronous SHA-256 computations allowed in flight at once, and the bytes they may hold
 * together: many small files go out in one batch (each WebCrypto call costs a round trip to its
 * thread, bench/reader-browser), large ones a few at a time.
 */
const HASHES_IN_FLIGHT = 256
const HASH_BYTES_IN_FLIGHT = 16 * 1024 * 1024
/**
 * Files are queued until this many bytes wait, then their hashes are asked for one call after
 * another: asking after each small file woke WebCrypto's thread once per file, and the cold open
 * of 500 small files spent about 40% longer in this step (bench/reader-browser, session 10).
 */
const HASH_BATCH_BYTES = 256 * 1024

/** Reports a text file that is not UTF-8 or starts with a BOM, without keeping the decoded text. */
export function checkText(data: Uint8Array, path: string, backend: ReaderBackend, out: Diagnostic[]): void {
  if (!backend.isUtf8) {
    decodeText(data, path, out)
    return
  }
  if (!backend.isUtf8(data))
    out.push(createDiagnostic('pkg/invalid-text', `"${path}" is not valid UTF-8 text.`, { path }))
  else if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf)
    out.push(
      createDiagnostic('pkg/text-bom', `"${path}" starts with a UTF-8 byte-order mark; it is ignored.`, {
        path,
      }),
    )
}

const isText = (path: string) => /\.(?:sty|xty|json)$/.test(path)

/**
 * Inflates and checks every entry (directories and clutter included: they count toward the
 * limits), keeping what the store's memory policy allows and hashing the visible files when
 * `hash` is set. Returns the hashes in archive order, or undefined after a fatal finding.
 * Rejects only when `signal` aborts (checked between entries).
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
  const { entries } = o.directory
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    signal?.throwIfAborted()
    if (o.deferred?.has(entry.name)) continue
    let data = extractEntryAsync(o.bytes, entry, backend, budget, o.diagnostics)
    if (data instanceof Promise) data = await data
    if (!data) return undefined
    if (entry.isDirectory || entry.ignored) continue
    o.store.keep(entry, data)
    if (isText(entry.name) && entry.name !== MANIFEST_PATH)
      checkText(data, entry.name, backend, o.diagnostics)
    if (!hash) continue
    queue.push({ name: entry.name, data })
    queued += data.length
    if (queued >= HASH_BATCH_BYTES) await issue()
  }
  await issue()
  await Promise.all(pending.map((x) => x.done))
  signal?.throwIfAborted()
  // Report in archive order whatever order the hashes finished in.
  return new Map(
    visibleFiles(o.directory).flatMap((e) => (hashes.has(e.name) ? [[e.name, hashes.get(e.name)!]] : [])),
  )
}
