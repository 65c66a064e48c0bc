/**
 * Whole-folder checks off the server's thread. `checkStory` of a large folder takes long (about
 * 0.2-1.5 s for the 2,000-section bench story in 40 parts), and it cannot be interrupted; run on
 * the server's thread, every keystroke and request arriving meanwhile waited for it. Here it runs
 * in a worker thread (`check-worker.ts`), one check at a time; a folder changed while its check
 * runs is checked once more when that check ends (the newest text wins, stale results are dropped
 * by the caller). Where no worker can start (a runtime without worker threads, a bundle without
 * the worker file), the check runs on the calling thread as before.
 */
import { Worker } from 'node:worker_threads'
import type { Diagnostic } from '@spkg/manifest'
import type { CheckStoryInput } from '@spkg/story'
import { checkWithLangHint, type LangHint } from '../analysis/lang-hint.ts'

/**
 * The worker: `check-worker.js` beside this module once built. From the sources (tests, the
 * benchmark, `--import tsx`), `check-worker.ts` through tsx's loader, which a worker thread does
 * not inherit; the `@spkg/source` condition comes with the inherited process options.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./check-worker.js', import.meta.url))
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'))
  const file = JSON.stringify(new URL('./check-worker.ts', import.meta.url).href)
  return new Worker(`import(${tsx}).then((t) => { t.register(); return import(${file}) })`, { eval: true })
}

interface Pending {
  input: CheckStoryInput
  hint: LangHint | undefined
  resolve: (found: Diagnostic[]) => void
  reject: (e: Error) => void
}

/** Runs `checkStory` in a worker thread, in the order asked. */
export class BackgroundChecker {
  private worker: Worker | undefined
  private failed = false
  private nextId = 0
  private readonly pending = new Map<number, Pending>()

  constructor(private readonly onError: (message: string) => void = () => {}) {}

  /** The diagnostics of `checkStory(input)` ({@link checkWithLangHint} with `hint`), computed in the worker. */
  check(input: CheckStoryInput, hint?: LangHint): Promise<Diagnostic[]> {
    const worker = this.failed ? undefined : this.start()
    if (!worker) return new Promise((resolve) => resolve(checkWithLangHint(input, hint)))
    return new Promise((resolve, reject) => {
      const id = this.nextId++
      this.pending.set(id, { input, hint, resolve, reject })
      worker.postMessage({ id, input, hint })
    })
  }

  /** Stops the worker; checks not finished are dropped (the server is shutting down). */
  dispose(): void {
    this.failed = true
    this.pending.clear()
    void this.worker?.terminate()
    this.worker = undefined
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker
    try {
      const worker = startWorker()
      worker.unref()
      worker.on('message', (m: { id: number; found?: Diagnostic[]; error?: string }) => {
        const p = this.pending.get(m.id)
        if (!p) return
        this.pending.delete(m.id)
        if (m.found) p.resolve(m.found)
        else p.reject(new Error(m.error ?? 'check failed'))
      })
      worker.on('error', (e) => {
        this.onError(`spkg: the check worker failed (${e.message}); checking on the main thread`)
        this.lost(worker)
      })
      worker.on('exit', () => this.lost(worker))
      this.worker = worker
      return worker
    } catch (e) {
      this.onError(`spkg: no check worker (${(e as Error).message}); checking on the main thread`)
      this.failed = true
      return undefined
    }
  }

  /** The worker is gone unasked: what was sent to it, and every later check, run on this thread. */
  private lost(worker: Worker): void {
    if (this.worker !== worker) return
    this.worker = undefined
    this.failed = true
    const left = [...this.pending.values()]
    this.pending.clear()
    for (const p of left) {
      try {
        p.resolve(checkWithLangHint(p.input, p.hint))
      } catch (e) {
        p.reject(e as Error)
      }
    }
  }
}
