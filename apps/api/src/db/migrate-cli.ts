/**
 * `pnpm --filter @spkg/api migrate`: applies the migrations to the configured database
 * (`DATABASE_URL`, else the embedded PGlite folder) and exits.
 */
import { ConfigError, loadConfig } from '../config'
import { closeDb, createDb, DbStartError, dbKind } from './connection'
import { migrateDb } from './migrate'

try {
  const config = loadConfig()
  const db = await createDb(config, { max: 1 })
  try {
    await migrateDb(db)
    console.log(`migrations applied (${dbKind(db)})`)
  } finally {
    await closeDb(db)
  }
} catch (err) {
  console.error(
    err instanceof ConfigError
      ? err.message
      : err instanceof DbStartError
        ? `migration failed: ${err.message} (${err.code})`
        : `migration failed: ${(err as Error).message}`,
  )
  process.exitCode = 1
}
