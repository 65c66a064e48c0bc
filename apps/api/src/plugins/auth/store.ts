/**
 * Auth sessions and auth events in the database (tables `auth_sessions` and `auth_events` of the API schema).
 *
 * Plain SQL through drizzle's `sql` tag so the same code runs on postgres-js and PGlite (whose `execute` results
 * differ: an array vs `{ rows }`). Nothing personal is stored: the session key is a SHA-256 of issuer, `sub` and the
 * token's `sid` (or token family), event details carry reason codes only (no IP, no user agent, no `sub`).
 */
import { createHash } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'

/** Anything that can run a drizzle `sql` query (a drizzle database or transaction). */
export interface SqlExecutor {
  execute(query: SQL): PromiseLike<unknown>
}

/** The database handle the auth plugin needs: a drizzle PostgreSQL database (postgres-js or PGlite). */
export interface AuthDb extends SqlExecutor {
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>
}

/** The kinds of auth events the platform records. */
export type AuthEventKind =
  | 'session_created'
  | 'session_revoked'
  | 'token_refused'
  | 'profile_changed'
  | (string & {})

/** One session as listed to its owner. */
export interface SessionRow {
  id: string
  createdAt: string
  lastSeenAt: string
  revokedAt: string | null
}

/** One auth event as listed by `GET /api/auth/events`. */
export interface AuthEventRow {
  id: number
  kind: string
  sessionId: string | null
  createdAt: string
  detail: Record<string, unknown>
}

/** Rows of a raw query, whichever driver ran it. */
export async function rowsOf<T>(db: SqlExecutor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as T[] | { rows: T[] }
  return Array.isArray(result) ? result : result.rows
}

const isoOf = (v: unknown): string =>
  v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString()
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : isoOf(v))
const epochMsOrNull = (v: unknown): number | null =>
  v === null || v === undefined ? null : Date.parse(isoOf(v))

/**
 * Whether a revocation of this token's session refuses only the tokens issued up to it (`iat` <= revoked at). True
 * for tokens that carry neither `sid` nor `auth_time` (the development provider's, many providers' access tokens):
 * all of a user's logins through one client share one session key, so a revocation that refused later tokens too
 * would lock the user out for good. A token with `sid` or `auth_time` names one login: later tokens of a revoked
 * one are refreshes of that login, and stay refused.
 */
export function revokesByIssueTime(payload: Record<string, unknown>): boolean {
  return !hasSid(payload) && (payload.auth_time === undefined || payload.auth_time === null)
}

const hasSid = (payload: Record<string, unknown>) =>
  typeof payload.sid === 'string' && payload.sid.length <= 500

/**
 * The stored session key of a token: SHA-256 over issuer, `sub` and the session claim (`sid`), or the token family
 * (`azp`/`client_id` plus `auth_time`) when the token carries no `sid`.
 */
export function sessionKey(issuer: string, payload: Record<string, unknown>): string {
  const sid = hasSid(payload) ? `sid:${String(payload.sid)}` : undefined
  const client = payload.azp ?? payload.client_id ?? ''
  const family = `family:${typeof client === 'string' ? client : ''}:${String(payload.auth_time ?? '')}`
  return createHash('sha256')
    .update(`${issuer}\n${String(payload.sub)}\n${sid ?? family}`)
    .digest('hex')
}

/**
 * Inserts the session if new, else refreshes `last_seen_at`; returns its id, whether it was created and its
 * revocation time (epoch ms, or null).
 */
export async function touchSession(
  db: SqlExecutor,
  sub: string,
  key: string,
): Promise<{ id: string; created: boolean; revokedAt: number | null }> {
  const [row] = await rowsOf<{ id: string; inserted: boolean; revoked_at: unknown }>(
    db,
    sql`insert into auth_sessions (sub, sid) values (${sub}, ${key})
        on conflict (sid) do update set last_seen_at = now()
        returning id, revoked_at, (xmax = 0) as inserted`,
  )
  if (!row) throw new Error('session upsert returned no row')
  return { id: row.id, created: row.inserted === true, revokedAt: epochMsOrNull(row.revoked_at) }
}

