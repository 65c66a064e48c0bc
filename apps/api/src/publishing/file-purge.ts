/**
 * The CDN purge hook (takedown): when files stop being public (a story unpublished or deleted, a
 * version deleted, the published version changed, an instruction no longer linked by a published story), the API
 * POSTs their public addresses to `FILES_PURGE_URL`:
 *
 *     {"urls": ["<FILES_URL or PUBLIC_URL/files>/packages/<sha256>.spkg", ...], "reason": "unpublished", "story": "<slug>"}
 *
 * with `Authorization: Bearer <FILES_PURGE_TOKEN>` when a token is set. Delivery is durable: a route takes a
 * {@link FilePurger.before} snapshot of the keys its records make public, changes the database, then
 * {@link FilePurger.after} writes the keys no longer public (by the files route's own rule, so a file another
 * published version names is not sent) to the `file_purges` outbox, right after the change commits. One loop per
 * instance delivers one row at a time (claimed with `for update skip locked` and a lease, so instances never send a
 * row at once), with a 10 s timeout, retried with exponential backoff; every failure is logged at error level and
 * counted (`spkg_file_purge_attempts_total`), the rows waiting and given up are a gauge (`spkg_file_purges`) and a
 * start-up log line. Without `FILES_PURGE_URL` nothing is computed, written or sent.
 */
