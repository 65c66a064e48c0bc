/**
 * The interceptor chain. A request passes through the interceptors in order and the answer comes back through them
 * in reverse; the last one calls `fetch`. The built-in positions, in the SPEC's order: `token` (bearer-token
 * injection), `retry`, `auth-errors` (auth-error events). An embedder adds its own before or after a named one.
 */
import type { RetryPolicy } from './retry'

/** One request on its way through the chain. Interceptors may change any field. */
export interface RequestContext {
  method: string
  /** The path as given to the client, with its leading slash (`/api/stories`). */
  readonly path: string
  url: URL
  headers: Headers
  body: string | undefined
  signal: AbortSignal | undefined
  retry: RetryPolicy
  /** Attempt number, from 0; set by the `retry` interceptor. */
  attempt: number
  /** Whether a retryable failure of this attempt is final (no retry follows); set by the `retry` interceptor. */
  finalAttempt: boolean
  /** Skip the `token` interceptor (public endpoints, or an Authorization header set by the caller). */
  anonymous: boolean
  /** The error `fetch` threw when there was no answer (the chain then sees a status-0 `Response.error()`). */
  networkError: unknown
}

/** Calls the rest of the chain. */
export type Next = (ctx: RequestContext) => Promise<Response>

/** An interceptor: may change the context, call `next` (any number of times) and return or replace the answer. */
export type Interceptor = (ctx: RequestContext, next: Next) => Promise<Response>

/** Where to add an interceptor: before or after a named one (default: last, nearest to `fetch`). */
export interface InterceptorPosition {
  before?: string
  after?: string
}

/** The public, ordered chain of a client. */
export interface InterceptorChain {
  /** Names in order, outermost first: `['token', 'retry', 'auth-errors']` by default. */
  names(): string[]
  /** Adds (or replaces, keeping its place) the interceptor called `name`. */
  use(name: string, interceptor: Interceptor, position?: InterceptorPosition): void
  /** Removes the interceptor called `name`; true when there was one. */
  remove(name: string): boolean
  /** Runs a request through the chain down to `terminal` (the `fetch` call). */
  run(ctx: RequestContext, terminal: Next): Promise<Response>
}

/** Creates a chain with the given named interceptors in order. */
export function createInterceptorChain(initial: Array<[string, Interceptor]> = []): InterceptorChain {
  const list: Array<[string, Interceptor]> = [...initial]
  const indexOf = (name: string) => list.findIndex(([n]) => n === name)
  return {
    names: () => list.map(([n]) => n),
    use(name, interceptor, position = {}) {
      const existing = indexOf(name)
      if (existing >= 0 && position.before === undefined && position.after === undefined) {
        list[existing] = [name, interceptor]
        return
      }
      const anchor = position.before ?? position.after
      if (anchor !== undefined && indexOf(anchor) < 0) {
        throw new RangeError(`no interceptor named "${anchor}" (have: ${list.map(([n]) => n).join(', ')})`)
      }
      if (existing >= 0) list.splice(existing, 1)
      if (anchor === undefined) list.push([name, interceptor])
      else list.splice(indexOf(anchor) + (position.after !== undefined ? 1 : 0), 0, [name, interceptor])
    },
    remove(name) {
      const i = indexOf(name)
      if (i >= 0) list.splice(i, 1)
      return i >= 0
    },
    run(ctx, terminal) {
      const snapshot = [...list]
      const call = (i: number, c: RequestContext): Promise<Response> => {
        const entry = snapshot[i]
        return entry ? entry[1](c, (next) => call(i + 1, next)) : terminal(c)
      }
      return call(0, ctx)
    },
  }
}
