/**
 * Publishing limits: the per-user storage quota (413), the upload rate (429), the validation pool's memory
 * and time budgets, a chunked body over the package limit, and an upload interrupted mid-body (nothing left).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { createValidationPool } from '../../src/publishing/validation-pool'
import { bearer, filesIn, storyPackage, upload, usePublishingApp } from '../helpers/publishing'

describe('the per-user quota and the package limit', () => {
  const one = storyPackage()
  const t = usePublishingApp(
    { settings: { quotaBytes: Math.floor(one.length * 1.5), maxPackageBytes: 64 * 1024 } },
    'quota-inn',
  )

  /** An upload to quota-inn over a real connection (the app listening), with these body headers. */
  const rawUpload = (headers: Record<string, string>, onResponse?: (res: IncomingMessage) => void) =>
    httpRequest(
      {
        host: '127.0.0.1',
        port: (t.app.server.address() as AddressInfo).port,
        method: 'POST',
        path: '/api/stories/quota-inn/versions',
        headers: { ...bearer('alice', 'creator'), 'content-type': 'application/vnd.spkg+zip', ...headers },
      },
      onResponse,
    )

  it('refuses an upload over the quota with 413 STORAGE_QUOTA_EXCEEDED and keeps no file', async () => {
    expect((await upload(t.app, 'quota-inn', one)).statusCode).toBe(201)
    const res = await upload(t.app, 'quota-inn', storyPackage({ version: '2.0.0' }))
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' })
    expect(await filesIn(`${t.filesDir}/packages`)).toHaveLength(1)
  })

  it('cuts a chunked body off at the package limit (413 PACKAGE_TOO_LARGE), leaving no temporary file', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const status = await new Promise<number>((resolve, reject) => {
      const req = rawUpload({ 'transfer-encoding': 'chunked' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      const chunk = Buffer.alloc(16 * 1024, 1)
      for (let i = 0; i < 8; i++) req.write(chunk)
      req.end()
    })
    expect(status).toBe(413)
    expect(await filesIn(t.uploadsDir)).toEqual([])
  })

  it('leaves nothing behind when the client goes away mid-body', async () => {
    const before = await filesIn(`${t.filesDir}/packages`)
    await new Promise<void>((resolve) => {
      const req = rawUpload({ 'content-length': '50000' })
      req.on('error', () => resolve())
      req.write(Buffer.alloc(10_000, 7), () => {
        req.destroy()
        resolve()
      })
    })
    // The server notices the closed connection on its own schedule: poll, bounded.
    await vi.waitFor(async () => expect(await filesIn(t.uploadsDir)).toEqual([]), {
      timeout: 5000,
      interval: 20,
    })
    expect(await filesIn(`${t.filesDir}/packages`)).toEqual(before)
    const list = await t.app.inject({ url: '/api/stories/quota-inn/versions', headers: bearer('alice') })
    expect(list.json().items).toHaveLength(1)
  })
})

describe('the upload rate limit', () => {
  const t = usePublishingApp({ throttle: true, settings: { uploadsPerHour: 2 } }, 'rate-inn')

  it('answers 429 with Retry-After past UPLOADS_PER_HOUR', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const answers = []
      for (let i = 0; i < 3; i++) {
        answers.push(await upload(t.app, 'rate-inn', storyPackage({ version: `${i}.0.0` })))
        vi.advanceTimersByTime(1100)
      }
      expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 429])
      expect(Number(answers[2]?.headers['retry-after'])).toBeGreaterThan(0)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('the validation pool', () => {
  const pkg = async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const dir = await mkdtemp(`${tmpdir()}/spkg-pool-`)
    await writeFile(`${dir}/p.spkg`, storyPackage())
    return `${dir}/p.spkg`
  }

  it.each([
    ['the pre-bundled worker', true],
    ['the TypeScript sources through tsx (fallback)', false],
  ])('validates in a worker thread: %s', async (_name, bundle) => {
    const pool = createValidationPool({ workers: 1, bundle })
    try {
      const out = await pool.validate({ file: await pkg(), trustedKeys: [], coverTypes: ['svg'] })
      expect(out).toMatchObject({
        loads: true,
        valid: true,
        type: 'story',
        signature: { status: 'unsigned' },
      })
      expect(out.cover?.ext).toBe('svg')
      expect(Object.keys(out.integrity)).toContain('story/0001-inn.sty')
    } finally {
      await pool.close()
    }
  })

  it.each([
    ['VALIDATION_MEMORY_EXCEEDED', 'when the worker runs out of its heap', { memoryMb: 2 }],
    ['VALIDATION_TIMEOUT', 'past the time budget', { timeoutMs: 1 }],
  ])('refuses with %s %s', async (code, _when, budget) => {
    const pool = createValidationPool({ workers: 1, ...budget })
    try {
      await expect(
        pool.validate({ file: await pkg(), trustedKeys: [], coverTypes: [] }),
      ).rejects.toMatchObject({ statusCode: 422, code })
    } finally {
      await pool.close()
    }
  })

  it('refuses at once (503 VALIDATION_BUSY) when the queue is full', async () => {
    const pool = createValidationPool({ workers: 1, queue: 0 })
    try {
      const file = await pkg()
      const first = pool.validate({ file, trustedKeys: [], coverTypes: [] })
      await expect(pool.validate({ file, trustedKeys: [], coverTypes: [] })).rejects.toMatchObject({
        statusCode: 503,
        code: 'VALIDATION_BUSY',
      })
      await first
    } finally {
      await pool.close()
    }
  })
})
