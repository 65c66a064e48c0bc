/**
 * Shared Vitest settings for a workspace project: resolve our packages from their
 * TypeScript sources (the `@spkg/source` export condition) so tests never need a build.
 */
import { defaultServerConditions } from 'vite'
import { defineProject, type UserWorkspaceConfig } from 'vitest/config'

const conditions = ['@spkg/source', ...defaultServerConditions.filter((c) => c !== 'module')]

export function spkgProject(name: string, test: UserWorkspaceConfig['test'] = {}): UserWorkspaceConfig {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@spkg/source'] } },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 20_000,
      ...test,
    },
  })
}
