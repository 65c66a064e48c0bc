/**
 * The validation pool with real worker threads (test/helpers/misbehaving-worker.mjs) whose replies misbehave: a
 * reply the main thread cannot deserialise or of the wrong shape fails the job at once and frees its place; one
 * user never holds two places. And the upload route with the real worker and such a manifest.
 */
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { createValidationPool, VALIDATION_RETRY_AFTER_S } from '../../src/publishing/validation-pool'
import { storyPackage, upload, usePublishingApp } from '../helpers/publishing'

const worker = new URL('../helpers/misbehaving-worker.mjs', import.meta.url)
const job = (file: string, user?: string) => ({
  file,
  trustedKeys: [],
  coverTypes: [],
  ...(user !== undefined && { user }),
})

describe('a reply the pool cannot read', () => {
  it.each([
    ['cannot be deserialised (messageerror)', 'deep'],
    ['is not of the reply shape', 'shape'],
  ])('fails at once with 422 VALIDATION_UNREADABLE when it %s, and frees the place', async (_name, file) => {
    // The time budget is far above what the test may take: the job must fail on the reply, not on the budget.
    const pool = createValidationPool({ workers: 1, queue: 0, timeoutMs: 600_000, worker })
    try {
      await expect(pool.validate(job(file, 'alice'))).rejects.toMatchObject({
        statusCode: 422,
        code: 'VALIDATION_UNREADABLE',
      })
      expect(pool.load).toEqual({ running: 0, waiting: 0, users: 0 })
      // The place is free (queue 0: a place still held would be 503) and the same user may send the next one.
      await expect(pool.validate(job('ok', 'alice'))).resolves.toMatchObject({ valid: true })
    } finally {
      await pool.close()
    }
  })
})

describe('one place per user', () => {
  it('refuses a second job of the same user at once with 429 VALIDATION_IN_PROGRESS, not another place', async () => {
    const pool = createValidationPool({ workers: 2, queue: 4, timeoutMs: 600_000, worker })
    try {
      const first = pool.validate(job('hang', 'alice'))
      first.catch(() => {})
      for (let i = 0; i < 3; i++)
        await expect(pool.validate(job('ok', 'alice'))).rejects.toMatchObject({
          statusCode: 429,
          code: 'VALIDATION_IN_PROGRESS',
          retryAfterS: VALIDATION_RETRY_AFTER_S,
        })
      expect(pool.load).toMatchObject({ users: 1 })
      // Another creator still gets the second worker.
      await expect(pool.validate(job('ok', 'bob'))).resolves.toMatchObject({ valid: true })
    } finally {
      await pool.close()
    }
  })

  it('counts a waiting job as the user’s place too', async () => {
    const pool = createValidationPool({ workers: 1, queue: 4, timeoutMs: 600_000, worker })
    try {
      const running = pool.validate(job('hang', 'bob'))
      running.catch(() => {})
      const waiting = pool.validate(job('ok', 'alice'))
      waiting.catch(() => {})
      expect(pool.load).toEqual({ running: 1, waiting: 1, users: 2 })
      await expect(pool.validate(job('ok', 'alice'))).rejects.toMatchObject({
        code: 'VALIDATION_IN_PROGRESS',
      })
      expect(pool.load).toEqual({ running: 1, waiting: 1, users: 2 })
    } finally {
      await pool.close()
    }
  })

  it('lets jobs without a user (the start-up seed) run side by side', async () => {
    const pool = createValidationPool({ workers: 2, timeoutMs: 600_000, worker })
    try {
      const out = await Promise.all([pool.validate(job('ok')), pool.validate(job('ok'))])
      expect(out.map((o) => o.valid)).toEqual([true, true])
    } finally {
      await pool.close()
    }
  })
})

describe('the wait for a place', () => {
  it('refuses a job that waited VALIDATION_QUEUE_WAIT_MS with 503 VALIDATION_BUSY and Retry-After', async () => {
    // Bounded, so that an upload is answered within the wait and the validation budget, which the connection
    // timeout covers (config.ts): an unbounded wait behind 8 queued jobs outlasted the connection.
    const pool = createValidationPool({ workers: 1, queue: 4, queueWaitMs: 50, timeoutMs: 600_000, worker })
    try {
      const running = pool.validate(job('hang', 'bob'))
      running.catch(() => {})
      await expect(pool.validate(job('ok', 'alice'))).rejects.toMatchObject({
        statusCode: 503,
        code: 'VALIDATION_BUSY',
        retryAfterS: VALIDATION_RETRY_AFTER_S,
      })
      expect(pool.load).toEqual({ running: 1, waiting: 0, users: 1 })
    } finally {
      await pool.close()
    }
  })
})

describe('an upload whose valid manifest has a field nested 5,000 deep (a few hundred bytes)', () => {
  // A time budget far above the test's own: the answer must not wait for it.
  const t = usePublishingApp({ settings: { timeoutMs: 600_000, workers: 1, queue: 0 } }, 'deep-inn')

  it('is answered 422 at once and leaves the pool free', async () => {
    const base = JSON.stringify({
      id: '6f1c2b9e-3a4d-4e5f-8a7b-1c2d3e4f5a6b',
      title: 'The Inn',
      version: '1.0.0',
      description: 'A road.',
      language: 'en',
      genre: 'fantasy',
      tags: [],
    })
    const manifest = `${base.slice(0, -1)},"extra":${'{"a":'.repeat(5000)}0${'}'.repeat(5000)}}`
    const bytes = buildPackage({ manifest, parts: { 'story/0001-inn.sty': '# Inn\n\nDawn.\n' } })
    const res = await upload(t.app, 'deep-inn', bytes)
    expect(res.statusCode).toBe(422)
    // VALIDATION_UNREADABLE from the pool; PACKAGE_INVALID once the manifest's nesting is bounded before the pool.
    expect(['VALIDATION_UNREADABLE', 'PACKAGE_INVALID']).toContain(res.json().code)
    expect(t.app.publishing.pool.load).toEqual({ running: 0, waiting: 0, users: 0 })
    expect((await upload(t.app, 'deep-inn', storyPackage())).statusCode).toBe(201)
  })
})
