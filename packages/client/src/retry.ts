/**
 * The SPEC's retry rule (Client behaviour 1, Sizes and bounds 5): only GET, HEAD and OPTIONS; only on no answer
 * (status 0), 408, 502, 503 and 504; 2 retries by default, after 1 s then 2 s. Never POST, PUT, PATCH or DELETE,
 * never a 429 (its `Retry-After` is surfaced instead), never an aborted request.
 */

/** How many times to retry and the wait before each retry (ms; the last delay repeats). */
export interface RetryPolicy {
  count: number
  delays: readonly number[]
}

/** A per-client or per-request retry setting: a count (with the default delays) or a policy. */
export type RetryOption = number | Partial<RetryPolicy>

/** The default: 2 retries, after 1 s then 2 s. */
export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ count: 2, delays: Object.freeze([1000, 2000]) })

/** Methods that may be retried. */
export const RETRY_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Statuses that may be retried (0: no answer). */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([0, 408, 502, 503, 504])

/** A policy from an option, over a base. Bad values (negative, non-integer, NaN) give a count of 0. */
export function resolveRetry(
  option: RetryOption | undefined,
  base: RetryPolicy = DEFAULT_RETRY,
): RetryPolicy {
  if (option === undefined) return base
  const count = typeof option === 'number' ? option : (option.count ?? base.count)
  const delays = typeof option === 'number' ? base.delays : (option.delays ?? base.delays)
  const safeCount = Number.isInteger(count) && count > 0 ? Math.min(count, 10) : 0
  const safeDelays = delays.map((d) => (Number.isFinite(d) && d > 0 ? d : 0))
  return { count: safeCount, delays: safeDelays.length > 0 ? safeDelays : [0] }
}

/** Whether an attempt with this method and status may be retried. */
export function isRetryable(method: string, status: number): boolean {
  return RETRY_METHODS.has(method.toUpperCase()) && RETRY_STATUSES.has(status)
}

/** The wait before retry number `n` (0-based). */
export function retryDelay(policy: RetryPolicy, n: number): number {
  return policy.delays[Math.min(n, policy.delays.length - 1)] ?? 0
}

/** Waits `ms`, or rejects when `signal` aborts. */
export type Sleeper = (ms: number, signal?: AbortSignal) => Promise<void>

/** The default {@link Sleeper}: `setTimeout` (fake timers drive it in tests). */
export const defaultSleep: Sleeper = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
