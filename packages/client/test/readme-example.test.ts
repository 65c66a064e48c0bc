/**
 * The README's usage example runs as written, against a small API on loopback (only `https://spkg.example` is
 * replaced by its address), and does what its comments say.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, isApiClientError } from '../src/index'

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
const example = /## Usage\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''

const at = '2026-11-23T10:00:00.000Z'
const packageId = '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10'
const story = {
  slug: 'the-lighthouse',
  title: 'The Lighthouse',
  author: 'Ada',
  genre: 'mystery',
  instruction: null,
  series: null,
  seriesPosition: null,
  createdAt: at,
  updatedAt: at,
  packageId,
  metadata: { title: 'The Lighthouse' },
  package: null,
  cover: null,
  instructionPackage: null,
}
const state = {
  format: 1,
  id: packageId,
  savedAt: at,
  variables: { gold: 3 },
  choices: {},
  visitedChoiceGroups: [],
  rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
  visitedParts: [],
  renderedParagraph: 0,
}

let server: Server
let origin = ''
const seen: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(
      `${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${req.headers['if-none-match'] ?? ''}`,
    )
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(body))
    }
    req.resume()
    req.on('end', () => {
      if (req.url === '/catalog/stories?page=1&limit=20')
        return send(200, { items: [story], page: 1, limit: 20, total: 1 })
      if (req.url === '/catalog/stories/the-lighthouse')
        return send(200, { ...story, content: '# The Lighthouse' })
      if (req.url === `/api/progress/${packageId}` && req.method === 'GET')
        return send(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No saved reading state' })
      if (req.url === `/api/progress/${packageId}` && req.method === 'PUT')
        return send(201, { storyId: packageId, revision: 1, updatedAt: at }, { etag: '"1"' })
      send(404, { statusCode: 404, code: 'NOT_FOUND', message: 'Story not found' })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('the README usage example', () => {
  it('runs and does what its comments say', async () => {
    expect(example).toContain("createClient({ baseUrl: 'https://spkg.example'")
    const body = example.replace(/^import .*$/m, '').replace('https://spkg.example', origin)
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor
    const logged: unknown[][] = []
    const run = new AsyncFunction(
      'createClient',
      'isApiClientError',
      'accessToken',
      'showSignIn',
      'notice',
      'state',
      'console',
      body,
    )
    await run(
      createClient,
      isApiClientError,
      'tok',
      () => undefined,
      () => undefined,
      state,
      {
        log: (...a: unknown[]) => logged.push(a),
      },
    )
    expect(logged).toEqual([[404, 'NOT_FOUND']])
    expect(seen).toEqual([
      'GET /catalog/stories?page=1&limit=20 - ',
      'GET /catalog/stories/the-lighthouse - ',
      `GET /api/progress/${packageId} Bearer tok `,
      `PUT /api/progress/${packageId} Bearer tok *`,
      'GET /api/stories/nope Bearer tok ',
    ])
  })
})