import { and, asc, eq, inArray, isNull, lte, min, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { Counter, Gauge, type Registry } from 'prom-client'
import type { Db } from '../db/connection'
import { canReadFileFromDb } from '../db/file-access'
import { filePurges, stories, storyVersions } from '../db/schema'
import { fileUrl } from '../db/version-views'
import { type FileStorage, packageKey } from '../storage/create-storage'

/** Why files stopped being public (the body's `reason`). */
export type PurgeReason =
  | 'unpublished'
  | 'published-version-changed'
  | 'version-deleted'
  | 'story-deleted'
  | 'instruction-unlinked'

/** `FILES_PURGE_URL` and `FILES_PURGE_TOKEN`. */
export interface PurgeHookConfig {
  url: string
  token?: string | undefined
}

/** Options of {@link createFilePurger}. */
export interface FilePurgerOptions {
  db: Db
  storage: FileStorage
  /** Absolute address of the API (files are `<publicUrl>/files/<key>` unless the storage has `FILES_URL`). */
  publicUrl: string
  /** The hook; absent: the purger does nothing at all. */
  hook: PurgeHookConfig | undefined
  log: FastifyBaseLogger
  /** Where the metrics go (the app's registry). */
  registry?: Registry | undefined
  /** The clock of due times and leases (tests move it instead of waiting). @default Date.now */
  now?: () => number
  /** Wait before the first retry; doubled each time up to {@link maxDelayMs}. @default 5000 */
  baseDelayMs?: number
  /** @default 3_600_000 (an hour) */
  maxDelayMs?: number
  /** Attempts before a row is given up (kept, `given_up_at` set). @default 12 (waits of 5 s to an hour: about 2.5 hours) */
  maxAttempts?: number
  /** Timeout of one POST. @default 10_000 */
  timeoutMs?: number
  /** How often the loop looks for rows of other instances (and leases that ran out). @default 30_000 */
  pollMs?: number
}

/** What a route took before its change (keys its records made public), or undefined without a hook. */
export type PurgeSnapshot = ReadonlySet<string> | undefined

/** The purger of an app, `app.filePurge`. */
export interface FilePurger {
  /** Whether a hook is configured. */
  readonly enabled: boolean
  /** The keys the given records (stories and instruction records) make public now; undefined without a hook. */
  before(storyIds: ReadonlyArray<string | null | undefined>): Promise<PurgeSnapshot>
  /**
   * After the change committed: queues the addresses of the snapshot's keys that no longer are public. Never throws
   * (the change is done; a failure is logged at error level with the addresses, for a manual purge). Returns how many
   * addresses were queued.
   */
  after(snapshot: PurgeSnapshot, reason: PurgeReason, story: string): Promise<number>
  /** Queues addresses as they are (at most 100 a row); nothing without a hook. */
  enqueue(urls: readonly string[], reason: PurgeReason, story: string): Promise<void>
  /** Rows waiting for delivery and rows given up. */
  pending(): Promise<{ waiting: number; givenUp: number }>
  /** Delivers the rows due now, one at a time (what the loop runs); nothing once closed. */
  deliverDue(): Promise<void>
  /** Starts the loop (delivers what is due, then on its timer). */
  start(): void
  /** Stops the loop and aborts a delivery under way (its row is retried when its lease ends). */
  close(): Promise<void>
}

/** Addresses per outbox row (and per POST). */
export const PURGE_BATCH = 100
/** How long a claimed row is left to its instance before another may take it. */
const LEASE_MS = 60_000

/** The purger; without `hook` every method is a no-op (no query, no timer). */
export function createFilePurger(options: FilePurgerOptions): FilePurger {
  const { db, storage, publicUrl, hook, log } = options
  const now = options.now ?? Date.now
  const baseDelay = options.baseDelayMs ?? 5000
  const maxDelay = options.maxDelayMs ?? 3_600_000
  const maxAttempts = options.maxAttempts ?? 12
  const timeoutMs = options.timeoutMs ?? 10_000
  const pollMs = options.pollMs ?? 30_000
  const isPublic = canReadFileFromDb(db, { publicTtlMs: 0 })
  const urlOf = (key: string) => fileUrl(storage, publicUrl, key)

  let closed = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let inFlight: AbortController | undefined
  let again = false

  const attempts =
    hook && options.registry
      ? new Counter({
          name: 'spkg_file_purge_attempts_total',
          help: 'Deliveries of CDN purges to FILES_PURGE_URL, by result (delivered, failed: retried, given-up)',
          labelNames: ['result'] as const,
          registers: [options.registry],
        })
      : undefined
  if (hook && options.registry) {
    new Gauge({
      name: 'spkg_file_purges',
      help: 'CDN purges in the outbox (every instance), by state: waiting (to be retried) or given-up',
      labelNames: ['state'] as const,
      registers: [options.registry],
      async collect() {
        this.reset()
        try {
          const p = await pending()
          this.set({ state: 'waiting' }, p.waiting)
          this.set({ state: 'given-up' }, p.givenUp)
        } catch {
          // spkg_database_up says the database is down.
        }
      },
    })
  }

  async function pending() {
    const [row] = await db
      .select({
        waiting: sql<number>`count(*) filter (where ${filePurges.givenUpAt} is null)::int`,
        givenUp: sql<number>`count(*) filter (where ${filePurges.givenUpAt} is not null)::int`,
      })
      .from(filePurges)
    return { waiting: Number(row?.waiting ?? 0), givenUp: Number(row?.givenUp ?? 0) }
  }

  async function keysOfVersions(where: ReturnType<typeof eq>) {
    const rows = await db
      .select({ sha256: storyVersions.sha256, coverKey: storyVersions.coverKey })
      .from(storyVersions)
      .where(where)
    return rows.flatMap((r) => [packageKey(r.sha256), ...(r.coverKey ? [r.coverKey] : [])])
  }

  async function before(ids: ReadonlyArray<string | null | undefined>): Promise<PurgeSnapshot> {
    if (!hook) return undefined
    const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))]
    if (wanted.length === 0) return new Set()
    const rows = await db
      .select({
        id: stories.id,
        type: stories.type,
        owner: stories.ownerSub,
        published: stories.published,
        publishedVersionId: stories.publishedVersionId,
        instructionId: stories.instructionId,
      })
      .from(stories)
      .where(inArray(stories.id, wanted))
    const keys = new Set<string>()
    const instructions = new Set<string>()
    for (const r of rows) {
      if (r.type === 'instruction') instructions.add(r.id)
      else if (r.published) {
        if (r.publishedVersionId)
          for (const k of await keysOfVersions(eq(storyVersions.id, r.publishedVersionId))) keys.add(k)
        if (r.instructionId) instructions.add(r.instructionId)
      }
    }
    // Every version of an instruction a published story links is public (src/db/file-access.ts): take them all, and
    // let `after` keep what is still public (a link of another owner, or none, makes nothing public).
    for (const id of instructions)
      for (const k of await keysOfVersions(eq(storyVersions.storyId, id))) keys.add(k)
    return keys
  }

  async function enqueue(urls: readonly string[], reason: PurgeReason, story: string) {
    if (!hook || urls.length === 0) return
    const rows = []
    for (let i = 0; i < urls.length; i += PURGE_BATCH)
      rows.push({ reason, storySlug: story, urls: urls.slice(i, i + PURGE_BATCH), nextAt: new Date(now()) })
    await db.insert(filePurges).values(rows)
    kick()
  }

  async function after(snapshot: PurgeSnapshot, reason: PurgeReason, story: string) {
    if (!hook || !snapshot || snapshot.size === 0) return 0
    let urls: string[] = []
    try {
      for (const key of snapshot) if ((await isPublic(key, undefined)) !== 'public') urls.push(urlOf(key))
      urls = [...new Set(urls)]
      await enqueue(urls, reason, story)
      if (urls.length > 0) log.info({ story, reason, urls: urls.length }, 'purge: queued for FILES_PURGE_URL')
      return urls.length
    } catch (err) {
      attempts?.inc({ result: 'failed' })
      log.error(
        { err, story, reason, keys: [...snapshot].map(urlOf) },
        'purge: could not queue the CDN purge of files no longer public: purge these addresses by hand',
      )
      return 0
    }
  }

  /** Claims the oldest due row for this instance (a lease of {@link LEASE_MS}); undefined when none is due. */
  async function claim() {
    const due = db
      .select({ id: filePurges.id })
      .from(filePurges)
      .where(and(isNull(filePurges.givenUpAt), lte(filePurges.nextAt, new Date(now()))))
      .orderBy(asc(filePurges.id))
      .limit(1)
      .for('update', { skipLocked: true })
    const [row] = await db
      .update(filePurges)
      .set({ attempts: sql`${filePurges.attempts} + 1`, nextAt: new Date(now() + LEASE_MS) })
      .where(inArray(filePurges.id, due))
      .returning()
    return row
  }

  /** One POST; resolves with an error text, or undefined when the hook answered 2xx. */
  async function post(row: typeof filePurges.$inferSelect): Promise<string | undefined> {
    if (!hook) return 'no hook'
    const controller = new AbortController()
    inFlight = controller
    const timeout = setTimeout(() => controller.abort(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs)
    timeout.unref()
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(hook.token && { authorization: `Bearer ${hook.token}` }),
        },
        body: JSON.stringify({ urls: row.urls, reason: row.reason, story: row.storySlug }),
        signal: controller.signal,
        redirect: 'error',
      })
      // The answer's body is not read (a hook's page could be anything).
      await res.body?.cancel().catch(() => {})
      return res.ok ? undefined : `HTTP ${res.status}`
    } catch (err) {
      if (closed) throw err
      const cause = controller.signal.aborted ? controller.signal.reason : err
      return cause instanceof Error ? cause.message : String(cause)
    } finally {
      clearTimeout(timeout)
      inFlight = undefined
    }
  }

  async function deliverOne(): Promise<boolean> {
    const row = await claim()
    if (!row) return false
    const error = await post(row)
    if (error === undefined) {
      await db.delete(filePurges).where(eq(filePurges.id, row.id))
      attempts?.inc({ result: 'delivered' })
      log.info(
        { story: row.storySlug, reason: row.reason, urls: (row.urls as string[]).length },
        'purge: delivered',
      )
      return true
    }
    const text = error.slice(0, 500)
    if (row.attempts >= maxAttempts) {
      await db
        .update(filePurges)
        .set({ givenUpAt: new Date(now()), lastError: text })
        .where(eq(filePurges.id, row.id))
      attempts?.inc({ result: 'given-up' })
      log.error(
        { story: row.storySlug, reason: row.reason, attempts: row.attempts, error: text, urls: row.urls },
        'purge: FILES_PURGE_URL failed every attempt; given up: purge these addresses by hand (docs/operating.md)',
      )
    } else {
      const delay = Math.min(maxDelay, baseDelay * 2 ** (row.attempts - 1))
      await db
        .update(filePurges)
        .set({ nextAt: new Date(now() + delay), lastError: text })
        .where(eq(filePurges.id, row.id))
      attempts?.inc({ result: 'failed' })
      log.error(
        { story: row.storySlug, reason: row.reason, attempts: row.attempts, error: text, retryInMs: delay },
        'purge: FILES_PURGE_URL failed; retried',
      )
    }
    return true
  }

  /** When the next row is due (ms from now), at most {@link pollMs}. */
  async function nextWait(): Promise<number> {
    const [row] = await db
      .select({ at: min(filePurges.nextAt) })
      .from(filePurges)
      .where(isNull(filePurges.givenUpAt))
    if (!row?.at) return pollMs
    return Math.max(0, Math.min(pollMs, new Date(row.at).getTime() - now()))
  }

  async function pass() {
    try {
      while (!closed && (await deliverOne())) {}
      if (!closed) schedule(await nextWait())
    } catch (err) {
      if (closed) return
      attempts?.inc({ result: 'failed' })
      log.error({ err }, 'purge: the outbox could not be read or updated; retried')
      schedule(pollMs)
    }
  }

  /** One pass at a time; a call during a pass makes it run once more (rows queued meanwhile). */
  function run(): Promise<void> {
    if (closed) return Promise.resolve()
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        await pass()
      } while (again && !closed)
    })().finally(() => {
      running = undefined
    })
    return running
  }

  function schedule(ms: number) {
    if (closed) return
    clearTimeout(timer)
    timer = setTimeout(() => void run(), ms)
    timer.unref()
  }

  function kick() {
    schedule(0)
  }

  return {
    enabled: hook !== undefined,
    before,
    after,
    enqueue,
    pending: () => (hook ? pending() : Promise.resolve({ waiting: 0, givenUp: 0 })),
    deliverDue: () => (hook ? run() : Promise.resolve()),
    start() {
      if (!hook || closed) return
      void pending()
        .then((p) => {
          if (p.waiting || p.givenUp)
            log.warn(
              { waiting: p.waiting, givenUp: p.givenUp },
              'purge: CDN purges in the outbox (file_purges); given-up rows need a manual purge',
            )
        })
        .catch(() => {})
      kick()
    },
    async close() {
      closed = true
      clearTimeout(timer)
      inFlight?.abort(new Error('closing'))
      await running?.catch(() => {})
    },
  }
}
