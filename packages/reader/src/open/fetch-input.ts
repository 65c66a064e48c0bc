/**
 * Whole-file download of a package URL under the size bound (progressive loading over HTTP
 * ranges is a later feature): the status, the declared length and the bytes that really arrive
 * are all checked, and nothing beyond the bound is buffered.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { archiveTooLarge } from './input'

/** Downloads `url`; returns the bytes or the diagnostics that refuse it. Never throws but on abort. */
export async function fetchBytes(
  url: string | URL,
  maxBytes: number,
  fetchImpl: typeof fetch,
  signal?: AbortSignal,
): Promise<{ bytes?: Uint8Array; diagnostics: Diagnostic[] }> {
  const failed = (why: string) => ({
    diagnostics: [createDiagnostic('pkg/fetch-failed', `The package could not be downloaded: ${why}.`)],
  })
  let res: Response
  try {
    res = await fetchImpl(url, signal ? { signal } : {})
  } catch (e) {
    signal?.throwIfAborted()
    return failed(e instanceof Error ? e.message : String(e))
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
    return failed(e instanceof Error ? e.message : String(e))
  }
  const bytes = new Uint8Array(total)
  let o = 0
  for (const c of chunks) {
    bytes.set(c, o)
    o += c.length
  }
  return { bytes, diagnostics: [] }
}
