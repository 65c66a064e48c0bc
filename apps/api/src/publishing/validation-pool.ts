/**
 * A bounded pool of validation workers (`worker_threads`). Validation runs off the event loop, at most
 * `workers` packages at once, each in a thread whose heap is capped by `resourceLimits` (the story checker needs
 * about 40 MiB per MB of a single part: one hostile part must not cost the server gigabytes) and within a time
 * budget. A worker that runs out of memory dies with its job; one over budget is terminated; either is replaced
 * by a fresh thread for the next job. At most `queue` jobs wait; beyond that the upload is refused at once (503)
 * so that uploads cannot pile up and starve the rest of the API. One user holds at most one place, running or
 * waiting: a second job of the same user is refused at once (429 `VALIDATION_IN_PROGRESS`, with Retry-After), so
 * that one account cannot fill the pool for every other creator. A reply the main thread cannot read (a
 * `messageerror`: a manifest nested too deep to cross between threads) or of the wrong shape fails the job at once
 * (422 `VALIDATION_UNREADABLE`) and ends its thread, rather than leaving it idle until the time budget. Threads run
 * the pre-bundled worker (worker-bundle.ts), not the TypeScript sources: a thread then costs tens of MiB less.
 */
import { Worker } from 'node:worker_threads'
import { ApiError } from '../errors'
import type { ValidationJob, ValidationOutcome } from './validation-types'
import { bundledWorker } from './worker-bundle'

/** Options of {@link createValidationPool}. */
export interface ValidationPoolOptions {
  /** Packages validated at once. @default 2 */
  workers: number
  /** Heap cap of one worker (`maxOldGenerationSizeMb`), MiB. @default 256 */
  memoryMb: number
  /** Time budget of one validation, ms, from the moment a worker takes it. @default 30000 */
  timeoutMs: number
  /** Jobs that may wait for a worker. @default 8 */
  queue: number
  /**
   * Longest wait for a worker, ms: past it the job is refused (503 `VALIDATION_BUSY`), so that an upload is answered
   * within `queueWaitMs` + `timeoutMs` (the connection timeout covers that: config.ts). @default 20000
   */
  queueWaitMs: number
  /** Run the pre-bundled worker (worker-bundle.ts) rather than the TypeScript sources through tsx. @default true */
  bundle: boolean
  /** Told why the bundle could not be built (the pool then uses tsx). */
  onBundleError?: (err: unknown) => void
  /** A worker script run instead of the validation worker (tests: a worker whose replies misbehave). */
  worker?: URL
}

/** `Retry-After` of a 429 `VALIDATION_IN_PROGRESS` and a 503 `VALIDATION_BUSY`, seconds. */
export const VALIDATION_RETRY_AFTER_S = 5

/** The pool: `validate(job)` resolves with the worker's findings or rejects with an {@link ApiError}. */
export interface ValidationPool {
  validate(job: ValidationJob): Promise<ValidationOutcome>
  /** Jobs running and waiting, and the users they belong to (for tests and health). */
  readonly load: { running: number; waiting: number; users: number }
  close(): Promise<void>
}

// Fallback when the bundle cannot be built: register tsx in the thread and load the TypeScript entry.
const BOOT = new URL('./worker-boot.mjs', import.meta.url)
const ENTRY = new URL('./validate-worker.ts', import.meta.url).href

type Reply = { ok: true; outcome: ValidationOutcome } | { ok: false; message: string }

/** Whether a worker's message has the shape of a {@link Reply} (the fields the publishing code reads). */
function isReply(m: unknown): m is Reply {
  if (!m || typeof m !== 'object') return false
  const r = m as { ok?: unknown; outcome?: unknown; message?: unknown }
  if (r.ok === false) return typeof r.message === 'string'
  if (r.ok !== true || !r.outcome || typeof r.outcome !== 'object') return false
  const o = r.outcome as Partial<Record<keyof ValidationOutcome, unknown>>
  return (
    typeof o.loads === 'boolean' &&
    typeof o.valid === 'boolean' &&
    Array.isArray(o.diagnostics) &&
    (o.manifest === null || typeof o.manifest === 'object') &&
    !!o.signature &&
    typeof o.signature === 'object' &&
    !!o.integrity &&
    typeof o.integrity === 'object'
  )
}

const unreadable = (why: string) =>
  new ApiError(
    422,
    'VALIDATION_UNREADABLE',
    `The check of this package gave an answer the server cannot read (${why}); nothing was stored`,
  )

