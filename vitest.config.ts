import { defineConfig } from 'vitest/config'

// One run for the whole workspace: every package and app is a Vitest project
// (Vitest 4 replaced `vitest.workspace.ts` by `test.projects`).
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'bench', 'tools'],
  },
})
