/**
 * The `cloud` driver over HTTP: `GET`/`PUT`/`DELETE {baseUrl}/{key}` with the revision in `ETag`,
 * and compare-and-set through `If-Match` (`If-None-Match: *` for a first save). A `412` answer is
 * `state/conflict`, so two devices cannot silently overwrite each other. A server that refuses an
 * unconditional overwrite with `428` and its current `ETag` (the platform API's `/api/progress`) gets
 * the write retried once over that revision. `@spkg/client` can pass
 * its own `fetch` (auth, retries) or implement {@link StateDriver} itself.
 */
import { SpkgError } from '@spkg/manifest'
import { conflictError, storageError, throwIfAborted } from '../errors'
import type { StateDriver } from '../types'

/** Options of {@link createHttpDriver}. */
export interface HttpDriverOptions {
  /** Collection URL; a key is appended percent-encoded (`https://host/api/progress`). */
  baseUrl: string | URL
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Extra request headers (such as `authorization`), or a function returning them per request. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>)
}

/** Strips the weak prefix and quotes of an entity tag. */
export function revisionFromEtag(etag: string | null): string | undefined {
  if (!etag) return undefined
  const m = /^(?:W\/)?"?([^"]*)"?$/.exec(etag.trim())
  return m?.[1] || undefined
}

/**
 * Creates a driver over an HTTP progress collection.
 *
 * @throws SpkgError `state/conflict` from `set` on `412`; `state/storage-failed` on network errors and other statuses
 * @example
 * import { createHttpDriver } from '@spkg/state/drivers/http'
 * const driver = createHttpDriver({ baseUrl: 'https://spkg.example/api/progress', headers: { authorization } })
 */
export function createHttpDriver(options: HttpDriverOptions): StateDriver {
  const base = String(options.baseUrl).replace(/\/+$/, '')
  const urlOf = (key: string) => {
    // URL parsing folds `.` and `..` segments (also percent-encoded) into the parent path.
    if (key === '.' || key === '..') throw new Error('the key is not usable as a URL path segment')
    return `${base}/${encodeURIComponent(key)}`
  }
  const call = async (url: string, init: RequestInit): Promise<Response> => {
    const doFetch = options.fetch ?? globalThis.fetch
    const extra = typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {})
    return doFetch(url, { ...init, headers: { ...extra, ...(init.headers as Record<string, string>) } })
  }
  const failStatus = (action: string, key: string | undefined, res: Response) =>
    new SpkgError(
      'state/storage-failed',
      `http could not ${action}${key === undefined ? '' : ` "${key}"`}: status ${res.status}`,
    )
  return {
    name: 'http',
    async get(key, opts) {
      throwIfAborted(opts?.signal)
      try {
        const res = await call(urlOf(key), {
          method: 'GET',
          signal: opts?.signal,
          headers: { accept: 'application/json' },
        })
        if (res.status === 404) return undefined
        if (!res.ok) throw failStatus('read', key, res)
        const value = await res.text()
        return { value, revision: revisionFromEtag(res.headers.get('etag')) ?? '' }
      } catch (cause) {
        throw storageError('http', 'read', key, cause)
      }
    },
    async set(key, value, opts) {
      throwIfAborted(opts?.signal)
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (opts?.ifRevision === null) headers['if-none-match'] = '*'
      else if (opts?.ifRevision !== undefined) headers['if-match'] = `"${opts.ifRevision}"`
      try {
        let res = await call(urlOf(key), { method: 'PUT', body: value, headers, signal: opts?.signal })
        // An unconditional write to a server that requires a precondition (the platform API answers
        // 428 with the current ETag): write over exactly that revision, once.
        const current = res.status === 428 ? revisionFromEtag(res.headers.get('etag')) : undefined
        if (opts?.ifRevision === undefined && current !== undefined) {
          headers['if-match'] = `"${current}"`
          res = await call(urlOf(key), { method: 'PUT', body: value, headers, signal: opts?.signal })
        }
        if (res.status === 412) {
          throw conflictError(
            'http',
            key,
            opts?.ifRevision ?? null,
            revisionFromEtag(res.headers.get('etag')),
          )
        }
        if (!res.ok) throw failStatus('write', key, res)
        const revision = revisionFromEtag(res.headers.get('etag'))
        if (revision === undefined) throw new Error('the server sent no ETag')
        return { revision }
      } catch (cause) {
        throw storageError('http', 'write', key, cause)
      }
    },
    async remove(key, opts) {
      throwIfAborted(opts?.signal)
      try {
        const res = await call(urlOf(key), { method: 'DELETE', signal: opts?.signal })
        if (!res.ok && res.status !== 404) throw failStatus('remove', key, res)
      } catch (cause) {
        throw storageError('http', 'remove', key, cause)
      }
    },
    async keys(opts) {
      throwIfAborted(opts?.signal)
      try {
        const res = await call(base, {
          method: 'GET',
          signal: opts?.signal,
          headers: { accept: 'application/json' },
        })
        if (!res.ok) throw failStatus('list keys', undefined, res)
        const body: unknown = await res.json()
        const list = Array.isArray(body) ? body : (body as { items?: unknown })?.items
        if (!Array.isArray(list)) throw new Error('the key list is not a JSON array')
        return list.map((item) =>
          typeof item === 'string' ? item : String((item as { key?: unknown })?.key),
        )
      } catch (cause) {
        throw storageError('http', 'list keys', undefined, cause)
      }
    },
  }
}
