import { isSpkgError, SpkgError } from '@spkg/manifest'

/** The `state/conflict` error a driver throws when a compare-and-set loses. */
export function conflictError(
  driver: string,
  key: string,
  expected: string | null,
  found: string | undefined,
) {
  const want = expected === null ? 'no stored state' : `revision ${expected}`
  const got = found === undefined ? 'none is stored' : `revision ${found} is stored`
  return new SpkgError('state/conflict', `${driver}: the save of "${key}" expected ${want}, but ${got}`)
}

/** Wraps a backend failure as `state/storage-failed`, keeping an `SpkgError` as it is. */
export function storageError(
  driver: string,
  action: string,
  key: string | undefined,
  cause: unknown,
): SpkgError {
  if (isSpkgError(cause)) return cause
  const what = key === undefined ? action : `${action} "${key}"`
  const detail = cause instanceof Error ? `: ${cause.name === 'Error' ? cause.message : cause.name}` : ''
  return new SpkgError('state/storage-failed', `${driver} could not ${what}${detail}`, { cause })
}

/** True when a compare-and-set with `expected` may write over `current`. */
export function revisionMatches(expected: string | null | undefined, current: string | undefined): boolean {
  if (expected === undefined) return true
  if (expected === null) return current === undefined
  return current === expected
}

/** Throws the signal's reason when it is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted()
}
