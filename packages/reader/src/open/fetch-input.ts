/**
 * Downloads of a package URL under the size bound: over HTTP ranges where the server serves them
 * ({@link fetchPackageBytes}, through `remote/range-source.ts`), or one plain GET
 * ({@link fetchBytes}). The status, the declared length and the bytes that really arrive are all
 * checked, and nothing beyond the bound is buffered.
 */
import { createDiagnostic, type Diagnostic, isSpkgError } from '@spkg/manifest'
import { createRangeSource, type RangeSource, type RangeSourceOptions } from '../remote/range-source'
import { archiveTooLarge, urlLabel } from './input'

/** How a remote package is fetched: the range client's options but the size bound. */
export type RemoteFetchOptions = Omit<RangeSourceOptions, 'maxBytes'>

/** A range client's failure as the diagnostics of an open (it never throws but on abort). */
export function remoteFailure(e: unknown, signal?: AbortSignal): Diagnostic[] {
  signal?.throwIfAborted()
  if (!isSpkgError(e)) throw e
  return e.diagnostics.length > 0 ? [...e.diagnostics] : [createDiagnostic(e.code, e.message)]
}

/**
 * The whole package at `url` over range requests (in 4 MiB chunks, a few at a time), or in one
 * download when the server ignores ranges; with the source it was read through. Never throws but
 * on abort.
 */
export async function fetchPackageBytes(
  url: string | URL,
  maxBytes: number,
  options: RemoteFetchOptions,
): Promise<{ bytes?: Uint8Array; source?: RangeSource; diagnostics: Diagnostic[] }> {
  try {
    const source = await createRangeSource(url, { ...options, maxBytes })
    return { bytes: await source.readAll(), source, diagnostics: [] }
  } catch (e) {
    return { diagnostics: remoteFailure(e, options.signal) }
  }
}

/**
 * Why a fetch failed, for a diagnostic: its message and its cause's system code or message
 * (`ECONNREFUSED`, `bad port`), with the URL replaced by its label wherever they repeat it
 * (fetch's own messages quote the URL it was given, credentials and all).
 */
function fetchError(e: unknown, url: string | URL, label: string): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined
  const code = (cause as { code?: unknown } | undefined)?.code
  let why = e instanceof Error ? e.message : String(e)
  if (cause) why += ` (${typeof code === 'string' ? code : cause.message})`
  // `String(url)` is the href for a URL object too.
  const raw = String(url)
  return raw ? why.split(raw).join(label) : why
}

/** Downloads `url`; returns the bytes or the diagnostics that refuse it. Never throws but on abort. */
export async function fetchBytes(
  url: string | URL,
  maxBytes: number,
  fetchImpl: typeof fetch,
  signal?: AbortSignal,
): Promise<{ bytes?: Uint8Array; diagnostics: Diagnostic[] }> {
  const label = urlLabel(url)
  const failed = (why: string) => ({
    diagnostics: [
      createDiagnostic('pkg/fetch-failed', `The package "${label}" could not be downloaded: ${why}.`),
    ],
  })
  let res: Response
  try {
    res = await fetchImpl(url, signal ? { signal } : {})
  } catch (e) {
    signal?.throwIfAborted()
    return failed(fetchError(e, url, label))
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {})
    return failed(`the server answered ${res.status}`)
  }
  const declared = Number(res.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {})
    return { diagnostics: [archiveTooLarge(declared, maxBytes)] }
  }
  if (!res.body) return { bytes: new Uint8Array(0), diagnostics: [] }
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = res.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.length
      if (total > maxBytes) {
        await reader.cancel().catch(() => {})
        return { diagnostics: [archiveTooLarge(total, maxBytes)] }
      }
      chunks.push(value)
    }
  } catch (e) {
    signal?.throwIfAborted()
    return failed(fetchError(e, url, label))
  }
  const bytes = new Uint8Array(total)
  let o = 0
  for (const c of chunks) {
    bytes.set(c, o)
    o += c.length
  }
  return { bytes, diagnostics: [] }
}
