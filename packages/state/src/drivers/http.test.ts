import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testStateDriver } from '../../test/helpers/test-state-driver'
import { createHttpDriver, revisionFromEtag } from './http'

/**
 * A real HTTP server speaking the progress protocol (ETag, If-Match, If-None-Match: *, 412), with
 * one store per collection path so every contract case gets a fresh one.
 */
let server: Server
let origin = ''
const collections = new Map<string, Map<string, { value: string; revision: number }>>()
let counter = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const parts = url.pathname.split('/').filter(Boolean)
    if (req.headers.authorization !== 'Bearer t') return void res.writeHead(401).end()
    const collection = parts[0] ?? ''
    const store = collections.get(collection) ?? new Map()
    collections.set(collection, store)
    if (parts.length === 1 && req.method === 'GET') {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([...store.keys()]))
    }
    const key = decodeURIComponent(parts[1] ?? '')
    const current = store.get(key)
    const chunks: Buffer[] = []
    // Fault injection for the interrupted-write tests: `cut` drops the connection after the first
    // chunk of a PUT body (nothing stored); `lost` stores the value, then drops the answer.
    const fault = req.method === 'PUT' ? req.headers['x-fault'] : undefined
    req.on('data', (c: Buffer) => {
      chunks.push(c)
      if (fault === 'cut') req.socket.destroy()
    })
    req.on('end', () => {
      if (fault === 'cut') return
      if (req.method === 'GET') {
        if (!current) return void res.writeHead(404).end()
        return void res.writeHead(200, { etag: `"${current.revision}"` }).end(current.value)
      }
      if (req.method === 'DELETE') {
        store.delete(key)
        return void res.writeHead(204).end()
      }
      const ifMatch = req.headers['if-match']
      const ifNoneMatch = req.headers['if-none-match']
      const stale =
        (ifNoneMatch === '*' && current) ||
        (ifMatch !== undefined && (!current || ifMatch !== `"${current.revision}"`))
      // `strict`: like the platform API, an overwrite without a precondition is 428 with the current ETag.
      if (fault === 'strict' && current && ifMatch === undefined && ifNoneMatch === undefined)
        return void res.writeHead(428, { etag: `"${current.revision}"` }).end()
      if (stale) return void res.writeHead(412, current ? { etag: `"${current.revision}"` } : {}).end()
      counter += 1
      store.set(key, { value: Buffer.concat(chunks).toString('utf8'), revision: counter })
      if (fault === 'lost') return void res.socket?.destroy()
      res.writeHead(current ? 200 : 201, { etag: `"${counter}"` }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

let n = 0
testStateDriver('http', () => {
  n += 1
  return createHttpDriver({ baseUrl: `${origin}/c${n}/`, headers: () => ({ authorization: 'Bearer t' }) })
})

describe('http driver', () => {
  it('reads revisions from strong and weak entity tags', () => {
    expect(revisionFromEtag('"17"')).toBe('17')
    expect(revisionFromEtag('W/"abc"')).toBe('abc')
    expect(revisionFromEtag(null)).toBeUndefined()
  })

  it('reports a refused request as state/storage-failed with its status', async () => {
    const d = createHttpDriver({ baseUrl: `${origin}/x` })
    await expect(d.set('k', '{}')).rejects.toMatchObject({
      code: 'state/storage-failed',
      message: 'http could not write "k": status 401',
    })
  })

  it('refuses the keys . and .. that a URL would fold into the collection', async () => {
    const d = createHttpDriver({ baseUrl: `${origin}/dots`, headers: { authorization: 'Bearer t' } })
    await expect(d.set('..', '{}')).rejects.toMatchObject({ code: 'state/storage-failed' })
    expect(await d.keys()).toEqual([])
  })

  it('reports an unreachable server as state/storage-failed', async () => {
    const d = createHttpDriver({ baseUrl: 'http://127.0.0.1:9/api/progress' })
    await expect(d.get('k')).rejects.toMatchObject({ code: 'state/storage-failed' })
  })

  describe('interrupted writes', () => {
    const driver = (collection: string, fault?: string) =>
      createHttpDriver({
        baseUrl: `${origin}/${collection}`,
        headers: { authorization: 'Bearer t', ...(fault ? { 'x-fault': fault } : {}) },
      })

    it('keeps the previous state readable when the connection drops in the middle of a save', async () => {
      await driver('cut').set('k', 'previous')
      const big = JSON.stringify({ choices: Array.from({ length: 50_000 }, (_, i) => `option-${i}`) })
      await expect(driver('cut', 'cut').set('k', big)).rejects.toMatchObject({ code: 'state/storage-failed' })
      expect((await driver('cut').get('k'))?.value).toBe('previous')
    })

    it('never lets a save whose answer was lost be overwritten blindly: the next save conflicts', async () => {
      const { revision } = await driver('lost').set('k', 'first')
      await expect(driver('lost', 'lost').set('k', 'second', { ifRevision: revision })).rejects.toMatchObject(
        {
          code: 'state/storage-failed',
        },
      )
      // The server did store "second"; a save still based on "first" must not replace it silently.
      await expect(driver('lost').set('k', 'third', { ifRevision: revision })).rejects.toMatchObject({
        code: 'state/conflict',
      })
      expect((await driver('lost').get('k'))?.value).toBe('second')
    })
  })

  it('overwrites through a server that requires a precondition (428 with the current ETag)', async () => {
    const strict = createHttpDriver({
      baseUrl: `${origin}/strict`,
      headers: { authorization: 'Bearer t', 'x-fault': 'strict' },
    })
    await strict.set('k', 'first')
    const { revision } = await strict.set('k', 'second')
    expect(await strict.get('k')).toEqual({ value: 'second', revision })
    // A compare-and-set write is never retried: a stale revision stays a conflict.
    await expect(strict.set('k', 'third', { ifRevision: 'stale' })).rejects.toMatchObject({
      code: 'state/conflict',
    })
  })
})
