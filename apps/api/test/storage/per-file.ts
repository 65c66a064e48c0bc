/**
 * What the storage tests of one file share: a temporary folder and the test S3 server
 * ({@link tmpDirAndS3}), made in the file's `beforeAll` and removed in its `afterAll`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { type FileStorage, FsStorage } from '../../src/storage/create-storage'
import { testAuthPlugin } from '../helpers/app'
import type { TestDb } from '../helpers/db'
import { startTestS3, type TestS3 } from './s3-server'

/** The folder and the server; read them inside a test or a later hook (both exist by then). */
export interface TmpDirAndS3 {
  readonly tmp: string
  readonly s3: TestS3
  /** Both drivers by name, each making a fresh storage: a new folder under `tmp`, or the server's bucket. */
  readonly drivers: Array<[string, (filesUrl?: string) => Promise<FileStorage>]>
}

/** A fresh folder under the system's temporary folder (named from `prefix`) and a started test S3 server. */
export function tmpDirAndS3(prefix: string): TmpDirAndS3 {
  let tmp: string | undefined
  let s3: TestS3 | undefined
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), prefix))
    s3 = await startTestS3()
  }, 30_000)
  afterAll(async () => {
    await s3?.close()
    if (tmp) await rm(tmp, { recursive: true, force: true })
  })
  const made = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`the ${what} is not made yet: read it inside a test`)
    return value
  }
  let n = 0
  const shared: TmpDirAndS3 = {
    get tmp() {
      return made('temporary folder', tmp)
    },
    get s3() {
      return made('test S3 server', s3)
    },
    drivers: [
      ['fs', async (filesUrl) => new FsStorage({ root: join(shared.tmp, `root-${++n}`), filesUrl })],
      ['s3', async (filesUrl) => shared.s3.storage({ filesUrl })],
    ],
  }
  return shared
}

/** The app over `db` and `storage` with the test token check, ready; limits raised (one address, many requests). */
export async function buildFilesApp(db: TestDb['db'], storage: FileStorage): Promise<FastifyInstance> {
  const app = await buildApp(
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_MAX_FACTOR: '100' }),
    {
      db,
      authPlugin: testAuthPlugin,
      storage,
    },
  )
  await app.ready()
  return app
}
