/**
 * The updater's view of a remote archive, on the reader's range client (`createRangeSource`:
 * `206` with a matching `Content-Range` required, `If-Range` on every later request, timeouts and
 * the SPEC's retries). Adds what the updater needs: the first bytes (to tell an encrypted
 * container), `[start, end)` reads, and the first failure kept for reports (the quick look
 * rewraps read errors as `pkg/fetch-failed`, and a `pkg/remote-changed` must not be lost).
 */
import { SpkgError } from '@spkg/manifest'
import { createRangeSource, type RangeSourceOptions } from '../remote/range-source'

/** A remote file read by ranges, or held whole when the server ignores ranges. */
export interface UpdateSource {
  readonly size: number
  /** False: the server ignored ranges and {@link whole} holds the file. */
  readonly ranged: boolean
  /** The whole file, downloaded by the first request (`ranged` false). */
  whole(): Promise<Uint8Array>
  /** The file's first bytes (up to 64). */
  head(): Promise<Uint8Array>
  /** Bytes `[start, end)`. @throws SpkgError `pkg/fetch-failed` or `pkg/remote-changed` */
  read(start: number, end: number): Promise<Uint8Array>
  /** Body bytes received so far, and requests made. */
  readonly stats: { bytes: number; requests: number }
  /** The first failure of a read. */
  readonly failure: SpkgError | undefined
}

/**
 * Opens `url` for the updater.
 * @throws SpkgError `pkg/fetch-failed`, `pkg/too-large` (see `createRangeSource`)
 */
export async function openUpdateSource(
  url: string | URL,
  options: Omit<RangeSourceOptions, 'probeBytes'>,
): Promise<UpdateSource> {
  const remote = await createRangeSource(url, options)
  let first: SpkgError | undefined
  const read = async (start: number, end: number) => {
    try {
      return await remote.read(start, end - start)
    } catch (e) {
      if (e instanceof SpkgError) first ??= e
      throw e
    }
  }
  return {
    size: remote.size,
    ranged: remote.ranged,
    whole: () => remote.readAll(),
    head: () => read(0, Math.min(64, remote.size)),
    read,
    get stats() {
      return { bytes: remote.bytesFetched, requests: remote.requests }
    },
    get failure() {
      return first
    },
  }
}
