/**
 * The validation pool with real worker threads (test/helpers/misbehaving-worker.mjs) whose replies misbehave: a
 * reply the main thread cannot deserialise or of the wrong shape fails the job at once and frees its place; one
 * user never holds two places.
 */
import { describe, expect, it } from 'vitest'
import { createValidationPool, VALIDATION_RETRY_AFTER_S } from '../../src/publishing/validation-pool'

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
