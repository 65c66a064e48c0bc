/**
 * The two servers of `pnpm bench files-route`, in one child process: the API (`buildApp`, PGlite in memory, the
 * filesystem storage in a temporary folder, one published version whose package is the bench file) and a bare
 * Fastify with `@fastify/static` serving the same file from disk. Prints `{api, static, key, size}` as one JSON
 * line on stdout once both listen; exits when stdin closes.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify from 'fastify'
import { buildApp } from '../../apps/api/src/app.ts'
import { loadConfig } from '../../apps/api/src/config.ts'
import { closeDb, createDb } from '../../apps/api/src/db/connection.ts'
import { migrateDb } from '../../apps/api/src/db/migrate.ts'
import { FsStorage } from '../../apps/api/src/storage/create-storage.ts'
import { insertStoredVersion } from '../../apps/api/test/storage/fixtures.ts'

const SIZE = Number(process.env.FILE_MB ?? 8) * 1024 * 1024
const root = await mkdtemp(join(tmpdir(), 'spkg-bench-files-'))
const storage = new FsStorage({ root })
const db = await createDb({ databaseUrl: undefined, pgliteDir: 'memory://' })
await migrateDb(db)
const v = await insertStoredVersion(db, storage, {
  owner: 'bench',
  bytes: randomBytes(SIZE),
  published: true,
})

const api = await buildApp(
  loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error', RATE_LIMIT_MAX_FACTOR: '10000000' }),
  { db, storage, sweepOrphans: false },
)
await api.listen({ host: '127.0.0.1', port: 0 })

const plain = Fastify({ logger: false })
await plain.register(fastifyStatic, { root, prefix: '/files/' })
await plain.listen({ host: '127.0.0.1', port: 0 })

const port = (s: { server: { address(): unknown } }) => (s.server.address() as { port: number }).port
process.stdout.write(`${JSON.stringify({ api: port(api), static: port(plain), key: v.key, size: SIZE })}\n`)

process.stdin.resume()
process.stdin.on('end', async () => {
  await api.close()
  await plain.close()
  await closeDb(db)
  await rm(root, { recursive: true, force: true })
  process.exit(0)
})
