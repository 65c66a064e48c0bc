/**
 * Reads one entry's bytes: inflated under the remaining budget, then size and CRC-32 checked.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import type { ReaderBackend } from './backend'
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
  backend: ReaderBackend,
  budget: Budget,
  out: Diagnostic[],
): Uint8Array | undefined {
  const at = { path: entry.name }
  const input = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize)
  let data: Uint8Array
  if (entry.method === 0) {
    if (entry.size > budget.remaining) {
      budget.remaining = -1
      out.push(tooLarge(entry, budget))
      return undefined
    }
    data = input
  } else {
    const r = backend.inflater.inflateRaw(input, entry.size, budget.remaining)
    if (!r.ok) {
      if (r.reason === 'limit') {
        budget.remaining = -1
        out.push(tooLarge(entry, budget))
      } else if (r.reason === 'size')
        out.push(
          createDiagnostic(
            'pkg/corrupt-entry',
            `"${entry.name}" inflates to ${r.produced} bytes, not the ${entry.size} declared.`,
            at,
          ),
        )
      else
        out.push(
          createDiagnostic(
            'pkg/corrupt-entry',
            `"${entry.name}" does not inflate: ${r.message ?? 'corrupt data'}.`,
            at,
          ),
        )
      return undefined
    }
    data = r.data
  }
  budget.remaining -= data.length
  if (backend.crc32(data) !== entry.crc32) {
    out.push(
      createDiagnostic(
        'pkg/corrupt-entry',
        `"${entry.name}" fails its CRC-32 check: the data is damaged.`,
        at,
      ),
    )
    return undefined
  }
  return data
}

function tooLarge(entry: ZipEntry, budget: Budget): Diagnostic {
  return createDiagnostic(
    'pkg/too-large',
    `The archive inflates to more than ${budget.limit} bytes (stopped inside "${entry.name}").`,
    { path: entry.name },
  )
}
