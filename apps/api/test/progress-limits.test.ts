/**
 * Reading-state limits: size and value caps checked before parsing, one linear
 * validation, the stored text sent back without re-validation, and the per-user quota (count and bytes).
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { PROGRESS_QUOTA } from '../src/db/progress'
import {
  READING_STATE_MAX_BYTES,
  READING_STATE_MAX_MEMBERS,
  READING_STATE_MAX_VALUES,
} from '../src/routes/progress/progress-routes'
import { bearer, useTestApp } from './helpers/app'
import {
  emptyArraysState,
  emptyGroupsState,
  manyVariablesState,
  minimalState,
  realLikeState,
} from './helpers/reading-states'

const t = useTestApp()

const base = minimalState

/**
 * `text`, a state of story `story` as the helpers make it, as a state of story `id`: the API saves a state only
 * under its own story's key (400 READING_STATE_OTHER_STORY otherwise).
 */
const ofStory = (id: string, text: string) =>
  text.replace(/^(\s*\{\s*"format":\s*1,\s*"id":\s*)"story"/, `$1${JSON.stringify(id)}`)

/** Saves `payload` at `/api/progress/<storyId>`, as a state of that story (see {@link ofStory}). */
const put = (storyId: string, payload: string, who = 'limits-user') =>
  t.app.inject({
    method: 'PUT',
    url: `/api/progress/${storyId}`,
    headers: { ...bearer(who, 'reader'), 'content-type': 'application/json' },
    payload: ofStory(storyId, payload),
  })

describe('reading-state caps', () => {
  it('accepts a state shaped like the largest real one', async () => {
    const body = realLikeState()
    expect(body.length).toBeGreaterThan(400_000)
    const res = await put('real', body)
    expect(res.statusCode).toBe(201)
    const back = await t.app.inject({ url: '/api/progress/real', headers: bearer('limits-user', 'reader') })
    expect(back.statusCode).toBe(200)
    expect(back.json()).toEqual({ ...JSON.parse(body), id: 'real' })
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/progress/real',
      headers: bearer('limits-user', 'reader'),
    })
    expect(head.statusCode).toBe(200)
    expect(head.headers.etag).toBe('"1"')
  })

  it('refuses the 1 MB body of 350,000 empty arrays (413) and more values than the cap (413) before parsing', async () => {
    const big = await put('big', emptyArraysState(350_000))
    expect(big.statusCode).toBe(413)
    expect(big.json()).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: `Request body is too large (${READING_STATE_MAX_BYTES / 1024} KiB maximum)`,
    })
    const many = emptyArraysState(READING_STATE_MAX_VALUES + 1)
    expect(many.length).toBeLessThan(READING_STATE_MAX_BYTES)
    const res = await put('many', many)
    expect(res.statusCode).toBe(413)
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE')
    expect((await put('many', emptyArraysState(READING_STATE_MAX_VALUES))).statusCode).toBe(201)
    const wide = await put('wide', manyVariablesState(READING_STATE_MAX_MEMBERS))
    expect(wide.statusCode).toBe(413)
    expect(wide.json().message).toBe(
      `body: more than ${READING_STATE_MAX_MEMBERS.toLocaleString('en')} object members (keys)`,
    )
  })

  it('validates in one linear pass: an invalid body at the cap costs little CPU', async () => {
    // Zod took 0.5-0.8 s of CPU for 350,000 values and more for an invalid body; this is ~120,000 values.
    // Worst for a validator that reports every issue: ~12,400 choice groups (the most keys allowed) with no choice, one issue each.
    const body = emptyGroupsState(12_400)
    expect(body.length).toBeLessThan(READING_STATE_MAX_BYTES)
    await put('warm', body)
    const before = process.cpuUsage()
    const res = await put('invalid', body)
    const cpu = process.cpuUsage(before)
    // ~17 ms here; the zod schema listing every issue: ~155 ms (same machine, 2 shared cores).
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(100)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('body.choices.g0: must be a non-empty array of strings')
  })

  it('names the broken field of a collection', async () => {
    const cases: Array<[Partial<typeof base>, string]> = [
      [
        { choices: { g: [] }, visitedChoiceGroups: ['g'] },
        'body.choices.g: must be a non-empty array of strings',
      ],
      [{ visitedChoiceGroups: [1 as never] }, 'body.visitedChoiceGroups: must be an array of strings'],
      [{ visitedParts: [''] }, 'body.visitedParts: must be an array of non-empty strings'],
      [{ rng: { algorithm: 'xorshift' } as never }, 'body.rng.algorithm'],
    ]
    for (const [extra, message] of cases) {
      const res = await put('bad', JSON.stringify({ ...base, ...extra }))
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toContain(message)
    }
    const huge = await put(
      'bad',
      JSON.stringify({ ...base }).replace('"variables":{}', '"variables":{"x":1e400}'),
    )
    expect(huge.statusCode).toBe(400)
    expect(huge.json().message).toBe('body.variables: numbers must be finite')
  })

  it('stores the text as sent, or without the fields validation drops', async () => {
    const who = bearer('limits-user', 'reader')
    const sent = ` ${JSON.stringify({ ...base, id: 'verbatim' }, null, 1)}`
    expect((await put('verbatim', sent)).statusCode).toBe(201)
    expect((await t.app.inject({ url: '/api/progress/verbatim', headers: who })).body).toBe(sent)
    const extra = JSON.stringify({ ...base, extra: 'x'.repeat(100), rng: { ...base.rng, more: 1 } })
    expect((await put('extra', extra)).statusCode).toBe(201)
    expect((await t.app.inject({ url: '/api/progress/extra', headers: who })).json()).toEqual({
      ...base,
      id: 'extra',
    })
  })

  it('sends the stored state as stored: never re-validated on the way out', async () => {
    await t.tdb.db.execute(
      sql`insert into reading_progress (user_sub, story_id, state) values ('limits-user', 'legacy', '{"format":1,"odd":true}')`,
    )
    const res = await t.app.inject({ url: '/api/progress/legacy', headers: bearer('limits-user', 'reader') })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ format: 1, odd: true })
  })
})

