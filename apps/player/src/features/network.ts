/**
 * `allowed_urls`: the only way a story reaches the network. The story engine has no network of its own; a story
 * reaches a host only through host functions (`{call ns.f(...)}`, declared with `{extern ns.f(...)}` in a module and
 * `ns` in `manifest.requires`). The player registers one such namespace, `net`, whose functions take an ALIAS, never
 * an address: the address is the manifest's. An alias the manifest does not list, a parameter the entry does not
 * declare, an address that is not https (loopback http aside, for development) are blocked and reported; requests go
 * out without cookies or referrer and refuse redirects, so an allowed address cannot bounce the story elsewhere.
 * docs/manifest-fields.md says how a story uses it.
 */
import { type AllowedUrl, isPlainObject, type JsonValue } from '@spkg/manifest'
import type { HostFunctions } from '@spkg/story'

/** The host namespace the player provides for `allowed_urls`. */
export const NET_NAMESPACE = 'net'

/** A guard decision: the address to fetch, or why not. */
export type NetDecision =
  | { ok: true; alias: string; url: string }
  | { ok: false; alias: string; code: string; message: string }

/** One line of the network log the play view shows. */
export interface NetLogEntry {
  alias: string
  /** `blocked` (never sent), `sent`, then `done` (an answer) or `failed` (no answer). */
  outcome: 'blocked' | 'sent' | 'done' | 'failed'
  code?: string
  message: string
  url?: string
  status?: number
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/

/** Whether the player may ever fetch `url` for a story: https, or http on a loopback host (development). */
export function isFetchableUrl(url: string): URL | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return undefined
  }
  if (u.username || u.password) return undefined
  if (u.protocol === 'https:') return u
  if (u.protocol === 'http:' && LOOPBACK.test(u.hostname)) return u
  return undefined
}

const isParamValue = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean'

/**
 * Resolves a story's request: `alias` must name an entry of `allowed_urls`; `params` (an object, optional) may only
 * set the parameters the entry declares in its `params` (whose values are the defaults), each a string, number or
 * boolean, sent as the query string over the entry's own.
 */
export function resolveAllowed(
  allowed: readonly AllowedUrl[] | undefined,
  alias: unknown,
  params?: unknown,
): NetDecision {
  const name = typeof alias === 'string' ? alias : (JSON.stringify(alias) ?? String(alias))
  const block = (code: string, message: string): NetDecision => ({ ok: false, alias: name, code, message })
  if (typeof alias !== 'string' || alias === '')
    return block(
      'net/bad-alias',
      'The story asked for the network without an alias (a name from allowed_urls).',
    )
  const entry = allowed?.find((e) => e.alias === alias)
  if (!entry)
    return block(
      'net/unknown-alias',
      allowed?.length
        ? `The story asked for “${alias}”, which its manifest’s allowed_urls does not list.`
        : `The story asked for “${alias}”, but its manifest allows no network address (no allowed_urls).`,
    )
  const u = isFetchableUrl(entry.url)
  if (!u)
    return block('net/bad-url', `The address of “${alias}” is not an https address; it is never fetched.`)
  if (params !== undefined && params !== null && !isPlainObject(params))
    return block('net/bad-params', `The parameters for “${alias}” must be a map of names to values.`)
  const declared = isPlainObject(entry.params) ? entry.params : {}
  for (const [k, v] of Object.entries(declared)) if (isParamValue(v)) u.searchParams.set(k, String(v))
  for (const [k, v] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    if (!Object.hasOwn(declared, k))
      return block(
        'net/param-not-allowed',
        `The parameter “${k}” is not declared for “${alias}” in allowed_urls.`,
      )
    if (!isParamValue(v))
      return block(
        'net/bad-params',
        `The parameter “${k}” for “${alias}” must be a string, a number or true/false.`,
      )
    u.searchParams.set(k, String(v))
  }
  return { ok: true, alias, url: u.href }
}

