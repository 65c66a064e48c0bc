/**
 * Child process of `pnpm bench api`: the full API (`buildApp`: CORS, helmet, RS256 auth with sessions, two-tier
 * throttling with limits multiplied so nothing answers 429, zod validation and serialisation) and, in the same
 * process on the same database handle, a bare Fastify route running the same query (`listStories`, page 1,
 * limit 20), and `/explain/catalog`, the plan of the catalog page query (`EXPLAIN (ANALYZE, BUFFERS)`, PostgreSQL).
 * Files (packages, covers) go to a temporary folder, removed on exit. Sends `{ full, bare }` base URLs to
 * the parent, then serves until killed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { buildApp } from '../../apps/api/src/app.ts'
import { loadConfig } from '../../apps/api/src/config.ts'
import { catalogPageQuery } from '../../apps/api/src/db/catalog.ts'
import { listStories } from '../../apps/api/src/db/stories.ts'
import { explainAnalyze } from '../../apps/api/test/helpers/explain.ts'

const dir = mkdtempSync(join(tmpdir(), 'spkg-bench-api-'))
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  OIDC_ISSUER: process.env.BENCH_ISSUER,
  OIDC_AUDIENCE: 'spkg-api',
  CORS_ORIGINS: 'https://app.example.org',
  FILES_DIR: join(dir, 'files'),
  UPLOAD_TMP_DIR: join(dir, 'uploads'),
  ...(process.env.BENCH_DATABASE_URL
    ? { DATABASE_URL: process.env.BENCH_DATABASE_URL }
    : { PGLITE_DIR: 'memory://' }),
})

const app = await buildApp(config, { rateLimit: { maxFactor: 1e7 } })
const full = await app.listen({ host: '127.0.0.1', port: 0 })

const bare = Fastify({ logger: false })
bare.get('/api/stories', async () => listStories(app.db, { page: 1, limit: 20 }))
bare.get('/explain/catalog', async (_request, reply) =>
  reply
    .type('text/plain')
    .send(await explainAnalyze(app.db, catalogPageQuery(app.db, { page: 1, limit: 20 }))),
)
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 })

process.send?.({ full, bare: bareUrl })
process.on('SIGTERM', async () => {
  await bare.close()
  await app.close()
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
})
