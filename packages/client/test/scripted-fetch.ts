/**
 * A scripted `fetch` for unit tests: answers from a list (a status with a body and headers, or `'network'` for a
 * thrown TypeError), records every call.
 */
export type Scripted =
  | 'network'
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | ((request: Request) => Response | Promise<Response>)

export interface ScriptedFetch {
  fetch: typeof fetch
  calls: Request[]
}

export function scriptedFetch(...script: Scripted[]): ScriptedFetch {
  const calls: Request[] = []
  const fetch: typeof globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    calls.push(request)
    if (init?.signal?.aborted) throw init.signal.reason
    const next = script.length > 1 ? script.shift() : script[0]
    if (next === undefined) throw new Error('the script has no answer left')
    if (next === 'network') throw new TypeError('fetch failed')
    if (typeof next === 'function') return next(request)
    const body =
      next.body === undefined ? null : typeof next.body === 'string' ? next.body : JSON.stringify(next.body)
    return new Response(next.status === 204 ? null : body, {
      status: next.status,
      headers: { 'content-type': 'application/json', ...next.headers },
    })
  }) as typeof globalThis.fetch
  return { fetch, calls }
}
