import { defineConfig } from 'vitest/config'
import { ciReporters } from './tools/ci-skips.ts'

// One run for the whole workspace: every package and app is a Vitest project
// (Vitest 4 replaced `vitest.workspace.ts` by `test.projects`).
// With CI set, a skipped test fails the run (tools/ci-skips.ts): CI installs every tool tests need.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'bench', 'tools'],
    reporters: ciReporters(),
  },
})
