/**
 * One plain GET of a package URL under the size bound ({@link fetchBytes}; `openPackageUrl` reads
 * over HTTP ranges through `remote/`), and the range client's failures as diagnostics. The status,
 * the declared length and the bytes that really arrive are all checked, and nothing beyond the
 * bound is buffered.
 */
import { createDiagnostic, type Diagnostic, isSpkgError } from '@spkg/manifest'
import { archiveTooLarge, urlLabel } from './input'

/** A range client's failure as the diagnostics of an open (it never throws but on abort). */
export function remoteFailure(e: unknown, signal?: AbortSignal): Diagnostic[] {
  signal?.throwIfAborted()
  if (!isSpkgError(e)) throw e
  return e.diagnostics.length > 0 ? [...e.diagnostics] : [createDiagnostic(e.code, e.message)]
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
