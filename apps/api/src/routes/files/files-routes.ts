/**
 * `GET|HEAD /files/packages/:file` and `/files/covers/:file`: package and cover files from the storage, the way
 * CDNs and the reader's progressive loader expect them. Single byte ranges (206 + `Content-Range`; 416 with
 * `Content-Range: bytes *\/<size>` when unsatisfiable; several ranges or an unreadable header: the whole file),
 * a strong `ETag` (the SHA-256, quoted), `If-None-Match` (304) and `If-Range` (the range only while the ETag
 * matches), caching (public files immutable for a year, those of a story reported lately five minutes, the rest
 * `private, no-cache`), the stored content type and `nosniff`. Every file answer carries {@link FILE_CSP}
 * instead of the API's policy (a file is never a document: an SVG cover opened by itself runs no script), and SVG
 * covers `Content-Disposition: attachment` (a navigation downloads them; `<img>` ignores it).
 *
 * Access: `canReadFile(key, user)` decides (see {@link CanReadFile}). Files of published versions are public;
 * others only for their owner, moderators and administrators (bearer token), and these are never cached by shared
 * caches and revalidated by browsers (`Cache-Control: private, no-cache`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CanReadFile } from '../../db/file-access'
import { ApiError, errorBody, errorResponses } from '../../errors'
import type { ThrottleTier } from '../../plugins/rate-limit'
import type { AuthUser } from '../../roles'
import {
  contentDispositionOf,
  FILE_CSP,
  type FileStorage,
  isValidKey,
  StorageError,
} from '../../storage/create-storage'
import type { FileCacheOf } from './file-cache'

export type { CanReadFile } from '../../db/file-access'

/** Options of {@link filesRoutes}. */
export interface FilesRoutesOptions {
  storage: FileStorage
  canReadFile: CanReadFile
  /** Whether a public file's story was reported lately (./file-cache.ts); absent: every public file is immutable. */
  cacheOf?: FileCacheOf
}

/**
 * Throttle of the files routes. Not in the SPEC's table (which is about the JSON API): a progressive reader asks
 * for many ranges of one package in a burst, so the global tier (10/s, 100/min) would stall it. Per caller, like
 * every tier; in production a CDN (`FILES_URL`) takes this traffic.
 */
export const FILES_THROTTLE: readonly ThrottleTier[] = [
  { name: 'short', max: 50, ttl: 1000 },
  { name: 'long', max: 1000, ttl: 60_000 },
]

/** `Cache-Control` of a public file: content-addressed, so any cache keeps it a year. */
export const PUBLIC_CACHE = 'public, max-age=31536000, immutable'
/**
 * `Cache-Control` of a public file whose story was reported lately: shared caches and browsers keep it five minutes
 * (then revalidate with the ETag), so a takedown reaches them without a purge.
 */
export const REPORTED_CACHE = 'public, max-age=300'
/**
 * `Cache-Control` of a file only its owner, moderators and administrators read (a version under review or
 * unpublished): no shared cache, and a browser asks again each time (304 while it may still read it).
 */
export const PRIVATE_CACHE = 'private, no-cache'
const EXPOSED = 'Accept-Ranges, Content-Range, Content-Length, ETag'

/** A parsed `Range` header: one range, none usable (serve the whole file) or unsatisfiable (416). */
export type RangeRequest = { start: number; end: number } | 'whole' | 'unsatisfiable'

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 14.1): `bytes=a-b`, `bytes=a-`, `bytes=-n`.
 * Several ranges, other units and unreadable values give `'whole'` (a server may ignore Range); a well-formed
 * range that names no byte of the file gives `'unsatisfiable'`.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return 'whole'
  const m = /^bytes=(\d{0,16})-(\d{0,16})$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return 'whole'
  if (m[1] === '') {
    const n = Number(m[2])
    if (n === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - n), end: size - 1 }
  }
  const start = Number(m[1])
  if (m[2] !== '' && Number(m[2]) < start) return 'whole' // invalid: ignored
  if (start >= size) return 'unsatisfiable'
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) }
}

/** Whether an `If-None-Match` value matches the strong ETag `etag` (weak comparison, as RFC 9110 13.1.2). */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
}

const FileParamsSchema = (ext: string, example: string) =>
  z.strictObject({
    file: z
      .string()
      .max(80)
      .meta({
        description: `\`<sha256>.${ext}\`: the lower-case hex SHA-256 of the file`,
        examples: [example],
      }),
  })

const EXAMPLE_HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

const binary = (description: string) =>
  z.any().meta({ description, type: 'string', format: 'binary' }) as unknown as z.ZodType

/** A binary answer under its own media type (not `application/json`) in the OpenAPI description. */
const binaryAs = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: binary(description) } },
})

function describe(kind: 'packages' | 'covers') {
  const ext = kind === 'packages' ? 'spkg' : 'png'
  const type = kind === 'packages' ? 'application/vnd.spkg+zip' : 'image/*'
  return {
    tags: ['files'],
    summary: kind === 'packages' ? 'A story package file (.spkg)' : 'A cover image',
    description:
      'Public for files of published versions; files of unpublished versions need the bearer token of their owner, ' +
      'a moderator or an administrator. Single byte ranges (`Range: bytes=0-1023`, `bytes=-22`, `bytes=512-`) give ' +
      '206 with `Content-Range`; an unsatisfiable range gives 416 with `Content-Range: bytes */<size>`; several ranges ' +
      'give the whole file. `If-None-Match` with the ETag gives 304; `If-Range` with the ETag keeps the range, any ' +
      'other value gives the whole file. HEAD answers the same headers without a body.' +
      (kind === 'packages'
        ? ' Content type `application/vnd.spkg+zip`.'
        : ' Content type as stored (`image/png`, `image/jpeg`, `image/webp`, ...).'),
    params: FileParamsSchema(kind === 'packages' ? 'spkg' : '<ext>', `${EXAMPLE_HASH}.${ext}`),
    headers: z.object({
      range: z
        .string()
        .max(200)
        .optional()
        .meta({ examples: ['bytes=0-1023'] }),
      'if-range': z
        .string()
        .max(200)
        .optional()
        .meta({ examples: [`"${EXAMPLE_HASH}"`] }),
      'if-none-match': z
        .string()
        .max(2000)
        .optional()
        .meta({ examples: [`"${EXAMPLE_HASH}"`] }),
    }),
    response: {
      200: binaryAs(type, 'the whole file'),
      206: binaryAs(type, 'one byte range of the file'),
      304: binary('not modified (the ETag matched)'),
      ...errorResponses(401, 403, 404, 416, 429),
    },
    security: [{}, { bearerAuth: [] as string[] }] as Array<Record<string, string[]>>,
  }
}