/** The sessions of one `sub`, most recently seen first (at most 100). */
export async function listSessions(db: SqlExecutor, sub: string): Promise<SessionRow[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    db,
    sql`select id, created_at, last_seen_at, revoked_at from auth_sessions
        where sub = ${sub} order by last_seen_at desc limit 100`,
  )
  return rows.map((r) => ({
    id: String(r.id),
    createdAt: isoOf(r.created_at),
    lastSeenAt: isoOf(r.last_seen_at),
    revokedAt: isoOrNull(r.revoked_at),
  }))
}

/** The owner `sub` of a session, or undefined when there is no such session. */
export async function sessionOwner(db: SqlExecutor, id: string): Promise<string | undefined> {
  const [row] = await rowsOf<{ sub: string }>(db, sql`select sub from auth_sessions where id = ${id}`)
  return row?.sub
}

/**
 * Marks a session revoked now and returns that time (epoch ms). Revoking again moves the time forward: for a
 * session revoked by issue time ({@link revokesByIssueTime}) the tokens issued since the last revocation are
 * refused too.
 */
export async function revokeSession(db: SqlExecutor, id: string): Promise<number> {
  const [row] = await rowsOf<{ revoked_at: unknown }>(
    db,
    sql`update auth_sessions set revoked_at = now() where id = ${id} returning revoked_at`,
  )
  return epochMsOrNull(row?.revoked_at) ?? Date.now()
}

/** Appends an auth event; `detail` must hold no personal data. */
export async function insertAuthEvent(
  db: SqlExecutor,
  kind: AuthEventKind,
  sessionId: string | null,
  detail: Record<string, unknown>,
): Promise<void> {
  await db.execute(
    sql`insert into auth_events (kind, session_id, detail) values (${kind}, ${sessionId}, ${JSON.stringify(detail)}::jsonb)`,
  )
}

/**
 * A page of auth events, newest first, with the total count: all of them, or with `subject` those of that `sub`'s
 * sessions (events carry no `sub`: they are tied to a user through their session).
 */
export async function listAuthEvents(
  db: SqlExecutor,
  limit: number,
  offset: number,
  subject?: string,
): Promise<{ events: AuthEventRow[]; total: number }> {
  const where =
    subject === undefined
      ? sql``
      : sql`where session_id in (select id from auth_sessions where sub = ${subject})`
  const rows = await rowsOf<Record<string, unknown>>(
    db,
    sql`select id, kind, session_id, created_at, detail from auth_events ${where}
        order by created_at desc, id desc limit ${limit} offset ${offset}`,
  )
  const [count] = await rowsOf<{ n: unknown }>(db, sql`select count(*)::int as n from auth_events ${where}`)
  return {
    total: Number(count?.n ?? 0),
    events: rows.map((r) => ({
      id: Number(r.id),
      kind: String(r.kind),
      sessionId: r.session_id === null ? null : String(r.session_id),
      createdAt: isoOf(r.created_at),
      detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>,
    })),
  }
}

/**
 * Deletes auth events older than `days` (at most 5,000 per call). Every instance may run it: a transaction-scoped
 * advisory lock lets one of them do the work; the others return 0.
 *
 * @returns the number of deleted events
 */
export async function purgeAuthEvents(db: AuthDb, days: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await rowsOf<{ ok: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(hashtext('spkg:auth_events_retention')) as ok`,
    )
    if (!lock?.ok) return 0
    const deleted = await rowsOf<{ id: unknown }>(
      tx,
      sql`delete from auth_events where id in (select id from auth_events
          where created_at < now() - make_interval(days => ${days}) limit 5000) returning id`,
    )
    return deleted.length
  })
}
