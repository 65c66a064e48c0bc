/**
 * A remote file read by HTTP range requests, safely: one small suffix-range request learns the
 * size and the validator (a strong `ETag`, else `Last-Modified`) and brings the tail (where a ZIP
 * keeps its end records and central directory); every later request carries `If-Range` with that
 * validator, so the bytes of two versions never mix. A server that ignores ranges (`200`) or
 * gives no validator is read with one whole download, bounded like any other input.
 *
 * Failures are {@link SpkgError}s with a stable code: `pkg/fetch-failed` (network, status,
 * timeout, a `206` whose `Content-Range` or length is not what was asked), `pkg/remote-changed`
 * (a later answer is a `200` or carries another validator or size) and `pkg/too-large`. Only the
 * signal's abort rejects with something else (its reason).
 */
import { SpkgError } from '@spkg/manifest'
import { archiveTooLarge, urlLabel } from '../open/input'

/** Waits `ms` milliseconds; rejects with the signal's reason when it aborts first. */
export type Sleeper = (ms: number, signal?: AbortSignal) => Promise<void>

/** Options of {@link createRangeSource}. */
export interface RangeSourceOptions {
  /** Largest file accepted (bytes): a larger one is `pkg/too-large` before its bytes are read. */
  maxBytes: number
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch
  /** Aborts every request; the read rejects with the signal's reason. */
  signal?: AbortSignal
  /** Time limit of one request (to the end of its body), in milliseconds. @default 30000 */
  timeout?: number
  /** Retries of a request answered 0 (network error or timeout), 408, 502, 503 or 504. @default 2 */
  retries?: number
  /** Waits between retries (1 s, then 2 s, doubling) and for timeouts; tests inject fake time. @default setTimeout */
  sleep?: Sleeper
  /** Requests in flight at once. @default 4 */
  concurrency?: number
  /** Bytes the first (suffix-range) request asks for. @default 65536 */
  probeBytes?: number
  /** Ranges whose gap is at most this many bytes are fetched in one request. @default 0 (only adjacent or overlapping) */
  coalesceGap?: number
  /** Called with every answer's byte count, as it arrives (progress, server-load accounting). */
  onBytes?: (bytes: number) => void
}

/** A remote file whose size and version are known; reads return bytes of that version only. */
export interface RangeSource {
  /** The URL without credentials, query or fragment, as diagnostics name it. */
  readonly label: string
  /** The file's size in bytes. */
  readonly size: number
  /** The validator every later request sends as `If-Range`; undefined when the file is held whole. */
  readonly validator?: string
  /** True when the server serves ranges; false when the whole file was downloaded at the first request. */
  readonly ranged: boolean
  /** Bytes received so far, over every request. */
  readonly bytesFetched: number
  /** Requests sent so far (retries included). */
  readonly requests: number
  /** Bytes `[offset, offset + length)`. */
  read(offset: number, length: number): Promise<Uint8Array>
  /** Several ranges at once: adjacent ones coalesced into one request, at most `concurrency` in flight. */
  readMany(ranges: readonly { offset: number; length: number }[]): Promise<Uint8Array[]>
  /** The whole file (in `chunkBytes` requests, default 4 MiB, `concurrency` at a time). */
  readAll(chunkBytes?: number): Promise<Uint8Array>
}

/** The default {@link Sleeper}: `setTimeout`, cleared on abort. */
export const realSleep: Sleeper = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })

const RETRY_STATUSES = new Set([0, 408, 502, 503, 504])

/** `bytes start-end/total`, or undefined when the header is not exactly that. */
export function parseContentRange(
  header: string | null,
): { start: number; end: number; total: number } | undefined {
  const m = /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15})$/.exec(header?.trim() ?? '')
  if (!m) return undefined
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (end < start || end >= total) return undefined
  return { start, end, total }
}

/** A strong ETag (`W/` ones cannot be used with `If-Range`), else Last-Modified, else undefined. */
function validatorOf(headers: Headers): string | undefined {
  const etag = headers.get('etag')?.trim()
  if (etag && !etag.startsWith('W/')) return etag
  return headers.get('last-modified')?.trim() || undefined
}