type AuthHook = preHandlerAsyncHookHandler

/** The files routes. */
export const filesRoutes: FastifyPluginAsyncZod<FilesRoutesOptions> = async (
  app,
  { storage, canReadFile, cacheOf },
) => {
  const authenticate = (app as unknown as { authenticate?: AuthHook }).authenticate

  const handler =
    (kind: 'packages' | 'covers') =>
    async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
      const key = `${kind}/${request.params.file}`
      if (!isValidKey(key)) throw new ApiError(404, 'NOT_FOUND', 'File not found')
      const access = await readAccess(app, request, reply, key, canReadFile, authenticate)
      const info = await storage.stat(key)
      if (!info) {
        request.log.error({ key }, 'files: a record names a file the storage does not have')
        throw new ApiError(404, 'NOT_FOUND', 'File not found')
      }
      const etag = `"${info.sha256}"`
      reply
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('cache-control', await cacheControl(access, key, cacheOf))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', FILE_CSP)
        .header('cross-origin-resource-policy', access === 'public' ? 'cross-origin' : 'same-origin')
      const disposition = contentDispositionOf(key)
      if (disposition) reply.header('content-disposition', disposition)
      if (access !== 'public') reply.header('vary', 'Authorization')
      const exposed = reply.getHeader('access-control-expose-headers')
      reply.header('access-control-expose-headers', exposed ? `${exposed}, ${EXPOSED}` : EXPOSED)
      if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send()

      let range = parseRange(request.headers.range, info.size)
      const ifRange = request.headers['if-range']
      if (ifRange !== undefined && String(ifRange).trim() !== etag) range = 'whole'
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('content-range', `bytes */${info.size}`)
          .send(
            errorBody(416, `Range not satisfiable: the file has ${info.size} bytes`, 'RANGE_NOT_SATISFIABLE'),
          )
      }
      reply.type(info.contentType)
      const part = range === 'whole' ? undefined : range
      if (part) reply.code(206).header('content-range', `bytes ${part.start}-${part.end}/${info.size}`)
      const length = part ? part.end - part.start + 1 : info.size
      reply.header('content-length', length)
      if (request.method === 'HEAD') return reply.send()
      let body: Awaited<ReturnType<FileStorage['read']>>
      try {
        body = await storage.read(key, part)
      } catch (err) {
        if (err instanceof StorageError && err.code === 'STORAGE_BAD_RANGE')
          throw new ApiError(404, 'NOT_FOUND', 'File not found') // replaced meanwhile: cannot happen with immutable keys
        throw err
      }
      if (!body) throw new ApiError(404, 'NOT_FOUND', 'File not found')
      return reply.send(body)
    }

  for (const kind of ['packages', 'covers'] as const) {
    // HEAD declared explicitly: Fastify's automatic HEAD route would reset Content-Length to 0 for a bodiless answer.
    app.route({
      method: ['GET', 'HEAD'],
      url: `/files/${kind}/:file`,
      config: { throttle: FILES_THROTTLE },
      schema: describe(kind),
      handler: handler(kind) as never,
    })
  }
}

/** The `Cache-Control` of a file answer (see {@link PUBLIC_CACHE}, {@link REPORTED_CACHE}, {@link PRIVATE_CACHE}). */
async function cacheControl(
  access: 'public' | 'private',
  key: string,
  cacheOf: FileCacheOf | undefined,
): Promise<string> {
  if (access !== 'public') return PRIVATE_CACHE
  return (await cacheOf?.(key)) === 'reported' ? REPORTED_CACHE : PUBLIC_CACHE
}

/**
 * Applies the access rule: `'public'`, or `'private'` when the caller may read it; throws 404 (no record names the
 * key), 401 (no or bad token) or 403 (a valid token without the right).
 */
async function readAccess(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  canReadFile: CanReadFile,
  authenticate: AuthHook | undefined,
): Promise<'public' | 'private'> {
  const current = () => (request as unknown as { user?: AuthUser | null }).user ?? undefined
  let user = current()
  let verdict = await canReadFile(key, user)
  if (verdict === null) throw new ApiError(404, 'NOT_FOUND', 'File not found')
  if (verdict === 'public') return 'public'
  if (verdict) return 'private'
  if (!user) {
    if (request.headers.authorization === undefined || !authenticate)
      throw new ApiError(401, 'UNAUTHORIZED', 'This file is not published: sign in to read it')
    await authenticate.call(app, request, reply) // throws 401 for a bad token
    user = current()
    verdict = await canReadFile(key, user)
    if (verdict === null) throw new ApiError(404, 'NOT_FOUND', 'File not found')
    if (verdict) return verdict === 'public' ? 'public' : 'private'
  }
  throw new ApiError(403, 'FORBIDDEN', 'Only the owner, moderators and administrators read unpublished files')
}
