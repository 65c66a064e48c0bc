/**
 * An upload whose client is gone is not committed: a real HTTP client sends a whole package, then
 * closes the connection while the package waits for its validation (a pool that holds the first job until the test
 * lets it go, then validates it for real). Nothing is stored, and the client's retry is a 201, not 409
 * VERSION_EXISTS for a version committed for nobody.
 */
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { createValidationPool, type ValidationPool } from '../../src/publishing/validation-pool'
import { bearer, filesIn, storyPackage, upload, usePublishingApp } from '../helpers/publishing'

/** The real pool; its first job waits for `release()`, and `entered` resolves when that job has arrived. */
function holdingPool() {
  const real = createValidationPool({ workers: 1 })
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  let entered!: () => void
  const arrived = new Promise<void>((r) => {
    entered = r
  })
  let calls = 0
  const pool: ValidationPool = {
    async validate(job) {
      if (calls++ === 0) {
        entered()
        await gate
      }
      return real.validate(job)
    },
    get load() {
      return real.load
    },
    close: () => real.close(),
  }
  return { pool, release, arrived }
}

const held = holdingPool()
const t = usePublishingApp({ pool: held.pool }, 'gone-inn')
beforeAll(() => t.app.listen({ host: '127.0.0.1', port: 0 }))

const connections = () =>
  new Promise<number>((resolve, reject) =>
    t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  )

it('commits nothing when the client disconnects while its upload waits for validation; the retry is 201', async () => {
  const bytes = Buffer.from(storyPackage({ version: '1.0.0' }))
  const { port } = t.app.server.address() as AddressInfo
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/stories/gone-inn/versions',
    headers: {
      ...bearer('alice', 'creator'),
      'content-type': 'application/vnd.spkg+zip',
      'content-length': String(bytes.length),
    },
  })
  req.on('error', () => {}) // destroyed below
  req.end(bytes)
  await held.arrived // the whole body was received; the package waits for a worker
  req.destroy()
  await expect.poll(connections).toBe(0) // the server saw the connection close
  held.release()
  // The request ends when its received file is discarded (after publishPackage returned or threw).
  await expect.poll(() => filesIn(t.uploadsDir), { timeout: 30_000 }).toEqual([])
  expect(await filesIn(join(t.filesDir, 'packages'))).toEqual([])
  const list = await t.app.inject({ url: '/api/stories/gone-inn/versions', headers: bearer('alice') })
  expect(list.json().items).toEqual([])

  const retry = await upload(t.app, 'gone-inn', bytes)
  expect(retry.statusCode, retry.body).toBe(201)
  expect(await filesIn(join(t.filesDir, 'packages'))).toHaveLength(1)
})
