/**
 * Reads one entry's bytes: inflated under the remaining budget, then size and CRC-32 checked.
 */

import { archiveRange } from './archive-window'
import type { ZipBackend } from './backend'
import { type ZipDiagnostic, type ZipFindings, zipDiagnostic } from './diagnostic'
import type { InflateResult } from './inflate-types'
import type { ZipEntry } from './types'

/** The shared uncompressed-size budget of one archive. */
export interface Budget {
  /** Bytes still allowed. */
  remaining: number
  /** The whole limit, for messages. */
  readonly limit: number
}

/**
 * Returns the entry's verified bytes (stored entries are a view into `bytes`), or pushes the
 * fatal diagnostic that refuses it and returns undefined. The budget shrinks by what came out.
 */
export function extractEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  backend: ZipBackend,
  budget: Budget,
  out: ZipFindings,
): Uint8Array | undefined {
  const input = archiveRange(bytes, entry.dataOffset, entry.dataOffset + entry.compressedSize)
  if (entry.method === 0) return stored(input, entry, backend, budget, out)
  return finish(backend.inflater.inflateRaw(input, entry.size, budget.remaining), entry, backend, budget, out)
}

/**
 * {@link extractEntry} through the inflater's asynchronous path when it has one (a promise only
 * for the entries that path takes). Await it before extracting the next entry: the budget is
 * shared.
 */
export function extractEntryAsync(
  bytes: Uint8Array,
  entry: ZipEntry,
  backend: ZipBackend,
  budget: Budget,
  out: ZipFindings,
): Uint8Array | undefined | Promise<Uint8Array | undefined> {
  const { inflater } = backend
  if (entry.method === 0 || !inflater.inflateRawAsync) return extractEntry(bytes, entry, backend, budget, out)
  const input = archiveRange(bytes, entry.dataOffset, entry.dataOffset + entry.compressedSize)
  const r = inflater.inflateRawAsync(input, entry.size, budget.remaining, entry.crc32)
  if (r instanceof Promise) return r.then((res) => finish(res, entry, backend, budget, out))
  return finish(r, entry, backend, budget, out)
}

function stored(
  input: Uint8Array,
  entry: ZipEntry,
  backend: ZipBackend,
  budget: Budget,
  out: ZipFindings,
): Uint8Array | undefined {
  if (entry.size > budget.remaining) {
    budget.remaining = -1
    out.push(tooLarge(entry, budget))
    return undefined
  }
  return checked(input, entry, backend, budget, out)
}

/** Turns an inflation result into the entry's bytes or its diagnostic. */
function finish(
  r: InflateResult,
  entry: ZipEntry,
  backend: ZipBackend,
  budget: Budget,
  out: ZipFindings,
): Uint8Array | undefined {
  if (r.ok) return checked(r.data, entry, backend, budget, out, r.crcChecked === true)
  const at = { path: entry.name }
  if (r.reason === 'limit') {
    budget.remaining = -1
    out.push(tooLarge(entry, budget))
  } else if (r.reason === 'size')
    out.push(
      zipDiagnostic(
        'pkg/corrupt-entry',
        `"${entry.name}" inflates to ${r.produced} bytes, not the ${entry.size} declared.`,
        at,
      ),
    )
  else
    out.push(
      zipDiagnostic(
        'pkg/corrupt-entry',
        `"${entry.name}" does not inflate: ${r.message ?? 'corrupt data'}.`,
        at,
      ),
    )
  return undefined
}

/** Charges the budget and checks the CRC-32 (unless the inflater already did). */
function checked(
  data: Uint8Array,
  entry: ZipEntry,
  backend: ZipBackend,
  budget: Budget,
  out: ZipFindings,
  crcChecked = false,
): Uint8Array | undefined {
  budget.remaining -= data.length
  if (!crcChecked && backend.crc32(data) !== entry.crc32) {
    out.push(
      zipDiagnostic('pkg/corrupt-entry', `"${entry.name}" fails its CRC-32 check: the data is damaged.`, {
        path: entry.name,
      }),
    )
    return undefined
  }
  return data
}

function tooLarge(entry: ZipEntry, budget: Budget): ZipDiagnostic {
  return zipDiagnostic(
    'pkg/too-large',
    `The archive inflates to more than ${budget.limit} bytes (stopped inside "${entry.name}").`,
    { path: entry.name },
  )
}