/** Creates a pool; a thread starts for each job and ends with it (the bundled worker starts in tens of ms). */
export function createValidationPool(options: Partial<ValidationPoolOptions> = {}): ValidationPool {
  const o: ValidationPoolOptions = {
    workers: 2,
    memoryMb: 256,
    timeoutMs: 30_000,
    queue: 8,
    queueWaitMs: 20_000,
    bundle: true,
    ...options,
  }
  const all = new Set<Worker>()
  const waiting: Array<() => void> = []
  /** Users with a job running or waiting. */
  const users = new Set<string>()
  let running = 0
  let closed = false

  const spawn = async () => {
    const limits = {
      resourceLimits: {
        maxOldGenerationSizeMb: o.memoryMb,
        maxYoungGenerationSizeMb: Math.min(32, o.memoryMb / 4),
      },
      stdout: false,
      stderr: false,
    }
    const bundle = o.bundle ? await bundledWorker(o.onBundleError) : null
    const w = o.worker
      ? new Worker(o.worker, limits)
      : bundle
        ? new Worker(bundle, limits)
        : new Worker(BOOT, {
            workerData: { entry: ENTRY },
            execArgv: ['--conditions=@spkg/source'],
            ...limits,
          })
    all.add(w)
    w.once('exit', () => {
      all.delete(w)
    })
    return w
  }

  const waitForWorker = () =>
    new Promise<void>((resolve, reject) => {
      const take = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        const at = waiting.indexOf(take)
        if (at >= 0) waiting.splice(at, 1)
        reject(
          new ApiError(
            503,
            'VALIDATION_BUSY',
            `No validation place came free within ${o.queueWaitMs} ms; try again shortly`,
            VALIDATION_RETRY_AFTER_S,
          ),
        )
      }, o.queueWaitMs)
      waiting.push(take)
    })

  const release = () => {
    running--
    waiting.shift()?.()
  }

  const runOn = (w: Worker, job: ValidationJob) =>
    new Promise<ValidationOutcome>((resolve, reject) => {
      w.ref()
      const done = (fn: () => void) => {
        clearTimeout(timer)
        w.off('message', onMessage)
        w.off('messageerror', onMessageError)
        w.off('error', onError)
        w.off('exit', onExit)
        fn()
      }
      const onMessage = (reply: unknown) =>
        done(() => {
          w.unref()
          // One job per thread: its isolate, the package bytes it read and any garbage go with it (a kept thread
          // held the last package until a GC, so the next upload's peak was two packages; bench/api-upload).
          void w.terminate()
          if (!isReply(reply)) reject(unreadable('a reply of the wrong shape'))
          else if (reply.ok) resolve(reply.outcome)
          else reject(new Error(`validation worker failed: ${reply.message}`))
        })
      // The worker posted its reply but this thread cannot deserialise it (V8 runs out of stack on a value nested a
      // few thousand deep: the manifest is returned as parsed). No other message will come: fail now, free the slot.
      const onMessageError = (err: Error) =>
        done(() => {
          void w.terminate()
          reject(unreadable(err.message || 'it cannot be deserialised'))
        })
      const onError = (err: Error & { code?: string }) =>
        done(() => {
          void w.terminate()
          if (err.code === 'ERR_WORKER_OUT_OF_MEMORY')
            reject(
              new ApiError(
                422,
                'VALIDATION_MEMORY_EXCEEDED',
                `Checking this package needs more than the ${o.memoryMb} MiB a validation may use`,
              ),
            )
          else reject(err)
        })
      const onExit = () => done(() => reject(new Error('validation worker exited')))
      const timer = setTimeout(
        () =>
          done(() => {
            void w.terminate()
            reject(
              new ApiError(
                422,
                'VALIDATION_TIMEOUT',
                `Checking this package took longer than the ${o.timeoutMs} ms a validation may take`,
              ),
            )
          }),
        o.timeoutMs,
      )
      w.on('message', onMessage)
      w.once('messageerror', onMessageError)
      w.once('error', onError)
      w.once('exit', onExit)
      w.postMessage(job)
    })

  return {
    get load() {
      return { running, waiting: waiting.length, users: users.size }
    },
    async validate(job) {
      if (closed) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The server is shutting down; retry')
      const user = job.user
      if (user !== undefined && users.has(user))
        throw new ApiError(
          429,
          'VALIDATION_IN_PROGRESS',
          'One of your packages is being checked; send the next one after its answer',
          VALIDATION_RETRY_AFTER_S,
        )
      if (running >= o.workers && waiting.length >= o.queue)
        throw new ApiError(
          503,
          'VALIDATION_BUSY',
          'Too many packages are being checked; try again shortly',
          VALIDATION_RETRY_AFTER_S,
        )
      if (user !== undefined) users.add(user)
      try {
        if (running >= o.workers) await waitForWorker()
        running++
        try {
          const w = await spawn()
          if (closed) {
            void w.terminate()
            throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The server is shutting down; retry')
          }
          return await runOn(w, job)
        } finally {
          release()
        }
      } finally {
        if (user !== undefined) users.delete(user)
      }
    },
    async close() {
      closed = true
      await Promise.all([...all].map((w) => w.terminate()))
    },
  }
}
