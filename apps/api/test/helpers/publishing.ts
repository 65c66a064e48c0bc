/**
 * Publishing tests: the app over a fresh test database (PGlite, or PostgreSQL with DATABASE_URL), the test token
 * check, the filesystem storage in a temporary folder (or the storage given), uploads received in a temporary
 * folder, and package builders.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildPackage } from '@spkg/test-utils'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { afterAll, beforeAll } from 'vitest'
import { buildApp } from '../../src/app'
import { loadConfig, type PublishingSettings } from '../../src/config'
import type { PublishingDeps } from '../../src/routes/versions/register-publishing'
import type { FileStorage } from '../../src/storage/create-storage'
import { bearer, testAuthPlugin } from './app'
import { createTestDb, type TestDb } from './db'

export { bearer }

/** A publishing test app. */
export interface PublishingApp {
  app: FastifyInstance
  tdb: TestDb
  storage: FileStorage
  /** Where uploads are received (must be empty after every request). */
  uploadsDir: string
  filesDir: string
  close(): Promise<void>
}

const unthrottled = fp(
  async (app) => {
    await app.register(testAuthPlugin)
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), throttle: false } as typeof route.config
    })
  },
  { name: 'test-auth-unthrottled' },
)

/** The fake repository host of @spkg/repo-import's tests, as the import reaches it. */
export interface RepositoryHost {
  api: { host: string }
  download: { host: string }
  ca: string
}

/** The options of a publishing app whose repository import is pointed at `host` as if it were GitHub (HTTPS on loopback). */
export function importingOptions(
  host: RepositoryHost,
  env: Record<string, string> = {},
): PublishingAppOptions {
  return {
    env: {
      REPO_HOST: 'github.test.example',
      REPO_API_HOST: host.api.host,
      REPO_DOWNLOAD_HOSTS: host.download.host,
      ...env,
    },
    repoNode: { ca: host.ca, allowPrivateAddresses: true },
  }
}

/** The publishing app with the repository import pointed at `host` (see {@link importingOptions}). */
export function buildImportingApp(
  host: RepositoryHost,
  env: Record<string, string> = {},
): Promise<PublishingApp> {
  return buildPublishingApp(importingOptions(host, env))
}

/** What {@link buildPublishingApp} may be given. */
export interface PublishingAppOptions {
  settings?: Partial<PublishingSettings>
  storage?: FileStorage
  throttle?: boolean
  env?: Record<string, string>
  repoNode?: PublishingDeps['repoNode']
  pool?: PublishingDeps['pool']
}

/** Builds the app for publishing tests. */
export async function buildPublishingApp(options: PublishingAppOptions = {}): Promise<PublishingApp> {
  const tdb = await createTestDb()
  const dir = await mkdtemp(join(tmpdir(), 'spkg-publishing-'))
  const uploadsDir = join(dir, 'uploads')
  const filesDir = join(dir, 'files')
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FILES_DIR: filesDir, ...options.env })
  const app = await buildApp(config, {
    db: tdb.db,
    authPlugin: options.throttle ? testAuthPlugin : unthrottled,
    sweepOrphans: false,
    ...(options.storage && { storage: options.storage }),
    publishing: {
      settings: { tmpDir: uploadsDir, ...options.settings },
      ...(options.repoNode && { repoNode: options.repoNode }),
      ...(options.pool && { pool: options.pool }),
    },
  })
  await app.ready()
  return {
    app,
    tdb,
    storage: app.storage,
    uploadsDir,
    filesDir,
    close: async () => {
      await app.close()
      await tdb.dispose()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The publishing app of a test file or `describe` block: registers a `beforeAll` that builds it (from `options`, or
 * from what `options()` gives then, for options made by an earlier `beforeAll`) and creates the story records
 * `slugs` (owned by alice), and an `afterAll` that closes it. The returned object is filled in by that `beforeAll`.
 *
 * @example
 * const t = usePublishingApp({ settings: { workers: 1 } }, 'the-inn')
 * it('uploads', async () => expect((await upload(t.app, 'the-inn', storyPackage())).statusCode).toBe(201))
 */
export function usePublishingApp(
  options: PublishingAppOptions | (() => PublishingAppOptions | Promise<PublishingAppOptions>) = {},
  ...slugs: string[]
): PublishingApp {
  const t = {} as PublishingApp
  beforeAll(async () => {
    Object.assign(t, await buildPublishingApp(typeof options === 'function' ? await options() : options))
    for (const slug of slugs) await createStory(t.app, slug)
  }, 60_000)
  afterAll(async () => t.close?.(), 60_000)
  return t
}

/** Files in a folder (none when it does not exist). */
export async function filesIn(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [])
}

/** A valid story package (a cover, two parts). */
export function storyPackage(
  manifest: Record<string, unknown> = {},
  parts: Record<string, string> = { 'story/0001-inn.sty': '# Inn\n\nDawn at the inn.\n' },
): Uint8Array {
  return buildPackage({
    manifest: {
      title: 'The Inn',
      version: '1.0.0',
      description: 'A road that forks.',
      language: 'en',
      genre: 'fantasy',
      tags: ['inn'],
      cover: 'assets/cover.svg',
      ...manifest,
    },
    parts,
    assets: { 'assets/cover.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' },
  })
}

/** Creates a story record owned by `sub`. */
export async function createStory(
  app: FastifyInstance,
  slug: string,
  sub = 'alice',
  type: 'story' | 'instruction' = 'story',
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/stories',
    headers: bearer(sub, 'creator'),
    payload: { slug, title: slug, author: 'A', genre: 'g', content: '', type },
  })
  if (res.statusCode !== 201) throw new Error(`create ${slug}: ${res.statusCode} ${res.body}`)
}

/** Uploads bytes as a version. */
export function upload(
  app: FastifyInstance,
  slug: string,
  bytes: Uint8Array,
  sub = 'alice',
  roles = ['creator'],
) {
  return app.inject({
    method: 'POST',
    url: `/api/stories/${slug}/versions`,
    headers: { ...bearer(sub, ...roles), 'content-type': 'application/vnd.spkg+zip' },
    payload: Buffer.from(bytes),
  })
}
