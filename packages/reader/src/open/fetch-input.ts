/**
 * The range client's failures as the diagnostics of an open: `openPackageUrl` reads over HTTP
 * ranges through `remote/` (whose `networkWhy` names why a fetch failed), and reports what it
 * throws here.
 */
import { createDiagnostic, type Diagnostic, isSpkgError } from '@spkg/manifest'

/** A range client's failure as the diagnostics of an open (it never throws but on abort). */
export function remoteFailure(e: unknown, signal?: AbortSignal): Diagnostic[] {
  signal?.throwIfAborted()
  if (!isSpkgError(e)) throw e
  return e.diagnostics.length > 0 ? [...e.diagnostics] : [createDiagnostic(e.code, e.message)]
}
