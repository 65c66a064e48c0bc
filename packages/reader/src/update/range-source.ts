/**
 * The updater's HTTP range reads: a first `Range: bytes=0-63` request learns the size and the
 * validator and must be answered `206` with a matching `Content-Range`; every later range
 * carries `If-Range` with that validator and must be answered the same way, so bytes of two
 * versions never mix (a `200` or another size then is `pkg/remote-changed`). A `200` to the first
 * request means the server ignores ranges: the caller downloads the whole file instead.
 * Bytes received are counted.
 */
import { createDiagnostic, SpkgError } from '@spkg/manifest'
import { urlLabel } from '../open/input'

/** A remote file read by ranges. */
export interface RangeSource {
  readonly size: number
  /** The file's first bytes (up to 64), read by the probe. */
  readonly head: Uint8Array
  /** Bytes `[start, end)`. @throws SpkgError `pkg/fetch-failed` or `pkg/remote-changed` */
  read(start: number, end: number): Promise<Uint8Array>
  /** Body bytes received so far, and requests made. */
  readonly stats: { bytes: number; requests: number }
  /** The first failure of a read, kept for reports (a reader above may rewrap it). */
  readonly failure: SpkgError | undefined
}

/** Options of {@link openRangeSource}. */
export interface RangeSourceOptions {
  fetch?: typeof fetch
  signal?: AbortSignal
}

function failure(code: 'pkg/fetch-failed' | 'pkg/remote-changed', message: string): SpkgError {
  return new SpkgError(code, message, { diagnostics: [createDiagnostic(code, message)] })
}

/** Bytes asked by the probe: enough to tell an encrypted container by its magic. */
const PROBE = 64
const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/

async function body(res: Response, expected: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (bytes.length !== expected) throw new Error(`expected ${expected} bytes, got ${bytes.length}`)
  return bytes
}

/**
 * Probes `url` for range support. Resolves `undefined` when the server answers the first range
 * request with `200` (no ranges); the probe's body is then not read.
 * @throws SpkgError `pkg/fetch-failed` (network error, other status, malformed `Content-Range`)
 */
export async function openRangeSource(
  url: string | URL,
  options: RangeSourceOptions = {},
): Promise<RangeSource | undefined> {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const label = urlLabel(url)
  const stats = { bytes: 0, requests: 0 }
  let first: SpkgError | undefined
  const request = async (headers: Record<string, string>): Promise<Response> => {
    stats.requests++
    try {
      return await fetchImpl(url, { headers, signal: options.signal })
    } catch (e) {
      options.signal?.throwIfAborted()
      throw failure(
        'pkg/fetch-failed',
        `The package "${label}" could not be downloaded: ${(e as Error).message}.`,
      )
    }
  }
  const probe = await request({ range: `bytes=0-${PROBE - 1}` })
  if (probe.status === 200) {
    await probe.body?.cancel().catch(() => {})
    return undefined
  }
  const m = CONTENT_RANGE.exec(probe.headers.get('content-range') ?? '')
  if (probe.status !== 206 || !m || m[1] !== '0' || Number(m[2]) !== Math.min(PROBE, Number(m[3])) - 1) {
    await probe.body?.cancel().catch(() => {})
    throw failure(
      'pkg/fetch-failed',
      `The package "${label}" could not be downloaded: the server answered ${probe.status} with Content-Range '${probe.headers.get('content-range') ?? ''}' to a range request.`,
    )
  }
  const size = Number(m[3])
  let head: Uint8Array
  try {
    head = await body(probe, Number(m[2]) + 1)
  } catch (e) {
    options.signal?.throwIfAborted()
    throw failure(
      'pkg/fetch-failed',
      `The package "${label}" could not be downloaded: ${(e as Error).message}.`,
    )
  }
  stats.bytes += head.length
  const etag = probe.headers.get('etag')
  const validator = etag && !etag.startsWith('W/') ? etag : (probe.headers.get('last-modified') ?? undefined)
  return {
    size,
    head,
    stats,
    get failure() {
      return first
    },
    async read(start, end) {
      try {
        if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start < end && end <= size))
          throw failure(
            'pkg/fetch-failed',
            `range [${start}, ${end}) is outside the ${size}-byte package "${label}"`,
          )
        const headers: Record<string, string> = { range: `bytes=${start}-${end - 1}` }
        if (validator) headers['if-range'] = validator
        const res = await request(headers)
        const r = CONTENT_RANGE.exec(res.headers.get('content-range') ?? '')
        const tag = res.headers.get('etag')
        if (
          res.status === 200 ||
          (res.status === 206 && ((r && Number(r[3]) !== size) || (etag && tag !== etag)))
        ) {
          await res.body?.cancel().catch(() => {})
          throw failure(
            'pkg/remote-changed',
            `The package "${label}" changed on the server while it was being read.`,
          )
        }
        if (res.status !== 206 || !r || Number(r[1]) !== start || Number(r[2]) !== end - 1) {
          await res.body?.cancel().catch(() => {})
          throw failure(
            'pkg/fetch-failed',
            `The package "${label}" could not be downloaded: the server answered ${res.status} with Content-Range '${res.headers.get('content-range') ?? ''}' for bytes ${start}-${end - 1}.`,
          )
        }
        let bytes: Uint8Array
        try {
          bytes = await body(res, end - start)
        } catch (e) {
          options.signal?.throwIfAborted()
          throw failure(
            'pkg/fetch-failed',
            `The package "${label}" could not be downloaded: ${(e as Error).message}.`,
          )
        }
        stats.bytes += bytes.length
        return bytes
      } catch (e) {
        if (e instanceof SpkgError) first ??= e
        throw e
      }
    },
  }
}
