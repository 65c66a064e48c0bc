/**
 * drizzle-kit configuration: one migrations folder (`drizzle/`) applied to PostgreSQL and PGlite
 * alike. Regenerate after a schema change with `pnpm --filter @spkg/api db:generate`.
 */
import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
})