/** Largest answer kept for `net.last` (bytes of text). */
export const MAX_ANSWER = 64 * 1024
/** How long a request may take. */
export const NET_TIMEOUT_MS = 10_000

/** Options of {@link createNetworkGuard}. */
export interface NetworkGuardOptions {
  allowed: readonly AllowedUrl[] | undefined
  fetch?: typeof fetch
  /** Every attempt, blocked or sent, and every outcome. */
  onLog?: (entry: NetLogEntry) => void
}

/** The guard of one story run: its host functions and the one fetch it allows. */
export interface NetworkGuard {
  /** `{ net: { send, allowed, last } }` for the run's `host` option. */
  host: HostFunctions
  /** Fetches an alias through the allow-list; rejects with an error whose `code` says why when blocked. */
  fetchAllowed(alias: string, params?: Record<string, string | number | boolean>): Promise<Response>
  log: NetLogEntry[]
  /** Aborts the requests in flight (the story stopped). */
  close(): void
}

/**
 * The `net` namespace:
 * - `net.send(alias, params?)`: sends a GET to the alias's address; true when sent, false when blocked (reported).
 * - `net.allowed(alias)`: whether the manifest lists the alias (pure).
 * - `net.last(alias)`: the last answer of that alias this session (parsed JSON, else text), or false before one.
 */
export function createNetworkGuard(options: NetworkGuardOptions): NetworkGuard {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const log: NetLogEntry[] = []
  const answers = new Map<string, JsonValue>()
  const abort = new AbortController()
  const record = (e: NetLogEntry) => {
    log.push(e)
    options.onLog?.(e)
  }

  async function run(url: string, alias: string): Promise<Response> {
    const timeout = AbortSignal.timeout(NET_TIMEOUT_MS)
    const signal = AbortSignal.any([abort.signal, timeout])
    try {
      const res = await doFetch(url, {
        method: 'GET',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        redirect: 'error',
        cache: 'no-store',
        signal,
      })
      record({
        alias,
        outcome: 'done',
        url,
        status: res.status,
        message: `“${alias}” answered ${res.status}.`,
      })
      return res
    } catch (e) {
      const why = timeout.aborted ? 'no answer in time' : e instanceof Error ? e.message : String(e)
      record({
        alias,
        outcome: 'failed',
        url,
        code: 'net/failed',
        message: `“${alias}” could not be reached (${why}). The page’s security policy must also allow its host.`,
      })
      throw Object.assign(new Error(`“${alias}” could not be reached (${why})`), { code: 'net/failed' })
    }
  }

  function decide(alias: unknown, params?: unknown): NetDecision {
    const d = resolveAllowed(options.allowed, alias, params)
    if (!d.ok) record({ alias: d.alias, outcome: 'blocked', code: d.code, message: d.message })
    else record({ alias: d.alias, outcome: 'sent', url: d.url, message: `Sent a request for “${d.alias}”.` })
    return d
  }

  async function keepAnswer(alias: string, res: Response) {
    const text = (await res.text()).slice(0, MAX_ANSWER)
    try {
      answers.set(alias, JSON.parse(text) as JsonValue)
    } catch {
      answers.set(alias, text)
    }
  }

  return {
    log,
    host: {
      [NET_NAMESPACE]: {
        send(alias, params) {
          const d = decide(alias, params)
          if (!d.ok) return false
          run(d.url, d.alias)
            .then((res) => keepAnswer(d.alias, res))
            .catch(() => {})
          return true
        },
        allowed(alias) {
          return typeof alias === 'string' && !!options.allowed?.some((e) => e.alias === alias)
        },
        last(alias) {
          return typeof alias === 'string' && answers.has(alias) ? answers.get(alias)! : false
        },
      },
    },
    async fetchAllowed(alias, params) {
      const d = decide(alias, params)
      if (!d.ok) throw Object.assign(new Error(d.message), { code: d.code })
      return run(d.url, d.alias)
    },
    close() {
      abort.abort()
    },
  }
}
