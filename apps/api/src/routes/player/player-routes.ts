/**
 * The web player (apps/player) at `/` of the API's address: `GET|HEAD /` and `/index.html` give the
 * player's page, `/<file>` the files at the root of its build (service worker, web app manifest, icons), and
 * `/assets/<file>` Vite's hashed bundles. The API's own routes (`/api/*`, `/catalog/*`, `/files/*`) are registered
 * first and keep precedence; the player routes hash addresses only (`#/story/...`), so nothing else is needed.
 *
 * - Folder: `config.playerDir` (`PLAYER_DIR`, relative to the working directory), by default apps/player/dist of
 *   this repository. Files are looked up at request time, so a rebuild is served without a restart. A missing
 *   build answers `/` with 404 `PLAYER_NOT_BUILT` (a short page for browsers, the API's error body otherwise);
 *   the server starts all the same.
 * - Caching: `/assets/*` carries a content hash in its names, so `public, max-age=31536000, immutable`; everything
 *   else (the page, the service worker, the manifest, icons) `no-cache` with an `ETag`, so a new build is picked up
 *   at the next load (the service worker's update check included). The service worker sits at the root, so its
 *   scope is `/` without a `Service-Worker-Allowed` header.
 * - Paths: one name per segment from `[A-Za-z0-9._-]`, never starting with a dot, and the resolved file must lie
 *   inside the folder (symbolic links resolved): `..`, encoded slashes and dotfiles are 404 like any missing file.
 * - Headers: the security plugin's headers (the SPEC's policy) as on every answer, with two additions for the
 *   player's own answers:
 *   - `media-src 'self' blob:`. The reader hands a story's audio to the page as `blob:` URLs, and without a
 *     `media-src` directive media fall back to `default-src 'self'`, which refuses them.
 *   - the repository hosts in `connect-src` ({@link playerRepoConnect}: `https://<REPO_API_HOST>` and each
 *     `https://<REPO_DOWNLOAD_HOSTS>`, by default `https://api.github.com https://codeload.github.com`; none with
 *     `REPO_IMPORT=false`): the SPEC's loader operation opens a story from a repository address in the page, and
 *     under `connect-src 'self'` alone the browser refuses those hosts.
 * - Throttle: not the SPEC's JSON tiers (a first visit is a burst: the page's chunks, then the service worker's
 *   precache of the whole build): 300 a second and 6,000 a minute per caller.
 */
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_DOWNLOAD_HOSTS, DEFAULT_REPO_API_HOST } from '@spkg/repo-import'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config'
import { errorBody } from '../../errors'
import type { ThrottleTier } from '../../plugins/rate-limit'
import { COVER_TYPES } from '../../storage/types'

/** The player's build in this repository (apps/player/dist), used when `PLAYER_DIR` is unset. */
export const DEFAULT_PLAYER_DIR = fileURLToPath(new URL('../../../../player/dist', import.meta.url))

/** The directive added to the policy on the player's answers (see the module comment). */
export const PLAYER_MEDIA_SRC = "media-src 'self' blob:"

/**
 * Origins added to `connect-src` on the player's answers: where a repository loader connects, from the `REPO_*`
 * settings (`REPO_API_HOST`, default api.github.com, and each of `REPO_DOWNLOAD_HOSTS`, default
 * codeload.github.com); none when repository loading is off (`REPO_IMPORT=false`).
 */
export function playerRepoConnect(repo: Pick<Config['repo'], 'off' | 'apiHost' | 'downloadHosts'>): string[] {
  if (repo.off) return []
  const hosts = [repo.apiHost ?? DEFAULT_REPO_API_HOST, ...(repo.downloadHosts ?? DEFAULT_DOWNLOAD_HOSTS)]
  return [...new Set(hosts.map((host) => `https://${host.toLowerCase()}`))]
}

/**
 * The policy of the player's answers: the security plugin's, with `media-src` and the repository origins
 * (`connect`, default: {@link playerRepoConnect} of the default settings) added.
 */
export function playerPolicy(csp: string, connect: readonly string[] = playerRepoConnect({})): string {
  let policy = csp
  const extra = connect.join(' ')
  if (extra && /(^|;)\s*connect-src /.test(policy))
    policy = policy.replace(/((?:^|;)\s*connect-src [^;]*)/, (directive) => `${directive} ${extra}`)
  if (!/(^|;)\s*media-src /.test(policy)) policy = `${policy};${PLAYER_MEDIA_SRC}`
  return policy
}

/**
 * Throttle of the player's files. A first visit asks for the page and its chunks, then the service worker precaches
 * every file of the build at once (36 files today): 50 a second refused part of the precache, and a worker whose
 * precache fails never installs. Static files from disk are cheap; the tiers stop floods, not visits.
 */
export const PLAYER_THROTTLE: readonly ThrottleTier[] = [
  { name: 'short', max: 300, ttl: 1000 },
  { name: 'long', max: 6000, ttl: 60_000 },
]

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'no-cache'

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  // The image types are the ones covers are stored with (png, jpeg, webp, avif, gif, svg).
  ...COVER_TYPES,
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  woff: 'font/woff',
  wasm: 'application/wasm',
  txt: 'text/plain; charset=utf-8',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
}