class Failure {
  constructor(
    readonly status: number,
    readonly why: string,
  ) {}
}

/** Reads a body of at most `max` bytes; undefined past it (the body is cancelled). */
async function readBody(res: Response, max: number): Promise<Uint8Array | undefined> {
  if (!res.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = res.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.length
    if (total > max) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(total)
  let o = 0
  for (const c of chunks) {
    bytes.set(c, o)
    o += c.length
  }
  return bytes
}

/**
 * Opens a remote file for range reads (see the module comment). Rejects with a
 * {@link SpkgError} (`pkg/fetch-failed`, `pkg/too-large`, `pkg/remote-changed`), or with the
 * signal's reason when it aborts.
 *
 * @example
 * const source = await createRangeSource('https://example.org/the-inn.spkg', { maxBytes: 64 << 20 })
 * const tail = await source.read(source.size - 22, 22)
 */
export async function createRangeSource(
  url: string | URL,
  options: RangeSourceOptions,
): Promise<RangeSource> {
  const label = urlLabel(url)
  const fetchImpl = options.fetch ?? globalThis.fetch
  const sleep = options.sleep ?? realSleep
  const timeout = options.timeout ?? 30_000
  const retries = options.retries ?? 2
  const concurrency = Math.max(1, options.concurrency ?? 4)
  const gap = options.coalesceGap ?? 0
  const signal = options.signal
  let bytesFetched = 0
  let requests = 0

  const fetchFailed = (why: string) =>
    new SpkgError('pkg/fetch-failed', `The package "${label}" could not be downloaded: ${why}.`)
  const changed = (why: string) =>
    new SpkgError(
      'pkg/remote-changed',
      `The package "${label}" changed on the server while it was being read (${why}); open it again.`,
    )
  const tooLarge = (size: number) => {
    const d = archiveTooLarge(size, options.maxBytes)
    return new SpkgError(d.code, d.message, { diagnostics: [d] })
  }

  /**
   * One request with its timeout; `check` turns the answer into bytes or throws. A {@link Failure}
   * with a retry status is retried after 1 s, 2 s...; anything else goes up at once.
   */
  async function request<T>(
    headers: Record<string, string>,
    check: (res: Response) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted()
      const ctl = new AbortController()
      const onAbort = () => ctl.abort(signal!.reason)
      signal?.addEventListener('abort', onAbort, { once: true })
      const timer = new AbortController()
      let timedOut = false
      sleep(timeout, timer.signal).then(
        () => {
          timedOut = true
          ctl.abort(new Failure(0, `no complete answer within ${timeout} ms`))
        },
        () => {},
      )
      try {
        requests++
        let res: Response
        try {
          res = await fetchImpl(url, { headers, signal: ctl.signal })
        } catch (e) {
          throw new Failure(0, networkWhy(e, url, label))
        }
        try {
          return await check(res)
        } catch (e) {
          if (!(e instanceof Failure) && !(e instanceof SpkgError))
            throw new Failure(0, networkWhy(e, url, label))
          throw e
        } finally {
          await res.body?.cancel().catch(() => {})
        }
      } catch (e) {
        signal?.throwIfAborted()
        const failure =
          timedOut && !(e instanceof SpkgError)
            ? new Failure(0, `no complete answer within ${timeout} ms`)
            : e
        if (!(failure instanceof Failure)) throw failure
        if (!RETRY_STATUSES.has(failure.status) || attempt >= retries) throw fetchFailed(failure.why)
        await sleep(1000 * 2 ** attempt, signal)
      } finally {
        timer.abort()
        signal?.removeEventListener('abort', onAbort)
      }
    }
  }

  const statusFailure = (res: Response) => new Failure(res.status, `the server answered ${res.status}`)

  /** One plain GET of the whole file, bounded. */
  const wholeDownload = () =>
    request({}, async (res) => {
      if (res.status !== 200) throw statusFailure(res)
      return wholeBody(res)
    })
  const wholeBody = async (res: Response) => {
    const declared = Number(res.headers.get('content-length') ?? Number.NaN)
    if (declared > options.maxBytes) throw tooLarge(declared)
    const body = await readBody(res, options.maxBytes)
    if (!body) throw tooLarge(options.maxBytes + 1)
    bytesFetched += body.length
    options.onBytes?.(body.length)
    return body
  }
  const held = (bytes: Uint8Array) =>
    heldSource(
      label,
      bytes,
      () => bytesFetched,
      () => requests,
    )

  // The probe: the tail of the file, its size and its validator.
  const probeBytes = Math.max(1, options.probeBytes ?? 65_536)
  const probe = await request({ range: `bytes=-${probeBytes}` }, async (res) => {
    if (res.status === 200) return { whole: await wholeBody(res) }
    // A suffix range the server cannot satisfy (an empty file, or a file shorter than the
    // suffix for some servers): read it whole instead.
    if (res.status === 416) return { unsatisfiable: true as const }
    if (res.status !== 206) throw statusFailure(res)
    const range = parseContentRange(res.headers.get('content-range'))
    if (!range || range.end !== range.total - 1 || range.start !== Math.max(0, range.total - probeBytes))
      throw new Failure(
        -1,
        `the server answered a range request with the wrong Content-Range "${res.headers.get('content-range') ?? ''}"`,
      )
    if (range.total > options.maxBytes) throw tooLarge(range.total)
    const body = await readBody(res, range.end - range.start + 1)
    if (!body || body.length !== range.end - range.start + 1)
      throw new Failure(-1, 'the server sent a range of another length than its Content-Range')
    bytesFetched += body.length
    options.onBytes?.(body.length)
    return {
      tail: body,
      size: range.total,
      validator: validatorOf(res.headers),
      etag: res.headers.get('etag'),
    }
  })

  if ('whole' in probe && probe.whole) return held(probe.whole)
  if ('unsatisfiable' in probe) return held(await wholeDownload())
  const { size, validator, tail, etag } = probe
  const tailStart = size - tail.length
  if (!validator) {
    // Without a validator, ranges of two versions could mix unseen: one whole download instead.
    const whole = await wholeDownload()
    if (whole.length !== size) throw changed(`its size went from ${size} to ${whole.length} bytes`)
    return held(whole)
  }

  /** One range request: exactly `[start, end]` of the same version. */
  const fetchRange = (start: number, end: number) =>
    request({ range: `bytes=${start}-${end}`, 'if-range': validator }, async (res) => {
      if (res.status === 200) throw changed('a range request was answered with the whole file')
      if (res.status !== 206) throw statusFailure(res)
      // Any ETag, weak ones too (a Last-Modified validator cannot tell two writes in one second apart).
      const now = res.headers.get('etag')
      if ((etag !== null || now !== null) && now !== etag) throw changed('its ETag changed')
      const modified = res.headers.get('last-modified')?.trim()
      if (etag === null && modified !== undefined && modified !== validator)
        throw changed('its Last-Modified changed')
      const range = parseContentRange(res.headers.get('content-range'))
      if (range && range.total !== size) throw changed(`its size went from ${size} to ${range.total} bytes`)
      if (!range || range.start !== start || range.end !== end)
        throw new Failure(
          -1,
          `the server answered bytes=${start}-${end} with the wrong Content-Range "${res.headers.get('content-range') ?? ''}"`,
        )
      const body = await readBody(res, end - start + 1)
      if (!body || body.length !== end - start + 1)
        throw new Failure(-1, 'the server sent a range of another length than its Content-Range')
      bytesFetched += body.length
      options.onBytes?.(body.length)
      return body
    })

  const checkRange = (offset: number, length: number) => {
    if (
      !Number.isSafeInteger(offset) ||
      !Number.isSafeInteger(length) ||
      offset < 0 ||
      length < 0 ||
      offset + length > size
    )
      throw new SpkgError(
        'pkg/corrupt-archive',
        `A read of ${length} bytes at ${offset} is outside the ${size}-byte package "${label}".`,
      )
  }

  // Bounded parallelism: at most `concurrency` requests in flight over every caller.
  let active = 0
  const waiting: (() => void)[] = []
  async function limited<T>(run: () => Promise<T>): Promise<T> {
    while (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    active++
    try {
      return await run()
    } finally {
      active--
      waiting.shift()?.()
    }
  }

  async function readMany(ranges: readonly { offset: number; length: number }[]): Promise<Uint8Array[]> {
    for (const r of ranges) checkRange(r.offset, r.length)
    // What the tail already holds needs no request.
    const needed = ranges
      .map((r, i) => ({ ...r, i }))
      .filter((r) => r.length > 0 && r.offset < tailStart)
      .sort((a, b) => a.offset - b.offset)
    const groups: { start: number; end: number }[] = []
    for (const r of needed) {
      const end = Math.min(r.offset + r.length, tailStart)
      const last = groups[groups.length - 1]
      if (last && r.offset <= last.end + gap) last.end = Math.max(last.end, end)
      else groups.push({ start: r.offset, end })
    }
    const fetched = await Promise.all(groups.map((g) => limited(() => fetchRange(g.start, g.end - 1))))
    return ranges.map((r) => {
      if (r.length === 0) return new Uint8Array(0)
      const out = new Uint8Array(r.length)
      if (r.offset + r.length > tailStart) {
        const from = Math.max(r.offset, tailStart)
        out.set(tail.subarray(from - tailStart, r.offset + r.length - tailStart), from - r.offset)
      }
      if (r.offset < tailStart) {
        const k = groups.findIndex((g) => g.start <= r.offset && r.offset < g.end)
        const g = groups[k]!
        const upto = Math.min(r.offset + r.length, tailStart)
        out.set(fetched[k]!.subarray(r.offset - g.start, upto - g.start), 0)
      }
      return out
    })
  }

  return {
    label,
    size,
    validator,
    ranged: true,
    get bytesFetched() {
      return bytesFetched
    },
    get requests() {
      return requests
    },
    read: async (offset, length) => (await readMany([{ offset, length }]))[0]!,
    readMany,
    async readAll(chunkBytes = 4 * 1024 * 1024) {
      const chunk = Math.max(1, chunkBytes)
      const ranges: { offset: number; length: number }[] = []
      for (let o = 0; o < tailStart; o += chunk)
        ranges.push({ offset: o, length: Math.min(chunk, tailStart - o) })
      // Separate requests (not coalesced), `concurrency` at a time.
      const parts = await Promise.all(
        ranges.map((r) => limited(() => fetchRange(r.offset, r.offset + r.length - 1))),
      )
      const all = new Uint8Array(size)
      for (let i = 0; i < parts.length; i++) all.set(parts[i]!, ranges[i]!.offset)
      all.set(tail, tailStart)
      return all
    },
  }
}

/** A source over bytes already downloaded whole (the server ignored ranges or gave no validator). */
function heldSource(
  label: string,
  bytes: Uint8Array,
  fetched: () => number,
  requests: () => number,
): RangeSource {
  const size = bytes.length
  const readMany = async (ranges: readonly { offset: number; length: number }[]) =>
    ranges.map(({ offset, length }) => {
      if (offset < 0 || length < 0 || offset + length > size)
        throw new SpkgError(
          'pkg/corrupt-archive',
          `A read of ${length} bytes at ${offset} is outside the ${size}-byte package "${label}".`,
        )
      return bytes.subarray(offset, offset + length)
    })
  return {
    label,
    size,
    ranged: false,
    get bytesFetched() {
      return fetched()
    },
    get requests() {
      return requests()
    },
    read: async (offset, length) => (await readMany([{ offset, length }]))[0]!,
    readMany,
    readAll: async () => bytes,
  }
}

/**
 * Why a fetch failed: its message and its cause's system code or message (`ECONNREFUSED`), with
 * the URL replaced by its label wherever they repeat it (fetch quotes the URL, credentials and all).
 */
function networkWhy(e: unknown, url: string | URL, label: string): string {
  if (e instanceof Failure) return e.why
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined
  const code = (cause as { code?: unknown } | undefined)?.code
  let why = e instanceof Error ? e.message : String(e)
  if (cause) why += ` (${typeof code === 'string' ? code : cause.message})`
  const raw = String(url)
  return raw ? why.split(raw).join(label) : why
}