describe('per-user quota', () => {
  it(`refuses a state beyond ${PROGRESS_QUOTA.states} per user (409), still updates the saved ones`, async () => {
    const who = 'quota-count'
    await t.tdb.db.execute(
      sql`insert into reading_progress (user_sub, story_id, state, state_bytes)
          select ${who}, 'filled-' || g, '{}', 2 from generate_series(1, ${PROGRESS_QUOTA.states}) g`,
    )
    const res = await put('one-more', JSON.stringify(base), who)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'READING_STATE_QUOTA' })
    expect(res.json().message).toContain(`${PROGRESS_QUOTA.states} saved reading states`)
    const update = await t.app.inject({
      method: 'PUT',
      url: '/api/progress/filled-1',
      headers: { ...bearer(who, 'reader'), 'content-type': 'application/json', 'if-match': '"1"' },
      payload: JSON.stringify({ ...base, id: 'filled-1' }),
    })
    expect(update.statusCode).toBe(200)
    expect((await put('other-user', JSON.stringify(base), 'quota-other')).statusCode).toBe(201)
  })

  it('refuses a state that would take the user over the byte quota (409)', async () => {
    const who = 'quota-bytes'
    await t.tdb.db.execute(
      sql`insert into reading_progress (user_sub, story_id, state, state_bytes)
          values (${who}, 'heavy', '{}', ${PROGRESS_QUOTA.bytes - 100})`,
    )
    const res = await put('next', JSON.stringify(base), who)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'READING_STATE_QUOTA' })
    expect(res.json().message).toContain('16 MiB')
    await t.app.inject({ method: 'DELETE', url: '/api/progress/heavy', headers: bearer(who, 'reader') })
    expect((await put('next', JSON.stringify(base), who)).statusCode).toBe(201)
  })

  it('counts concurrent first saves exactly (per-user lock)', async () => {
    const who = 'quota-race'
    await t.tdb.db.execute(
      sql`insert into reading_progress (user_sub, story_id, state, state_bytes)
          select ${who}, 'filled-' || g, '{}', 2 from generate_series(1, ${PROGRESS_QUOTA.states - 3}) g`,
    )
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => put(`race-${i}`, JSON.stringify(base), who)),
    )
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3)
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7)
  })
})