/** The content type of a file name (by extension; unknown: `application/octet-stream`). */
export function contentTypeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase()
  return TYPES[ext] ?? 'application/octet-stream'
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/

/** Whether `path` (slash-separated, relative) is made only of plain names: no `..`, no dotfile, no empty part. */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 1000) return false
  return path.split('/').every((s) => SEGMENT.test(s) && !s.includes('..'))
}

/** Options of {@link playerRoutes}. */
export interface PlayerRoutesOptions {
  /** The built player's folder (`PLAYER_DIR`); absent: {@link DEFAULT_PLAYER_DIR}. */
  dir?: string | undefined
  /** `NODE_ENV=production`: the not-built page gives the build command only. @default true */
  isProduction?: boolean
  /** The repository import's hosts, added to the player's `connect-src`; absent: the default hosts. */
  repo?: Pick<Config['repo'], 'off' | 'apiHost' | 'downloadHosts'>
}

/** The folder to serve: absolute, resolved against the working directory. */
function playerDir(opts: PlayerRoutesOptions): string {
  const configured = opts.dir
  if (!configured) return DEFAULT_PLAYER_DIR
  return isAbsolute(configured) ? configured : resolve(configured)
}

/** A regular file inside `root` at `rel`, or null (missing, a folder, or outside `root` once links are resolved). */
async function findFile(
  root: string,
  rel: string,
): Promise<{ path: string; size: number; mtimeMs: number } | null> {
  if (!isSafeRelativePath(rel)) return null
  try {
    const realRoot = await realpath(root)
    const path = await realpath(join(realRoot, rel))
    if (!path.startsWith(realRoot + sep)) return null
    const st = await stat(path)
    if (!st.isFile()) return null
    return { path, size: st.size, mtimeMs: st.mtimeMs }
  } catch {
    return null
  }
}

function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''))
}

const NOT_BUILT_PAGE = (hint: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>spkg player not built</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>The web player is not built</h1>
<p>Code: <code>PLAYER_NOT_BUILT</code>. ${hint}</p>
<p>The API itself works: <a href="/catalog/stories">/catalog/stories</a>, <a href="/api/health">/api/health</a>.</p>
</body></html>
`

async function playerRoutesPlugin(app: FastifyInstance, opts: PlayerRoutesOptions): Promise<void> {
  const root = playerDir(opts)
  const isProduction = opts.isProduction ?? true
  const hint = isProduction
    ? 'Build it (pnpm --filter @spkg/player build) and point PLAYER_DIR at its dist folder.'
    : `Run pnpm start from the repository root (it builds the player first), or pnpm --filter @spkg/player build; this server looks in ${root} (PLAYER_DIR).`

  // The policy the security plugin set, plus media-src for blob: audio and the repository loader's hosts
  // (encapsulated: the player's answers only).
  const connect = playerRepoConnect(opts.repo ?? {})
  app.addHook('onSend', async (_request, reply, payload) => {
    const csp = reply.getHeader('content-security-policy')
    if (typeof csp === 'string') reply.header('content-security-policy', playerPolicy(csp, connect))
    return payload
  })

  const send = async (request: FastifyRequest, reply: FastifyReply, rel: string, cache: string) => {
    const file = await findFile(root, rel)
    if (!file) return reply.callNotFound()
    const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`
    reply
      .header('cache-control', cache)
      .header('etag', etag)
      .header('last-modified', new Date(file.mtimeMs).toUTCString())
      .type(contentTypeOf(file.path))
    if (notModified(request.headers['if-none-match'], etag)) return reply.code(304).send()
    // HEAD too: Fastify's HEAD route drains the stream and keeps this length.
    reply.header('content-length', String(file.size))
    return reply.send(createReadStream(file.path))
  }

  const config = { throttle: PLAYER_THROTTLE }
  const schema = { hide: true }
  const index = async (request: FastifyRequest, reply: FastifyReply) => {
    if (await findFile(root, 'index.html')) return send(request, reply, 'index.html', REVALIDATE)
    const accepted = String(request.headers.accept ?? '')
    reply.code(404).header('cache-control', 'no-store')
    if (accepted.includes('text/html'))
      return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE(hint))
    return reply.send(errorBody(404, `The web player is not built. ${hint}`, 'PLAYER_NOT_BUILT'))
  }
  app.get('/', { config, schema }, index)
  app.get('/index.html', { config, schema }, index)
  app.get<{ Params: { file: string } }>('/:file', { config, schema }, (request, reply) =>
    send(request, reply, request.params.file, REVALIDATE),
  )
  app.get<{ Params: { '*': string } }>('/assets/*', { config, schema }, (request, reply) =>
    send(request, reply, `assets/${request.params['*']}`, IMMUTABLE),
  )
}

/**
 * Registers the player's routes (see the module comment). Register it after the API's routes.
 *
 * @example
 * await app.register(playerRoutes, { dir: config.playerDir, isProduction: config.isProduction, repo: config.repo })
 */
export const playerRoutes = playerRoutesPlugin
