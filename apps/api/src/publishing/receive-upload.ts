/**
 * Receiving a package upload: the request body goes to a temporary file as it arrives, hashed on the way, never
 * held whole in memory. A `Content-Length` over the limit is refused before one byte is read; a body without one
 * (chunked) is cut off as soon as it passes the limit. An interrupted or refused upload leaves no file behind.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyRequest } from 'fastify'
import { ApiError, formatBytes } from '../errors'

/** A received upload: a temporary file, its hash and size. `discard()` removes the file (idempotent). */
export interface ReceivedUpload {
  path: string
  sha256: string
  size: number
  discard(): Promise<void>
}

/** Media types of a package body. */
export const PACKAGE_MEDIA_TYPES = ['application/vnd.spkg+zip', 'application/zip'] as const

/** Throws 413 PACKAGE_TOO_LARGE when the request announces more than `maxBytes`. */
export function refuseAnnouncedOversize(request: FastifyRequest, maxBytes: number): void {
  const h = request.headers['content-length']
  if (typeof h === 'string' && /^\d+$/.test(h) && Number(h) > maxBytes) throw tooLarge(maxBytes)
}

const tooLarge = (maxBytes: number) =>
  new ApiError(413, 'PACKAGE_TOO_LARGE', `The package is over the ${formatBytes(maxBytes)} limit`)

/**
 * Streams `body` into a new file under `dir`. Rejects with 413 PACKAGE_TOO_LARGE past `maxBytes` (the rest of the
 * body is not read) and with 400 VALIDATION_FAILED for an empty body; the file is removed on any failure,
 * including a client that goes away mid-body.
 */
export async function receiveUpload(
  body: NodeJS.ReadableStream,
  options: { dir: string; maxBytes: number },
): Promise<ReceivedUpload> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 })
  const path = join(options.dir, `${randomUUID()}.spkg.part`)
  const hash = createHash('sha256')
  let size = 0
  const discard = () => rm(path, { force: true })
  const count = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length
      if (size > options.maxBytes) return cb(tooLarge(options.maxBytes))
      hash.update(chunk)
      cb(null, chunk)
    },
  })
  // The request is piped by hand, not through `pipeline`: a refusal must not destroy the request (that would
  // close the socket before the 413 is sent); the route answers with `Connection: close` instead.
  const source = body as NodeJS.ReadableStream & {
    readableEnded?: boolean
    once: NodeJS.EventEmitter['once']
  }
  const broken = () => {
    if (!source.readableEnded) count.destroy(new Error('upload interrupted'))
  }
  source.once('error', broken)
  source.once('close', broken)
  source.pipe(count)
  try {
    await pipeline(count, createWriteStream(path, { flags: 'wx', mode: 0o600 }))
  } catch (err) {
    source.unpipe(count)
    source.pause()
    await discard()
    if (err instanceof ApiError) throw err
    // The client went away or the stream broke: nothing was stored; the answer (if any can still be sent) is 400.
    throw new ApiError(
      400,
      'VALIDATION_FAILED',
      'The upload was interrupted before the whole package arrived',
    )
  } finally {
    source.off('error', broken)
    source.off('close', broken)
  }
  if (size === 0) {
    await discard()
    throw new ApiError(400, 'VALIDATION_FAILED', 'The request body is empty: send the .spkg bytes')
  }
  return { path, sha256: hash.digest('hex'), size, discard }
}
