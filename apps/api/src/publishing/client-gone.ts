/**
 * The client of an upload or an import gone before its answer: the connection closed while the
 * package waited for or took its validation. `publishPackage` checks the signal and commits nothing, so the retry is
 * not refused as VERSION_EXISTS for a version nobody was told about.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'

/** A signal aborted when `reply`'s connection closes before the answer is written; `stop()` when the route is done. */
export function watchClient(reply: FastifyReply): { signal: AbortSignal; stop: () => void } {
  const gone = new AbortController()
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort()
  }
  reply.raw.on('close', onClose)
  return { signal: gone.signal, stop: () => reply.raw.off('close', onClose) }
}

/** The answer to a client that has gone: none (the socket is destroyed), one log line. */
export function dropAnswer(request: FastifyRequest, reply: FastifyReply, slug: string): FastifyReply {
  request.log.info({ slug }, 'upload: the client left before the commit; nothing stored')
  reply.hijack() // nobody to answer
  reply.raw.destroy()
  return reply
}
